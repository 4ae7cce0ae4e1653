import { createReturnGate, type GateVerdict, type ReturnGateOptions } from "@returnlint/api";

// The shapes below are the parts of @openai/agents' published types that this adapter uses
// (agents-core dist/toolGuardrail.d.ts: `ToolOutputGuardrailDefinition`, `ToolOutputGuardrailData`,
// `ToolGuardrailFunctionOutput`). Declared structurally, so that the adapter pulls no second copy
// of the SDK into a project.

/** What the runner hands a tool output guardrail: the call (its tool's name) and what the tool returned. */
export interface ToolOutputData {
  readonly toolCall: { readonly name: string; readonly callId?: string };
  readonly output: unknown;
}

/** `allow` hands the output on; `rejectContent` hands the calling model `message` instead. */
export interface GuardrailOutput {
  behavior: { type: "allow" } | { type: "rejectContent"; message: string };
  outputInfo: GateVerdict;
}

export interface ToolOutputGuardrail {
  type: "tool_output";
  name: string;
  run: (data: ToolOutputData) => Promise<GuardrailOutput>;
}

export interface ReturnlintGuardrailOptions extends ReturnGateOptions {
  /** The subagent's name, when the tool's name is not it: it says which command's rules apply. */
  readonly agent?: string;
}

/**
 * A tool output guardrail for an agent used as a tool (`agent.asTool()`), or any tool that runs a
 * subagent: its output is checked as the subagent's return. A failing one is replaced by the
 * problems, addressed to the calling model, which cannot continue the subagent but can run it
 * again or do the work; at most `maxBlocks` times per subagent, then the output goes through.
 * `outputInfo` carries the verdict (the report object in `verdict.report`).
 */
export function returnlintGuardrail(options: ReturnlintGuardrailOptions = {}): ToolOutputGuardrail {
  const gate = createReturnGate(options);
  return {
    type: "tool_output",
    name: "returnlint",
    async run({ toolCall, output }) {
      const agent = options.agent ?? toolCall.name;
      const verdict = await gate.check({ agent, message: typeof output === "string" ? output : JSON.stringify(output), run: agent, reader: "parent" });
      return { behavior: verdict.reason === undefined ? { type: "allow" } : { type: "rejectContent", message: verdict.reason }, outputInfo: verdict };
    },
  };
}
