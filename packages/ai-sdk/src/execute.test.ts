import { describe, expect, it } from "vitest";
import { researchReturnText, tempProject, writeFiles } from "@returnlint/testing";
import { returnlintExecute, type GateVerdict } from "./index.js";

const REPORT = "specs/259_prove_completeness/reports/research-001.md";

describe("@returnlint/ai-sdk", () => {
  it("hands the parent model the problems in place of a phantom return, then the fixed return itself", async () => {
    const project = tempProject();
    const verdicts: GateVerdict[] = [];
    const seen: unknown[] = [];
    const execute = returnlintExecute(
      "lean-research-agent",
      (input: { task: string }, options: { toolCallId: string }) => {
        seen.push([input.task, options.toolCallId]);
        return Promise.resolve(researchReturnText([REPORT]));
      },
      { cwd: project, onVerdict: (verdict) => void verdicts.push(verdict) },
    );

    const refused = await execute({ task: "259" }, { toolCallId: "call_1" });
    expect(refused).toMatch(/^returnlint: the subagent lean-research-agent stopped, and its return failed validation for \/research \(1 problem\)/);
    expect(refused).toContain(`1. Artifact does not exist: ${REPORT}`);

    writeFiles(project, { [REPORT]: "# Research\n" });
    expect(await execute({ task: "259" }, { toolCallId: "call_2" })).toBe(researchReturnText([REPORT]));
    expect(seen).toEqual([
      ["259", "call_1"],
      ["259", "call_2"],
    ]);
    expect(verdicts.map((verdict) => [verdict.decision, verdict.report?.errorCount])).toEqual([
      ["block", 1],
      ["pass", 0],
    ]);
  });

  it("passes an agent returnlint knows nothing about through untouched", async () => {
    const execute = returnlintExecute("general-purpose", () => "Looked around: nothing to report.", { cwd: tempProject() });
    expect(await execute(undefined, undefined)).toBe("Looked around: nothing to report.");
  });
});
