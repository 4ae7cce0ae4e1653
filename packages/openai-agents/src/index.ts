// @returnlint/openai-agents: returnlint inside a program that runs the OpenAI Agents SDK.
export { returnlintGuardrail, type GuardrailOutput, type ReturnlintGuardrailOptions, type ToolOutputData, type ToolOutputGuardrail } from "./guardrail.js";
export type { GateVerdict, ReturnGateOptions } from "@returnlint/api";
