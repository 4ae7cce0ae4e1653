// @returnlint/claude-agent-sdk: returnlint inside a program that runs the Claude Agent SDK.
export { returnlintHooks, type HookInput, type HookOutput, type ReturnlintHooks, type SubagentStopCallback } from "./hooks.js";
export type { GateVerdict, ReturnGateOptions } from "@returnlint/api";
