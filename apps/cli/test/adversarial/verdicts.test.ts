import { spawnSync } from "node:child_process";
import { closeSync, existsSync, lutimesSync, mkdirSync, openSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { subagentStop } from "../claude-payloads.js";
import { run, runAsync, scratch, write } from "./harness.js";

/**
 * Issue 31, points 5 and 6: the gate the docs recommend cannot be forged by the subagent it
 * judges, a give-up is visible and recorded, a block counts only once it was written, and the
 * lock is correct rather than lucky.
 */

const TASK = "specs/259_prove_completeness";
const PROMPT = `Research task 259 (${TASK}). Write ${TASK}/reports/research-001.md, then ${TASK}/.return-meta.json; return brief bullets, not JSON.`;
const PROSE = "- Researched the completeness proof\n- Wrote the report";
const VERDICTS = ".returnlint/verdicts";

/** A project whose researcher was delegated task 259 (its transcript holds the prompt and no write). */
function delegated(): { root: string; payload: Record<string, unknown> } {
  const root = scratch();
  const transcript = path.join(root, "transcript.jsonl");
  write(root, { [`${TASK}/notes.md`]: "# Notes\n", "returnlint.config.json": { preset: "metadata-file" } });
  writeFileSync(transcript, `${JSON.stringify({ type: "user", message: { role: "user", content: PROMPT } })}\n`);
  const payload = { ...subagentStop({ cwd: root, agentType: "researcher", message: PROSE }), agent_transcript_path: transcript };
  return { root, payload };
}

const verdict = (root: string, name: string) => JSON.parse(readFileSync(path.join(root, VERDICTS, `${name}.json`), "utf8")) as Record<string, unknown>;

describe("31.5: the documented gate cannot be forged by the subagent it judges", { timeout: 60_000 }, () => {
  it("a forged verdicts/task-259.json is replaced by the hook's verdict for the task it judged, at every stop", () => {
    const { root, payload } = delegated();
    mkdirSync(path.join(root, VERDICTS), { recursive: true });
    writeFileSync(path.join(root, VERDICTS, "task-259.json"), '{"ok":true}\n');

    const first = run(["hook", "claude", "--command", "research"], { cwd: root, input: JSON.stringify(payload) });
    expect(first.status).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ decision: "block" });
    expect(verdict(root, "task-259")).toMatchObject({ ok: false, task: "259", decision: "block", source: `${TASK}/.return-meta.json` });

    // The subagent forges the file again and stops with the same prose.
    writeFileSync(path.join(root, VERDICTS, "task-259.json"), '{"ok":true}\n');
    const second = run(["hook", "claude", "--command", "research"], { cwd: root, input: JSON.stringify({ ...payload, stop_hook_active: true }) });
    expect(second.status).toBe(0);
    const sentence = `returnlint hook: gave up after 2 attempts: the problems are the same as the ones last sent back (repeated-feedback): the return of researcher still fails (1 problem); the verdict in ${VERDICTS}/task-259.json records it`;
    expect(second.stdout).toBe(`${JSON.stringify({ systemMessage: sentence })}\n`);
    expect(verdict(root, "task-259")).toMatchObject({ ok: false, decision: "allow", allowedBecause: "repeated-feedback", attempts: 2 });
    expect(readdirSync(path.join(root, VERDICTS))).toEqual(["task-259.json"]);

    // The gate docs/hosts.md recommends re-checks the task: a verdict file cannot pass it.
    const gate = run(["check", "--task", "259", "--command", "research", "--quiet"], { cwd: root });
    expect(gate.status).toBe(1);
  });

  it("the recommended gate fails even when the hook could not tell which task the prose was for", () => {
    const { root, payload } = delegated();
    const blind = { ...payload };
    delete blind.agent_transcript_path;
    mkdirSync(path.join(root, VERDICTS), { recursive: true });
    writeFileSync(path.join(root, VERDICTS, "task-259.json"), '{"ok":true}\n');
    const ran = run(["hook", "claude", "--command", "research"], { cwd: root, input: JSON.stringify(blind) });
    expect(ran.status).toBe(0);
    expect(verdict(root, "researcher--a4e1f2c3")).toMatchObject({ ok: false, task: null });
    expect(run(["check", "--task", "259", "--command", "research", "--quiet"], { cwd: root }).status).toBe(1);
  });
});

describe("a metadata file the subagent wrote where it may not be read is its finding", { timeout: 60_000 }, () => {
  it("a task folder made a link to another folder: the stop is blocked with the reason, never let through as unchecked", () => {
    const root = scratch();
    write(root, { "elsewhere/.return-meta.json": { status: "researched", artifacts: [], metadata: { session_id: "sess_1", agent_type: "researcher", delegation_depth: 1, delegation_path: ["orchestrator", "researcher"] } } });
    mkdirSync(path.join(root, "specs"));
    symlinkSync("../elsewhere", path.join(root, "specs/412_x"));
    const transcript = path.join(root, "agent-a7.jsonl");
    const lines = [
      { type: "user", message: { role: "user", content: "Research task 412." } },
      { type: "assistant", message: { role: "assistant", content: [{ type: "tool_use", id: "toolu_0", name: "Write", input: { file_path: path.join(root, "specs/412_x/.return-meta.json"), content: "…" } }] } },
      { type: "user", message: { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_0", content: "File created successfully" }] } },
    ];
    writeFileSync(transcript, `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`);
    const payload = { ...subagentStop({ cwd: root, agentType: "researcher", agentId: "a7", message: "Done." }), agent_transcript_path: transcript };
    const ran = run(["hook", "claude", "--command", "research"], { cwd: root, input: JSON.stringify(payload) });
    expect(ran.status).toBe(0);
    const { reason } = JSON.parse(ran.stdout) as { reason: string };
    expect(reason).toContain("Your return (specs/412_x/.return-meta.json) failed validation for /research");
    expect(reason).toContain("specs/412_x is a symbolic link");
    expect(verdict(root, "task-412")).toMatchObject({ ok: false, decision: "block" });
  });
});

describe("31.6: a block counts only once it was written", { timeout: 60_000 }, () => {
  it("standard output on /dev/full: exit 2 with a sentence, no feedback counted as sent, and the next stop is blocked again", () => {
    const { root, payload } = delegated();
    const full = openSync("/dev/full", "w");
    let lost;
    try {
      lost = spawnSync(process.execPath, [path.join(import.meta.dirname, "../../dist/returnlint.js"), "hook", "claude", "--command", "research"], {
        cwd: root,
        input: JSON.stringify(payload),
        stdio: ["pipe", full, "pipe"],
        encoding: "utf8",
        timeout: 20_000,
      });
    } finally {
      closeSync(full);
    }
    expect(lost.status).toBe(2);
    expect(lost.stderr).toMatch(/^returnlint hook: could not send researcher back: writing the block to standard output failed \(.*ENOSPC.*\); its return fails; the verdict in \.returnlint\/verdicts\/task-259\.json records it\n/);
    // Exit 2 held the agent (it counts towards --max-blocks), but no feedback was sent.
    const ledger = JSON.parse(readFileSync(path.join(root, ".returnlint", "ledger.json"), "utf8")) as { entries: Record<string, unknown> };
    expect(Object.values(ledger.entries)).toMatchObject([{ blocks: 1, attempts: 1, lastProblems: null }]);

    // The same stop again (as replayed, and as the host sends it after a hold), with an output that works: blocked, not let through as "already told".
    const replayed = run(["hook", "claude", "--command", "research"], { cwd: root, input: JSON.stringify({ ...payload, stop_hook_active: true }) });
    expect(JSON.parse(replayed.stdout)).toMatchObject({ decision: "block" });
  });
});

describe("31.6: the lock is correct, not lucky", { timeout: 90_000 }, () => {
  /** A process id that existed and no longer does. */
  function deadPid(): number {
    const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
    return Number(child.stdout);
  }

  const failing = (index: number) =>
    JSON.stringify({
      status: "completed",
      summary: `Run ${String(index)}.`,
      artifacts: [],
      metadata: { session_id: `sess_${String(index)}`, agent_type: "researcher", delegation_depth: 1, delegation_path: ["orchestrator", "research", "researcher"] },
    });

  it("a lock whose holder died, found by 30 writers at once, is removed once: every entry kept, nothing left behind", async () => {
    const root = scratch();
    mkdirSync(path.join(root, "logs"));
    writeFileSync(path.join(root, "logs", "errors.json.lock"), `returnlint-lock ${String(deadPid())} ${hostname()} dead-holder\n`);
    const runs = await Promise.all(Array.from({ length: 30 }, (_, index) => runAsync(["check", "-", "--log-errors", "logs/errors.json", "--session-id", `sess_${String(index)}`, "--quiet"], { cwd: root, input: failing(index) })));
    expect(runs.map((ran) => [ran.status, ran.stderr])).toEqual(runs.map(() => [1, ""]));
    const log = JSON.parse(readFileSync(path.join(root, "logs", "errors.json"), "utf8")) as { errors: { session_id: string }[] };
    expect(log.errors.map((entry) => entry.session_id).sort()).toEqual(Array.from({ length: 30 }, (_, index) => `sess_${String(index)}`).sort());
    // No lock, no right to break one, no file put aside.
    expect(readdirSync(path.join(root, "logs"))).toEqual(["errors.json"]);
  });

  it("a live holder's lock is never broken, however old: the waiter ends with a sentence after the deadline, and the lock stays", () => {
    const root = scratch();
    write(root, { "r.json": JSON.parse(failing(1)) as Record<string, unknown> });
    mkdirSync(path.join(root, "logs"));
    const lock = path.join(root, "logs", "errors.json.lock");
    // This test's own process holds it: alive for the whole wait.
    writeFileSync(lock, `returnlint-lock ${String(process.pid)} ${hostname()} live-holder\n`);
    const longAgo = new Date("2001-01-01T00:00:00Z");
    lutimesSync(lock, longAgo, longAgo);
    const ran = run(["check", "r.json", "--log-errors", "logs/errors.json", "--quiet"], { cwd: root, timeout: 40_000 });
    expect(ran.status).toBe(2);
    expect(ran.stderr).toBe(`returnlint: Timed out after 10 s waiting for the lock ${lock}: it did not change hands in that time. Delete it if no returnlint is running.\n`);
    expect(readFileSync(lock, "utf8")).toBe(`returnlint-lock ${String(process.pid)} ${hostname()} live-holder\n`);
    expect(existsSync(path.join(root, "logs", "errors.json"))).toBe(false);
  });
});
