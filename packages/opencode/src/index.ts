import { ReturnlintPlugin } from "./plugin.js";

// OpenCode's loader takes the default export `{ id, server }`; older versions call every
// exported function instead, so this module exports no other function.
export { ReturnlintPlugin };
export type { ChatMessage, PluginInput, ReturnlintHooks, ReturnlintPluginOptions, ToolCall, ToolResult } from "./plugin.js";

export default { id: "returnlint", server: ReturnlintPlugin };
