export { describeFailure, giveWay, runClaudeHook, runStopHook, type ClaudeHookOptions, type HookOutput, type HostOutput, type StopHookOptions } from "./hook.js";
export type { HostAdapter, PayloadOutcome, StopPayload } from "./host.js";
export { HOSTS, hostNamed } from "./hosts/index.js";
export { claude, parsePayload } from "./hosts/claude.js";
export { codex, parseCodexPayload } from "./hosts/codex.js";
export { copilot, copilotLogCaughtUp, parseCopilotPayload } from "./hosts/copilot.js";
export { cursor, parseCursorPayload } from "./hosts/cursor.js";
export { PayloadFields } from "./hosts/payload-fields.js";
export { STATE_DIR } from "./state.js";
