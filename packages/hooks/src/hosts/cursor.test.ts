import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { CURSOR_CONVERSATION, CURSOR_SUBAGENT_ID, cursorSubagentStop, researchReturnText, tempProject } from "@returnlint/testing";
import { describe, expect, it } from "vitest";
import { cursor, parseCursorPayload, runStopHook, STATE_DIR, type StopHookOptions } from "../index.js";

// Cursor's agent is not on the npm registry: the payloads follow its hooks documentation field by
// field (@returnlint/testing's cursor-payloads.ts says which).

const REPORT = "specs/259_prove_completeness/reports/research-001.md";

/** A subagentStop whose summary returns the report; `summary: undefined` leaves the final text out. */
function subagentStop(root: string, overrides: Readonly<Record<string, unknown>> = {}): string {
  return JSON.stringify(cursorSubagentStop(root, researchReturnText([REPORT]), overrides));
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
    expect(verdictOf(root)).toMatchObject({ ok: false, command: "research", agentType: "lean-research-agent", agentId: CURSOR_SUBAGENT_ID, sessionId: CURSOR_CONVERSATION, decision: "block", attempts: 1 });
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
    expect(await run(root, subagentStop(root, { summary: researchReturnText([other]), loop_count: 1 }), { maxBlocks: 1 })).toEqual({ status: 0, stdout: "{}\n", stderr: `${sentence}\n` });
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
    const reason = followUp(await run(root, subagentStop(root, { summary: undefined, result: researchReturnText([REPORT]) })));
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
      { ok: true, payload: { event: "subagentStop", main: false, sessionId: CURSOR_CONVERSATION, cwd: root, stopHookActive: false, agentId: CURSOR_SUBAGENT_ID, agentType: "lean-research-agent", lastAssistantMessage: researchReturnText([REPORT]) } },
    ],
    ["a subagentStop without subagent_id", subagentStop(root, { subagent_id: undefined, summary: "" }), { ok: true, payload: { event: "subagentStop", main: false, sessionId: CURSOR_CONVERSATION, cwd: root, stopHookActive: false, agentType: "lean-research-agent", lastAssistantMessage: "" } }],
    [
      "a stop (no final message in its payload)",
      JSON.stringify({ conversation_id: CURSOR_CONVERSATION, generation_id: "g", hook_event_name: "stop", workspace_roots: [root, "/work/other"], status: "completed", loop_count: 0 }),
      { ok: true, payload: { event: "stop", main: true, sessionId: CURSOR_CONVERSATION, cwd: root, stopHookActive: false } },
    ],
    ["an aborted subagent", subagentStop(root, { status: "aborted" }), { ok: true, ignore: 'the subagentStop of lean-research-agent has status "aborted"' }],
    ["another event", JSON.stringify({ conversation_id: CURSOR_CONVERSATION, hook_event_name: "afterFileEdit", workspace_roots: [root] }), { ok: false, reason: '"hook_event_name" is "afterFileEdit": returnlint handles subagentStop and stop hooks only' }],
    ["a Claude Code payload", JSON.stringify({ session_id: "s", cwd: root, hook_event_name: "SubagentStop", agent_type: "researcher" }), { ok: false, reason: '"hook_event_name" is "SubagentStop": returnlint handles subagentStop and stop hooks only; "conversation_id" is missing; "workspace_roots" is missing' }],
    ["workspace_roots not an array", subagentStop(root, { workspace_roots: root }), { ok: false, reason: '"workspace_roots" must be an array of folders; received string' }],
    ["a subagentStop without its type", subagentStop(root, { subagent_type: undefined, conversation_id: 7 }), { ok: false, reason: '"conversation_id" must be a non-empty string; received number; "subagent_type" is missing' }],
  ])("%s", (_name, payload, expected) => {
    expect(parseCursorPayload(payload)).toEqual(expected);
  });
});
