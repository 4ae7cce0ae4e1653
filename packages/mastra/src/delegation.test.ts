import { describe, expect, it } from "vitest";
import { researchReturnText, tempProject, writeFiles } from "@returnlint/testing";
import { returnlintDelegation, type DelegationComplete, type GateVerdict } from "./index.js";

const REPORT = "specs/259_prove_completeness/reports/research-001.md";

/** The parts of Mastra's DelegationCompleteContext the adapter reads. */
function completed(text: string, changes: Partial<DelegationComplete> = {}): DelegationComplete {
  return { primitiveId: "lean-research-agent", primitiveType: "agent", result: { text }, success: true, runId: "run-1", ...changes };
}

describe("@returnlint/mastra", () => {
  it("replaces a phantom result with the problems for the supervisor, and leaves the fixed one alone", async () => {
    const project = tempProject();
    const verdicts: GateVerdict[] = [];
    const delegation = returnlintDelegation({ cwd: project, onVerdict: (verdict) => void verdicts.push(verdict) });

    const answer = await delegation.onDelegationComplete(completed(researchReturnText([REPORT])));
    expect(answer?.resultText).toMatch(/^returnlint: the subagent lean-research-agent stopped, and its return failed validation for \/research \(1 problem\)/);
    expect(answer?.feedback).toBe(answer?.resultText);

    writeFiles(project, { [REPORT]: "# Research\n" });
    expect(await delegation.onDelegationComplete(completed(researchReturnText([REPORT])))).toBeUndefined();
    expect(verdicts.map((verdict) => [verdict.decision, verdict.reader, verdict.report?.phantom])).toEqual([
      ["block", "parent", true],
      ["pass", "parent", false],
    ]);
  });

  it("leaves workflows and failed delegations alone, and counts attempts per supervisor run", async () => {
    const verdicts: GateVerdict[] = [];
    const delegation = returnlintDelegation({ cwd: tempProject(), maxBlocks: 1, onVerdict: (verdict) => void verdicts.push(verdict) });
    expect(await delegation.onDelegationComplete(completed(researchReturnText([REPORT]), { primitiveType: "workflow" }))).toBeUndefined();
    expect(await delegation.onDelegationComplete(completed(researchReturnText([REPORT]), { success: false }))).toBeUndefined();
    expect(await delegation.onDelegationComplete(completed(researchReturnText([REPORT])))).toBeDefined();
    expect(await delegation.onDelegationComplete(completed(researchReturnText([REPORT]), { runId: "run-2" }))).toBeDefined();
    expect(verdicts.map((verdict) => verdict.decision)).toEqual(["block", "block"]);
  });
});
