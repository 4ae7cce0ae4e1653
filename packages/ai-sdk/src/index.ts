// @returnlint/ai-sdk: returnlint inside a program that delegates to subagents through the AI SDK.
export { returnlintExecute, type SubagentExecute } from "./execute.js";
export type { GateVerdict, ReturnGateOptions } from "@returnlint/api";
