import { describe, expect, it } from "vitest";
import { agentMarkdown, tempProject } from "@returnlint/testing";
import plugin, { ReturnlintPlugin, type ToolCall, type ToolResult } from "./index.js";
import { backgroundResult, CHILD_SESSION, finalMessage, legacyOutput, PARENT_SESSION, researchArgs, taskCall, taskElementOutput } from "./fixtures/task-calls.js";

const REPORT = "specs/259_prove_completeness/reports/research-001.md";

/** Runs the plugin's hooks over one recorded call, as OpenCode does, and returns what the parent reads. */
async function afterTask(root: string, call: ToolCall, result: ToolResult, options: { before?: boolean } = {}): Promise<string> {
  const hooks = await ReturnlintPlugin({ directory: root });
  if (options.before === true) await hooks["tool.execute.before"]({ tool: call.tool, sessionID: call.sessionID, callID: call.callID }, { args: researchArgs });
  const output = structuredClone(result);
  await hooks["tool.execute.after"](call, output);
  return output.output;
}

describe("@returnlint/opencode", () => {
  it("exports the plugin as OpenCode's loader expects", () => {
    expect(plugin).toEqual({ id: "returnlint", server: ReturnlintPlugin });
  });

  it("appends the failure and the task_id to a phantom return", async () => {
    const recorded = legacyOutput(finalMessage(REPORT));
    const seen = await afterTask(tempProject(), taskCall, recorded);
    expect(seen.startsWith(recorded.output)).toBe(true);
    const block = seen.slice(recorded.output.length);
    expect(block).toMatch(/^\n\n<validation tool="returnlint" ok="false">\n/);
    expect(block).toContain("The lean-research-agent return failed validation for /research (1 problem):");
    expect(block).toContain(`1. Artifact does not exist: ${REPORT}`);
    expect(block).toContain(`Resume the subagent with the task tool (task_id: "${CHILD_SESSION}", subagent_type: "lean-research-agent")`);
    expect(block.trimEnd().endsWith("</validation>")).toBe(true);
  });

  it("asks for the task_id alone with the <task> output generation (the task tool has no resume flag)", async () => {
    const seen = await afterTask(tempProject(), taskCall, taskElementOutput(finalMessage(REPORT)));
    expect(seen).toContain(`Resume the subagent with the task tool (task_id: "${CHILD_SESSION}", subagent_type: "lean-research-agent")`);
    expect(seen).not.toContain("resume: true");
  });

  describe("a background task", () => {
    const running = taskElementOutput("The task is working in the background.", "running", "Background task started");
    const landed = (text: string) => ({ parts: [{ type: "text", synthetic: true, text: backgroundResult(text) }] });

    it("is validated when its result lands in the parent's session", async () => {
      const hooks = await ReturnlintPlugin({ directory: tempProject() });
      const started = structuredClone(running);
      await hooks["tool.execute.after"](taskCall, started);
      expect(started.output).toBe(running.output);
      const message = landed(finalMessage(REPORT));
      await hooks["chat.message"]({ sessionID: PARENT_SESSION }, message);
      const [part] = message.parts;
      expect(part?.text.startsWith(backgroundResult(finalMessage(REPORT)))).toBe(true);
      expect(part?.text).toContain(`1. Artifact does not exist: ${REPORT}`);
      expect(part?.text).toContain(`(task_id: "${CHILD_SESSION}", subagent_type: "lean-research-agent", background: true)`);
    });

    it("leaves messages about tasks it did not start alone", async () => {
      const hooks = await ReturnlintPlugin({ directory: tempProject() });
      const message = landed(finalMessage(REPORT));
      await hooks["chat.message"]({ sessionID: PARENT_SESSION }, message);
      expect(message.parts[0]?.text).toBe(backgroundResult(finalMessage(REPORT)));
    });
  });

  it("says a good return passed", async () => {
    const root = tempProject({ [REPORT]: "# Research\n" });
    const seen = await afterTask(root, taskCall, legacyOutput(finalMessage(REPORT)));
    expect(seen).toContain('<validation tool="returnlint" ok="true">\nThe lean-research-agent return passed validation for /research: status completed.\n</validation>');
  });

  it("remembers the arguments from tool.execute.before when tool.execute.after has none", async () => {
    const { args: _args, ...withoutArgs } = taskCall;
    const seen = await afterTask(tempProject(), withoutArgs, legacyOutput(finalMessage(REPORT)), { before: true });
    expect(seen).toContain(`1. Artifact does not exist: ${REPORT}`);
  });

  it("reads the metadata file the command's preset expects", async () => {
    const root = tempProject({
      "returnlint.config.json": JSON.stringify({ commands: { research: { preset: "metadata-file" } } }),
      "specs/259_prove_completeness/.return-meta.json": JSON.stringify({
        status: "researched",
        summary: "Report written",
        artifacts: [{ type: "report", path: REPORT, summary: "Research report" }],
        metadata: { session_id: "sess_1736700000_abc123", agent_type: "lean-research-agent", delegation_depth: 1, delegation_path: ["orchestrator", "research"] },
      }),
    });
    const seen = await afterTask(root, taskCall, legacyOutput(`Research completed for task 259:\n- Created report at ${REPORT}`));
    expect(seen).toContain("The lean-research-agent return (specs/259_prove_completeness/.return-meta.json) failed validation for /research");
    expect(seen).toContain(`Artifact does not exist: ${REPORT}`);
  });

  it("says when a prose return has no JSON in it", async () => {
    const seen = await afterTask(tempProject(), taskCall, legacyOutput("All done, the report is written."));
    expect(seen).toContain("1. Invalid JSON return from lean-research-agent\n   Error: The subagent's final message contains no return");
  });

  it("leaves the prose of an agent alone when its definition asks for a line of its own; checks it when the definition shows a JSON return", async () => {
    const prose = legacyOutput("Done.\n\nREPORT_CREATED: /work/specs/259_prove_completeness/reports/research-001.md");
    const lineOfItsOwn = tempProject({ ".opencode/agent/lean-research-agent.md": agentMarkdown("lean-research-agent", "prose") });
    expect(await afterTask(lineOfItsOwn, taskCall, prose)).toBe(prose.output);
    const json = tempProject({ ".opencode/agent/lean-research-agent.md": agentMarkdown("lean-research-agent", "json") });
    expect(await afterTask(json, taskCall, prose)).toContain("Error: The subagent's final message contains no return");
  });

  const untouched: readonly [string, ToolCall, ToolResult][] = [
    ["another tool", { ...taskCall, tool: "bash" }, legacyOutput(finalMessage(REPORT))],
    ["an agent no command maps to", { ...taskCall, args: { ...researchArgs, subagent_type: "reviewer" } }, legacyOutput(finalMessage(REPORT))],
    ["OpenCode's own explore agent", { ...taskCall, args: { ...researchArgs, subagent_type: "explore" } }, legacyOutput(finalMessage(REPORT))],
    ["OpenCode's own plan agent", { ...taskCall, args: { ...researchArgs, subagent_type: "plan" } }, legacyOutput(finalMessage(REPORT))],
    ["a background task still running", taskCall, taskElementOutput("The task is working in the background.", "running")],
    ["a task that failed", taskCall, taskElementOutput("Subagent failed", "error")],
  ];
  it.each(untouched)("leaves %s alone", async (_name, call, result) => {
    expect(await afterTask(tempProject(), call, result)).toBe(result.output);
  });

  it("reports a broken config inside the block instead of throwing", async () => {
    const root = tempProject({ "returnlint.config.json": "{ not json" });
    const seen = await afterTask(root, taskCall, legacyOutput(finalMessage(REPORT)));
    expect(seen).toMatch(/<validation tool="returnlint" ok="unknown">\nreturnlint could not validate this return: .*returnlint\.config\.json/);
  });
});

describe("the package's entry points", () => {
  // OpenCode (1.18) loads a plugin installed from npm through exports["./server"] (or "main"),
  // never exports["."]: without them it skips the plugin without a word.
  it('names the plugin module in exports["./server"] and "main", as OpenCode looks for it', async () => {
    const { readFileSync } = await import("node:fs");
    const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { main: string; exports: Record<string, { default: string }> };
    expect(manifest.exports["./server"]?.default).toBe("./dist/index.js");
    expect(manifest.main).toBe("./dist/index.js");
    expect(manifest.exports["."]?.default).toBe(manifest.main);
  });
});
