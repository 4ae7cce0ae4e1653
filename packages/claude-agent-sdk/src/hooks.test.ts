import { describe, expect, it } from "vitest";
import { researchReturnText, tempProject, writeFiles } from "@returnlint/testing";
import { returnlintHooks, type GateVerdict, type HookInput } from "./index.js";

const REPORT = "specs/259_prove_completeness/reports/research-001.md";

/** A SubagentStop hook input as the Claude Agent SDK hands it to a callback (SubagentStopHookInput). */
function subagentStop(cwd: string, message: string, agentType = "lean-research-agent"): HookInput {
  return {
    hook_event_name: "SubagentStop",
    session_id: "4f1c2a9e-0b7d-4c55-9a1e-2d6f8b3c7e10",
    cwd,
    agent_id: "a1b2c3d4",
    agent_type: agentType,
    agent_transcript_path: `${cwd}/missing-transcript.jsonl`,
    last_assistant_message: message,
  };
}

async function stop(hooks: ReturnType<typeof returnlintHooks>, input: HookInput) {
  const [matcher] = hooks.SubagentStop;
  const [callback] = matcher?.hooks ?? [];
  if (callback === undefined) throw new Error("returnlintHooks gave no SubagentStop callback");
  return await callback(input, undefined, { signal: new AbortController().signal });
}

describe("@returnlint/claude-agent-sdk", () => {
  it("blocks a phantom return with the problems addressed to the subagent, then lets the fixed one stop", async () => {
    const project = tempProject();
    const verdicts: GateVerdict[] = [];
    const hooks = returnlintHooks({ onVerdict: (verdict) => void verdicts.push(verdict) });

    const blocked = await stop(hooks, subagentStop(project, researchReturnText([REPORT])));
    expect(blocked.decision).toBe("block");
    expect(blocked.reason).toMatch(/^returnlint: Your final message's return failed validation for \/research \(1 problem, attempt 1\):\n- \/artifacts\/0\/path: /);
    expect(blocked.reason).toContain("finish again with the corrected JSON return as your final message");

    writeFiles(project, { [REPORT]: "# Research\n\nThe lemmas.\n" });
    expect(await stop(hooks, subagentStop(project, researchReturnText([REPORT])))).toEqual({});

    expect(verdicts.map((verdict) => [verdict.decision, verdict.attempt, verdict.report?.phantom])).toEqual([
      ["block", 1, true],
      ["pass", 2, false],
    ]);
    expect(verdicts[0]?.report?.artifacts).toEqual([expect.objectContaining({ path: REPORT, fate: "missing" })]);
  });

  it("lets a failing return through after maxBlocks, and says so in the verdict", async () => {
    const verdicts: GateVerdict[] = [];
    const hooks = returnlintHooks({ maxBlocks: 1, cwd: tempProject(), onVerdict: (verdict) => void verdicts.push(verdict) });
    expect((await stop(hooks, subagentStop("/elsewhere", researchReturnText([REPORT])))).decision).toBe("block");
    expect(await stop(hooks, subagentStop("/elsewhere", researchReturnText(["specs/259_prove_completeness/reports/research-002.md"])))).toEqual({});
    expect(verdicts.map((verdict) => verdict.allowedBecause ?? verdict.decision)).toEqual(["block", "max-blocks"]);
  });

  it("leaves Claude Code's own agents and other events alone", async () => {
    const project = tempProject();
    const hooks = returnlintHooks();
    expect(await stop(hooks, subagentStop(project, researchReturnText([REPORT]), "Explore"))).toEqual({});
    expect(await stop(hooks, { ...subagentStop(project, researchReturnText([REPORT])), hook_event_name: "Stop" })).toEqual({});
  });
});
