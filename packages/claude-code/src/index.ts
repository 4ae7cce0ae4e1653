export { describeFailure, giveWay, runClaudeHook, type ClaudeHookOptions, type HookOutput } from "./hook.js";
export { parsePayload, type PayloadOutcome, type StopPayload } from "./payload.js";
export { STATE_DIR } from "./state.js";
