import { describe, expect, it } from "vitest";
import { researchReturnText, tempProject, writeFiles } from "@returnlint/testing";
import { returnlintGuardrail, type GateVerdict } from "./index.js";

const REPORT = "specs/259_prove_completeness/reports/research-001.md";
/** The function call the runner hands a tool output guardrail (protocol.FunctionCallItem's fields the adapter reads). */
const toolCall = { name: "lean-research-agent", callId: "call_7Hq2xY" };

describe("@returnlint/openai-agents", () => {
  it("rejects a phantom return with the problems addressed to the calling model, then allows the fixed one", async () => {
    const project = tempProject();
    const verdicts: GateVerdict[] = [];
    const guardrail = returnlintGuardrail({ cwd: project, onVerdict: (verdict) => void verdicts.push(verdict) });
    expect(guardrail).toMatchObject({ type: "tool_output", name: "returnlint" });

    const rejected = await guardrail.run({ toolCall, output: researchReturnText([REPORT]) });
    expect(rejected.behavior.type).toBe("rejectContent");
    const message = rejected.behavior.type === "rejectContent" ? rejected.behavior.message : "";
    expect(message).toMatch(/^returnlint: the subagent lean-research-agent stopped, and its return failed validation for \/research \(1 problem\)/);
    expect(message).toContain(`1. Artifact does not exist: ${REPORT}`);
    expect(message).toContain("What it returned, which this message replaces:");
    expect(rejected.outputInfo.report?.phantom).toBe(true);

    writeFiles(project, { [REPORT]: "# Research\n" });
    const allowed = await guardrail.run({ toolCall, output: researchReturnText([REPORT]) });
    expect(allowed.behavior).toEqual({ type: "allow" });
    expect(verdicts.map((verdict) => verdict.decision)).toEqual(["block", "pass"]);
  });

  it("names the subagent by the option when the tool's name is not it, and stops rejecting the same problems twice", async () => {
    const guardrail = returnlintGuardrail({ cwd: tempProject(), agent: "lean-research-agent" });
    const call = { name: "research_tool" };
    expect((await guardrail.run({ toolCall: call, output: researchReturnText([REPORT]) })).behavior.type).toBe("rejectContent");
    const again = await guardrail.run({ toolCall: call, output: researchReturnText([REPORT]) });
    expect(again.behavior).toEqual({ type: "allow" });
    expect(again.outputInfo).toMatchObject({ decision: "allow", allowedBecause: "repeated-feedback", attempt: 2 });
  });
});
