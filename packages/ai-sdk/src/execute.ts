import { createReturnGate, type ReturnGateOptions } from "@returnlint/api";

/** A tool's `execute` that runs a subagent and answers with its final message. */
export type SubagentExecute<INPUT, OPTIONS> = (input: INPUT, options: OPTIONS) => string | PromiseLike<string>;

/**
 * Wraps the `execute` of an AI SDK tool that delegates to a subagent (`tool({ execute })`): what
 * the subagent answers is checked as its return, and a failing one reaches the parent model as
 * the problems in its place (the parent cannot continue the subagent; it can run it again or do
 * the work), at most `maxBlocks` times for this agent, then the answer goes through. Every verdict
 * goes to `onVerdict` first. The AI SDK's `tool()` is written around it, so that the wrapper takes
 * no version of the AI SDK of its own.
 */
export function returnlintExecute<INPUT, OPTIONS>(agent: string, execute: SubagentExecute<INPUT, OPTIONS>, options: ReturnGateOptions = {}): (input: INPUT, options: OPTIONS) => Promise<string> {
  const gate = createReturnGate(options);
  return async (input, executionOptions) => {
    const message = await execute(input, executionOptions);
    const verdict = await gate.check({ agent, message, run: agent, reader: "parent" });
    return verdict.reason ?? message;
  };
}
