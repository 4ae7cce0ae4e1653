// @returnlint/mastra: returnlint inside a program whose Mastra supervisor delegates to sub-agents.
export { returnlintDelegation, type DelegationAnswer, type DelegationComplete, type ReturnlintDelegation } from "./delegation.js";
export type { GateVerdict, ReturnGateOptions } from "@returnlint/api";
