import { readFileSync, symlinkSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { agentMarkdown, tempProject } from "@returnlint/testing";
import { parsePayload, runClaudeHook, STATE_DIR, type ClaudeHookOptions } from "./index.js";
import { isoTimestamp } from "./state.js";

const REPORT = "specs/259_prove_completeness/reports/research-001.md";

/** A SubagentStop payload (the fields of @anthropic-ai/claude-agent-sdk's SubagentStopHookInput) whose final message returns `artifacts`. */
function subagentStop(cwd: string, artifacts: readonly string[], stopHookActive = false): string {
  const value = {
    status: "completed",
    summary: "Researched task 259 and wrote the report.",
    artifacts: artifacts.map((artifact) => ({ type: "report", path: artifact, summary: "Research report" })),
    metadata: { session_id: "sess_1", agent_type: "lean-research-agent", delegation_depth: 1, delegation_path: ["orchestrator", "research", "lean-research-agent"] },
  };
  return JSON.stringify({
    session_id: "9f3c2a51-6d0e-4b8a-9a41-2f7c1e0d5b66",
    cwd,
    hook_event_name: "SubagentStop",
    stop_hook_active: stopHookActive,
    agent_id: "a4e1f2c3",
    agent_type: "lean-research-agent",
    last_assistant_message: `Research complete.\n\n\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\``,
  });
}

/** Runs the hook once; what it wrote and the exit code it answered. */
async function run(options: Omit<ClaudeHookOptions, "stdout" | "stderr">): Promise<{ status: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const status = await runClaudeHook({
    ...options,
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
  });
  return { status, stdout, stderr };
}

const verdictOf = (root: string) => JSON.parse(readFileSync(path.join(root, STATE_DIR, "verdicts", "lean-research-agent--a4e1f2c3.json"), "utf8")) as Record<string, unknown>;

describe("runClaudeHook", { timeout: 30_000 }, () => {
  it("sends back a subagent whose artifact does not exist, and leaves the verdict", async () => {
    const root = tempProject();
    const answer = await run({ payloadText: subagentStop(root, [REPORT]), cwd: root });
    expect(answer.status).toBe(0);
    expect(answer.stderr).toBe("");
    const output = JSON.parse(answer.stdout) as { decision: string; reason: string };
    expect(output.decision).toBe("block");
    expect(output.reason).toContain("failed validation for /research (1 problem, attempt 1):");
    expect(output.reason).toContain(`- /artifacts/0/path: file "${REPORT}" does not exist; write it, or fix the path.`);
    expect(verdictOf(root)).toMatchObject({ ok: false, command: "research", agentId: "a4e1f2c3", errors: [`Artifact does not exist: ${REPORT}`], attempts: 1, decision: "block" });
  });

  it("lets a good return stop silently", async () => {
    const root = tempProject({ [REPORT]: "# Research\n" });
    expect(await run({ payloadText: subagentStop(root, [REPORT]), cwd: root })).toEqual({ status: 0, stdout: "", stderr: "" });
    expect(verdictOf(root)).toMatchObject({ ok: true, errors: [], decision: "pass" });
  });

  it("blocks at most maxBlocks times, then lets the stop through, says so and records why", async () => {
    const root = tempProject();
    const first = await run({ payloadText: subagentStop(root, [REPORT]), cwd: root, maxBlocks: 1 });
    expect(JSON.parse(first.stdout)).toMatchObject({ decision: "block" });
    const other = "specs/259_prove_completeness/reports/research-002.md";
    const sentence = "returnlint hook: gave up after 1 block, the most --max-blocks allows (max-blocks): the return of lean-research-agent still fails (1 problem); the verdict in .returnlint/verdicts/lean-research-agent--a4e1f2c3.json records it";
    expect(await run({ payloadText: subagentStop(root, [other], true), cwd: root, maxBlocks: 1 })).toEqual({ status: 0, stdout: `${JSON.stringify({ systemMessage: sentence })}\n`, stderr: `${sentence}\n` });
    expect(verdictOf(root)).toMatchObject({ ok: false, decision: "allow", allowedBecause: "max-blocks", attempts: 2 });
  });

  it("lets the stop through on a broken payload, or answers 2 with failClosed", async () => {
    const root = tempProject();
    const said = "returnlint hook: ignoring a broken hook payload: the payload must be a JSON object; received array (the stop goes through; --fail-closed blocks instead)";
    // The user sees the systemMessage; standard error is for logs.
    expect(await run({ payloadText: "[]", cwd: root })).toEqual({ status: 0, stdout: `${JSON.stringify({ systemMessage: said })}\n`, stderr: `${said}\n` });
    expect(await run({ payloadText: "", cwd: root, failClosed: true })).toEqual({
      status: 2,
      stdout: "",
      stderr: "returnlint hook: ignoring a broken hook payload: standard input is empty (expected the hook's JSON payload)\n",
    });
  });

  it("never throws: a state folder that is a symlink is refused in a sentence and the stop goes through", async () => {
    const root = tempProject();
    const elsewhere = tempProject();
    symlinkSync(elsewhere, path.join(root, STATE_DIR));
    const answer = await run({ payloadText: subagentStop(root, [REPORT]), cwd: root });
    expect(answer.status).toBe(0);
    expect((JSON.parse(answer.stdout) as { systemMessage: string }).systemMessage).toMatch(/^returnlint hook: Cannot keep the hook's state in .*\.returnlint: .*never through a link/);
    expect(answer.stderr).toMatch(/^returnlint hook: Cannot keep the hook's state in .*\.returnlint: .*never through a link/);
  });

  it("an unknown command is said and lets the stop through; run by hand, it is thrown as a usage error", async () => {
    const root = tempProject();
    const answer = await run({ payloadText: subagentStop(root, [REPORT]), cwd: root, command: "implment" });
    expect(answer.status).toBe(0);
    expect((JSON.parse(answer.stdout) as { systemMessage: string }).systemMessage).toContain('Unknown command "implment" (did you mean "implement"?)');
    await expect(run({ payloadText: subagentStop(root, [REPORT]), cwd: root, command: "implment", interactive: true })).rejects.toMatchObject({ code: "USAGE" });
  });

  it("reads the config file it is given, relative to cwd", async () => {
    const root = tempProject({ "tools/returnlint.config.json": JSON.stringify({ agents: { "lean-research-agent": "plan" } }) });
    const answer = await run({ payloadText: subagentStop(root, [REPORT]), cwd: root, configFile: "tools/returnlint.config.json" });
    // Its agents map, not the agent's name, says which command's rules apply.
    expect((JSON.parse(answer.stdout) as { reason: string }).reason).toContain("failed validation for /plan (");
    expect(verdictOf(root)).toMatchObject({ command: "plan" });
  });
});

/** A SubagentStop of `agent` whose final message is `message`. */
function stopWith(cwd: string, agent: string, message: string): string {
  return JSON.stringify({ session_id: "9f3c2a51-6d0e-4b8a-9a41-2f7c1e0d5b66", cwd, hook_event_name: "SubagentStop", stop_hook_active: false, agent_id: "b5f2", agent_type: agent, last_assistant_message: message });
}

describe("which agents owe a return", { timeout: 30_000 }, () => {
  const PROSE = "Done.\n\nREPORT_CREATED: /work/specs/259_x/reports/001.md";

  it("lets the prose of an agent through when its definition asks for a line of its own, not a return returnlint checks", async () => {
    const root = tempProject({ ".claude/agents/research-specialist.md": agentMarkdown("research-specialist", "prose") });
    expect(await run({ payloadText: stopWith(root, "research-specialist", PROSE), cwd: root })).toEqual({ status: 0, stdout: "", stderr: "" });
  });

  it("still checks a JSON return such an agent gives, and sends back its phantom work", async () => {
    const root = tempProject({ ".claude/agents/lean-research-agent.md": agentMarkdown("lean-research-agent", "prose") });
    const answer = await run({ payloadText: subagentStop(root, [REPORT]), cwd: root });
    expect(JSON.parse(answer.stdout)).toMatchObject({ decision: "block", reason: expect.stringContaining(`file "${REPORT}" does not exist`) as unknown });
  });

  it.each([
    ["its definition shows a JSON return with a status", agentMarkdown("research-specialist", "json"), {}],
    ["the config's agents map names it", agentMarkdown("research-specialist", "prose"), { "returnlint.config.json": JSON.stringify({ agents: { "research-specialist": "research" } }) }],
  ])("sends back prose when %s", async (_why, definition, files) => {
    const root = tempProject({ ".claude/agents/research-specialist.md": definition, ...files });
    const answer = await run({ payloadText: stopWith(root, "research-specialist", PROSE), cwd: root });
    expect(JSON.parse(answer.stdout)).toMatchObject({ decision: "block", reason: expect.stringContaining("your reply contains no JSON object") as unknown });
  });

  it("tells a subagent whose definition asks for a metadata file that it wrote none", async () => {
    const root = tempProject({ ".claude/agents/research-specialist.md": agentMarkdown("research-specialist", "metadata-file") });
    const answer = await run({ payloadText: stopWith(root, "research-specialist", "- Research done\n- Metadata written"), cwd: root });
    expect(JSON.parse(answer.stdout)).toMatchObject({ decision: "block", reason: expect.stringContaining(".return-meta.json") as unknown });
  });

  it("goes by the name alone for an agent with no definition in the project, as before", async () => {
    const root = tempProject();
    const answer = await run({ payloadText: stopWith(root, "research-specialist", PROSE), cwd: root });
    expect(JSON.parse(answer.stdout)).toMatchObject({ decision: "block" });
  });
});

describe("parsePayload", () => {
  it.each([
    ["a SubagentStop", { session_id: "s", cwd: "/p", agent_type: "researcher", agent_id: "a1" }, { ok: true, payload: { event: "SubagentStop", main: false, sessionId: "s", cwd: "/p", stopHookActive: false, agentType: "researcher", agentId: "a1" } }],
    ["a Stop", { session_id: "s", cwd: "/p", hook_event_name: "Stop", stop_hook_active: true, transcript_path: "/t.jsonl" }, { ok: true, payload: { event: "Stop", main: true, sessionId: "s", cwd: "/p", stopHookActive: true, transcriptPath: "/t.jsonl" } }],
    ["another event", { session_id: "s", cwd: "/p", hook_event_name: "PreToolUse" }, { ok: false, reason: '"hook_event_name" is "PreToolUse": returnlint handles Stop and SubagentStop hooks only' }],
    ["a payload without its session", { cwd: "/p", stop_hook_active: "yes" }, { ok: false, reason: '"session_id" is missing; "stop_hook_active" must be a boolean; received string' }],
  ])("%s", (_name, payload, expected) => {
    expect(parsePayload(JSON.stringify(payload))).toEqual(expected);
  });
});

describe("isoTimestamp", () => {
  it.each([0, 1_735_460_684_123, Date.UTC(2026, 10, 26, 9, 5, 7, 4), Date.UTC(999, 0, 1)])("writes %d as toISOString does", (ms) => {
    expect(isoTimestamp(ms)).toBe(new Date(ms).toISOString());
  });
});
