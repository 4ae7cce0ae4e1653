import { createReturnGate, type ReturnGateOptions } from "@returnlint/api";

// The shapes below are the parts of @mastra/core's published types that this adapter uses
// (dist/agent/agent.types.d.ts: `DelegationConfig`, `DelegationCompleteContext`,
// `DelegationCompleteResult`). Declared structurally, so that the adapter pulls no second copy of
// Mastra into a project.

/** What Mastra hands `onDelegationComplete`: the sub-agent (its id), its result, the supervisor's run. */
export interface DelegationComplete {
  readonly primitiveId: string;
  readonly primitiveType: "agent" | "workflow";
  readonly result: { readonly text: string };
  readonly success: boolean;
  readonly runId: string;
}

/** `resultText` replaces what the supervisor reads as the delegation's result in this run; `feedback` is kept in its memory for the next turns. */
export interface DelegationAnswer {
  resultText?: string;
  feedback?: string;
}

/** The `delegation` option of a supervisor's `generate()` or `stream()`, its hook returnlint's. */
export interface ReturnlintDelegation {
  onDelegationComplete: (context: DelegationComplete) => Promise<DelegationAnswer | undefined>;
}

/**
 * `delegation` for a Mastra supervisor (`supervisor.generate(prompt, { delegation })`): what each
 * sub-agent returns is checked as its return when the delegation completes. A failing one reaches
 * the supervisor as the problems, in place of the result and as feedback for its next iteration
 * (the supervisor cannot continue the sub-agent; it can delegate again or do the work), at most
 * `maxBlocks` times per sub-agent and run. Workflows and failed delegations are left alone.
 */
export function returnlintDelegation(options: ReturnGateOptions = {}): ReturnlintDelegation {
  const gate = createReturnGate(options);
  return {
    async onDelegationComplete(context) {
      if (context.primitiveType !== "agent" || !context.success) return undefined;
      const agent = context.primitiveId;
      const verdict = await gate.check({ agent, message: context.result.text, run: `${context.runId}:${agent}`, reader: "parent" });
      return verdict.reason === undefined ? undefined : { resultText: verdict.reason, feedback: verdict.reason };
    },
  };
}
