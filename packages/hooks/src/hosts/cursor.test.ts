import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { tempProject } from "@returnlint/testing";
import { describe, expect, it } from "vitest";
import { cursor, parseCursorPayload, runStopHook, STATE_DIR, type StopHookOptions } from "../index.js";

// Cursor's agent CLI is not on the npm registry, so these payloads are built from Cursor's hooks
// documentation (cursor.com/docs/agent/hooks), field by field: every hook gets conversation_id,
// generation_id, model, hook_event_name, cursor_version, workspace_roots, user_email and
// transcript_path; a subagentStop adds subagent_type, status, task, description, summary,
// duration_ms, message_count, tool_call_count, loop_count, modified_files and agent_transcript_path
// (and subagent_id, which subagentStart documents); a stop adds status and loop_count.

const REPORT = "specs/259_prove_completeness/reports/research-001.md";
const CONVERSATION = "c7d2a9e4-5b1f-4e38-9a60-2f4b8c1d0e77";

/** The subagent's final text: a sentence, then its v7 return in a ```json fence. */
function finalText(artifacts: readonly string[]): string {
  const value = {
    status: "researched",
    summary: "Researched task 259 and wrote the report.",
    artifacts: artifacts.map((artifact) => ({ type: "report", path: artifact, summary: "Research report" })),
    metadata: { session_id: "sess_1736700000_abc123", agent_type: "lean-research-agent", delegation_depth: 1, delegation_path: ["orchestrator", "research", "lean-research-agent"] },
  };
  return `Research complete.\n\n\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\``;
}

/** A subagentStop payload as Cursor's docs describe it; `summary: undefined` leaves the final text out. */
function subagentStop(root: string, overrides: Readonly<Record<string, unknown>> = {}): string {
  const payload: Record<string, unknown> = {
    conversation_id: CONVERSATION,
    generation_id: "0e5f3b7a-91c4-4d2e-b8a6-3c7d9e1f2a40",
    model: "claude-4.5-sonnet",
    hook_event_name: "subagentStop",
    cursor_version: "2.4.21",
    workspace_roots: [root],
    user_email: "dev@example.com",
    transcript_path: null,
    subagent_id: "sa_4e1f2c3b",
    subagent_type: "lean-research-agent",
    status: "completed",
    task: "Research task 259 and write the report.",
    description: "Research task 259",
    summary: finalText([REPORT]),
    duration_ms: 45_210,
    message_count: 14,
    tool_call_count: 9,
    loop_count: 0,
    modified_files: [REPORT],
    agent_transcript_path: null,
    ...overrides,
  };
  return JSON.stringify(payload);
}

async function run(root: string, payloadText: string, options: Partial<StopHookOptions> = {}): Promise<{ status: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const status = await runStopHook(cursor, {
    payloadText,
    cwd: root,
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

function followUp(answer: { status: number; stdout: string }): string {
  expect(answer.status).toBe(0);
  const output = JSON.parse(answer.stdout) as Record<string, unknown>;
  expect(Object.keys(output)).toEqual(["followup_message"]);
  return output.followup_message as string;
}

const verdictPath = (root: string) => path.join(root, STATE_DIR, "verdicts", "lean-research-agent--sa_4e1f2c3b.json");
const verdictOf = (root: string) => JSON.parse(readFileSync(verdictPath(root), "utf8")) as Record<string, unknown>;

describe("returnlint hook cursor, on the payloads Cursor's docs describe", { timeout: 30_000 }, () => {
  it("sends a phantom return back through followup_message, addressed to the subagent, and records the verdict", async () => {
    const root = tempProject();
    const answer = await run(root, subagentStop(root));
    expect(answer.stderr).toBe("");
    const reason = followUp(answer);
    expect(reason).toContain("failed validation for /research (1 problem, attempt 1):");
    expect(reason).toContain(`- /artifacts/0/path: file "${REPORT}" does not exist; write it, or fix the path.`);
    expect(verdictOf(root)).toMatchObject({ ok: false, command: "research", agentType: "lean-research-agent", agentId: "sa_4e1f2c3b", sessionId: CONVERSATION, decision: "block", attempts: 1 });
  });

  it("answers {} to a good return, which lets the subagent stop", async () => {
    const root = tempProject({ [REPORT]: "# Research\n" });
    expect(await run(root, subagentStop(root))).toEqual({ status: 0, stdout: "{}\n", stderr: "" });
    expect(verdictOf(root)).toMatchObject({ ok: true, decision: "pass", errors: [] });
  });

  it("is bounded by --max-blocks: the give-up goes through with {} and is said on standard error and in the verdict", async () => {
    const root = tempProject();
    followUp(await run(root, subagentStop(root), { maxBlocks: 1 }));
    const other = "specs/259_prove_completeness/reports/research-002.md";
    const sentence =
      "returnlint hook: gave up after 1 block, the most --max-blocks allows (max-blocks): the return of lean-research-agent still fails (1 problem); the verdict in .returnlint/verdicts/lean-research-agent--sa_4e1f2c3b.json records it";
    expect(await run(root, subagentStop(root, { summary: finalText([other]), loop_count: 1 }), { maxBlocks: 1 })).toEqual({ status: 0, stdout: "{}\n", stderr: `${sentence}\n` });
    expect(verdictOf(root)).toMatchObject({ ok: false, decision: "allow", allowedBecause: "max-blocks", attempts: 2 });
  });

  it("stops sending the same problems twice (repeated-feedback)", async () => {
    const root = tempProject();
    followUp(await run(root, subagentStop(root)));
    const again = await run(root, subagentStop(root, { loop_count: 1 }));
    expect(again.stdout).toBe("{}\n");
    expect(again.stderr).toContain("returnlint hook: gave up after 2 attempts: the problems are the same as the ones last sent back (repeated-feedback)");
    expect(verdictOf(root)).toMatchObject({ decision: "allow", allowedBecause: "repeated-feedback" });
  });

  it("leaves Cursor's own agents alone, whatever --command says: {} and no verdict", async () => {
    const root = tempProject();
    for (const agent of ["generalPurpose", "explore", "shell"]) {
      expect(await run(root, subagentStop(root, { subagent_type: agent }), { command: "research" })).toEqual({ status: 0, stdout: "{}\n", stderr: "" });
    }
    expect(existsSync(path.join(root, STATE_DIR))).toBe(false);
  });

  it("leaves an aborted or failed subagent alone: nothing returned, nothing to send back", async () => {
    const root = tempProject();
    for (const status of ["aborted", "error"]) {
      expect(await run(root, subagentStop(root, { status, summary: "" }))).toEqual({ status: 0, stdout: "{}\n", stderr: "" });
    }
    expect(existsSync(path.join(root, STATE_DIR))).toBe(false);
  });

  it("says so, rather than passing, when the payload has no final message; --fail-closed holds the agent with a follow-up", async () => {
    const root = tempProject();
    const sentence = "returnlint hook: ignoring a hook payload without the agent's final message (subagentStop of lean-research-agent): this Cursor version does not send it";
    expect(await run(root, subagentStop(root, { summary: undefined }))).toEqual({ status: 0, stdout: "{}\n", stderr: `${sentence} (the stop goes through; --fail-closed blocks instead)\n` });
    const held = await run(root, subagentStop(root, { summary: undefined }), { failClosed: true });
    expect(followUp(held)).toBe(sentence);
    expect(held.stderr).toBe(`${sentence}\n`);
  });

  it("reads the final text from result where a payload of an earlier docs version has no summary", async () => {
    const root = tempProject();
    const reason = followUp(await run(root, subagentStop(root, { summary: undefined, result: finalText([REPORT]) })));
    expect(reason).toContain(`file "${REPORT}" does not exist`);
  });

  it("lets a broken payload through with {} and a sentence on standard error; --fail-closed sends the sentence as a follow-up", async () => {
    const root = tempProject();
    const said = 'returnlint hook: ignoring a broken hook payload: "workspace_roots" is empty (expected the project\'s folder)';
    expect(await run(root, subagentStop(root, { workspace_roots: [] }))).toEqual({ status: 0, stdout: "{}\n", stderr: `${said} (the stop goes through; --fail-closed blocks instead)\n` });
    const held = await run(root, "", { failClosed: true });
    expect(followUp(held)).toBe("returnlint hook: ignoring a broken hook payload: standard input is empty (expected the hook's JSON payload)");
  });

  it("with --fail-closed, a broken config holds the agent through followup_message, at most --max-blocks times", async () => {
    const root = tempProject({ "returnlint.config.json": "{ not json" });
    const first = followUp(await run(root, subagentStop(root), { failClosed: true, maxBlocks: 1 }));
    expect(first).toMatch(/^returnlint hook: .*returnlint\.config\.json/);
    const second = await run(root, subagentStop(root, { loop_count: 1 }), { failClosed: true, maxBlocks: 1 });
    expect(second.stdout).toBe("{}\n");
    expect(second.stderr).toContain("(--fail-closed gave way: max-blocks)");
    expect(verdictOf(root)).toMatchObject({ ok: false, decision: "allow", allowedBecause: "max-blocks" });
  });
});

describe("parseCursorPayload", () => {
  const root = "/work/project";
  it.each([
    [
      "a subagentStop",
      subagentStop(root),
      { ok: true, payload: { event: "subagentStop", main: false, sessionId: CONVERSATION, cwd: root, stopHookActive: false, agentId: "sa_4e1f2c3b", agentType: "lean-research-agent", lastAssistantMessage: finalText([REPORT]) } },
    ],
    ["a subagentStop without subagent_id", subagentStop(root, { subagent_id: undefined, summary: "" }), { ok: true, payload: { event: "subagentStop", main: false, sessionId: CONVERSATION, cwd: root, stopHookActive: false, agentType: "lean-research-agent", lastAssistantMessage: "" } }],
    [
      "a stop (no final message in its payload)",
      JSON.stringify({ conversation_id: CONVERSATION, generation_id: "g", hook_event_name: "stop", workspace_roots: [root, "/work/other"], status: "completed", loop_count: 0 }),
      { ok: true, payload: { event: "stop", main: true, sessionId: CONVERSATION, cwd: root, stopHookActive: false } },
    ],
    ["an aborted subagent", subagentStop(root, { status: "aborted" }), { ok: true, ignore: 'the subagentStop of lean-research-agent has status "aborted"' }],
    ["another event", JSON.stringify({ conversation_id: CONVERSATION, hook_event_name: "afterFileEdit", workspace_roots: [root] }), { ok: false, reason: '"hook_event_name" is "afterFileEdit": returnlint handles subagentStop and stop hooks only' }],
    ["a Claude Code payload", JSON.stringify({ session_id: "s", cwd: root, hook_event_name: "SubagentStop", agent_type: "researcher" }), { ok: false, reason: '"hook_event_name" is "SubagentStop": returnlint handles subagentStop and stop hooks only; "conversation_id" is missing; "workspace_roots" is missing' }],
    ["workspace_roots not an array", subagentStop(root, { workspace_roots: root }), { ok: false, reason: '"workspace_roots" must be an array of folders; received string' }],
    ["a subagentStop without its type", subagentStop(root, { subagent_type: undefined, conversation_id: 7 }), { ok: false, reason: '"conversation_id" must be a non-empty string; received number; "subagent_type" is missing' }],
  ])("%s", (_name, payload, expected) => {
    expect(parseCursorPayload(payload)).toEqual(expected);
  });
});
