import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readRunFacts } from "./read.js";
import { testRunOf } from "./runners.js";

// Each reader against transcripts the real host wrote (`pnpm test:hosts`, claims.hosts.ts, with
// RETURNLINT_RECORD_TRANSCRIPTS=1): when a pinned host is upgraded, re-record them; a shape the
// reader no longer reads fails here.

const fixture = (name: string) => path.join(import.meta.dirname, "fixtures", name);
/** A fixture's line, by its 1-based number: a fact's line must be the entry it was read from. */
const lineOf = (name: string, line: number) => readFileSync(fixture(name), "utf8").split("\n")[line - 1] ?? "";
const read = (name: string, agentId?: string) => readRunFacts(fixture(name), { root: "/nowhere", maxBytes: 64 * 1024 * 1024, ...(agentId === undefined ? {} : { agentId }) });
const NODE_FAILED = { runner: "node --test", passed: false, passedCount: 0, failedCount: 1, closingLine: "# fail 1" };

// The scenario: the subagent ran `node --test test/` (one test failing), wrote its notes, returned
// saying all tests pass, was blocked, and returned again; the parent called it once.
describe("Claude Code 2.1.330", () => {
  const subagent = "claude-2.1.330/subagent.jsonl";
  it("reads the subagent's Bash run with its exit code, the test run, and the Write that created the notes", () => {
    const facts = read(subagent);
    expect(facts).toMatchObject({ ok: true, host: "claude", hostVersion: "2.1.330", badLines: 0, truncated: false });
    if (!facts.ok) return;
    expect(facts.commands).toEqual([expect.objectContaining({ command: "node --test test/", exitCode: 1 })]);
    expect(lineOf(subagent, facts.commands[0]?.line ?? 0)).toContain('"name":"Bash","input":{"command":"node --test test/"');
    expect(facts.tests).toEqual([expect.objectContaining({ line: facts.commands[0]?.line, command: "node --test test/", ...NODE_FAILED })]);
    expect(facts.writes).toEqual([{ line: expect.any(Number) as unknown, path: expect.stringMatching(/\/specs\/259_prove_completeness\/notes\.md$/) as unknown, tool: "Write", action: "created", ok: true }]);
    expect(lineOf(subagent, facts.writes[0]?.line ?? 0)).toContain('"name":"Write"');
    expect(facts.subagents).toEqual([]);
  });

  it("reads the parent's Agent call and its result: the subagent returned", () => {
    const parent = "claude-2.1.330/parent.jsonl";
    const facts = read(parent);
    if (!facts.ok) throw new Error(facts.reason);
    expect(facts.subagents).toEqual([expect.objectContaining({ agent: "lean-research-agent", returned: true })]);
    expect(lineOf(parent, facts.subagents[0]?.line ?? 0)).toContain('"name":"Agent"');
    expect(lineOf(parent, facts.subagents[0]?.returnLine ?? 0)).toContain('"type":"tool_result"');
    expect(facts.commands).toEqual([]);
  });
});

describe("Codex 0.169.0", () => {
  const subagent = "codex-0.169.0/subagent.jsonl";
  it("reads exec_command runs with the exit code Codex printed, and the test run in their output", () => {
    const facts = read(subagent);
    expect(facts).toMatchObject({ ok: true, host: "codex", hostVersion: "0.169.0" });
    if (!facts.ok) return;
    expect(facts.commands.map(({ command, exitCode }) => [command.slice(0, 20), exitCode])).toEqual([
      ["node --test test/", 1],
      ["mkdir -p '/tmp/retur", 0],
    ]);
    expect(lineOf(subagent, facts.commands[0]?.line ?? 0)).toContain('"name":"exec_command"');
    expect(facts.tests).toEqual([expect.objectContaining({ line: facts.commands[0]?.line, ...NODE_FAILED })]);
  });

  it("reads the parent's spawn_agent and the wait that brought the subagent back", () => {
    const parent = "codex-0.169.0/parent.jsonl";
    const facts = read(parent);
    if (!facts.ok) throw new Error(facts.reason);
    expect(facts.subagents).toEqual([expect.objectContaining({ agent: "lean-research-agent", returned: true })]);
    expect(lineOf(parent, facts.subagents[0]?.line ?? 0)).toContain('"name":"spawn_agent"');
    expect(lineOf(parent, facts.subagents[0]?.returnLine ?? 0)).toContain('completed');
  });
});

describe("Copilot CLI 1.0.102", () => {
  const log = "copilot-1.0.102/events.jsonl";
  const subagentId = (/"agentId":"([^"]+)"/.exec(readFileSync(fixture(log), "utf8")) ?? [])[1] ?? "";

  it("reads the subagent's own bash runs out of the session's log, by its agentId", () => {
    const facts = read(log, subagentId);
    expect(facts).toMatchObject({ ok: true, host: "copilot", hostVersion: "1.0.102" });
    if (!facts.ok) return;
    expect(facts.commands.map(({ command, exitCode }) => [command.slice(0, 20), exitCode])).toEqual([
      ["node --test test/", 1],
      ["mkdir -p '/tmp/retur", 0],
    ]);
    expect(lineOf(log, facts.commands[0]?.line ?? 0)).toContain('"type":"tool.execution_start"');
    expect(facts.tests).toEqual([expect.objectContaining({ line: facts.commands[0]?.line, ...NODE_FAILED })]);
    expect(facts.subagents).toEqual([]);
  });

  it("reads the main agent's task call, and that the subagent returned", () => {
    const facts = read(log);
    if (!facts.ok) throw new Error(facts.reason);
    expect(facts.commands).toEqual([]);
    expect(facts.subagents).toEqual([expect.objectContaining({ agent: "lean-research-agent", returned: true })]);
    expect(lineOf(log, facts.subagents[0]?.line ?? 0)).toContain('"toolName":"task"');
    expect(lineOf(log, facts.subagents[0]?.returnLine ?? 0)).toContain('"type":"tool.execution_complete"');
  });
});

describe("what is no transcript", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "returnlint-transcript-"));
  it("says why, never an empty run", () => {
    expect(readRunFacts(path.join(dir, "missing.jsonl"), { root: dir, maxBytes: 1000 })).toEqual({ ok: false, reason: expect.stringContaining("does not exist") as unknown });
    const other = path.join(dir, "other.jsonl");
    writeFileSync(other, '{"hello":"world"}\n');
    expect(readRunFacts(other, { root: dir, maxBytes: 1000 })).toEqual({ ok: false, reason: expect.stringContaining('is no transcript of Claude Code, Codex or Copilot CLI (its first entry is none of theirs)') as unknown });
  });

  it("reads a transcript longer than maxBytes up to there, and says so", () => {
    const long = path.join(dir, "long.jsonl");
    const entry = (id: number) => JSON.stringify({ type: "assistant", uuid: String(id), message: { content: [{ type: "tool_use", id: `t${String(id)}`, name: "Bash", input: { command: `echo ${String(id)}` } }] } });
    writeFileSync(long, `${Array.from({ length: 100 }, (_, id) => entry(id)).join("\n")}\n`);
    const facts = readRunFacts(long, { root: dir, maxBytes: (entry(0).length + 1) * 10 + 5 });
    expect(facts).toMatchObject({ ok: true, truncated: true });
    if (facts.ok) expect(facts.commands.map((command) => command.command)).toEqual(Array.from({ length: 10 }, (_, id) => `echo ${String(id)}`));
  });
});

describe("test runners' closing lines", () => {
  const run = (output: string, exitCode = 0) => testRunOf({ line: 1, command: "test", exitCode, outputTail: output });
  it.each([
    ["vitest, failing", " Test Files  1 failed | 3 passed (4)\n      Tests  2 failed | 40 passed (42)\n   Start at  10:00:00\n", 1, { runner: "vitest", passed: false, failedCount: 2, passedCount: 40, closingLine: "Tests  2 failed | 40 passed (42)" }],
    ["vitest, green", "      Tests  42 passed (42)\n", 0, { runner: "vitest", passed: true, passedCount: 42 }],
    ["jest", "Tests:       1 failed, 4 passed, 5 total\nTime: 1 s\n", 1, { runner: "jest", passed: false, failedCount: 1, passedCount: 4 }],
    ["node --test, spec reporter", "ℹ tests 3\nℹ pass 3\nℹ fail 0\n", 0, { runner: "node --test", passed: true, passedCount: 3, failedCount: 0 }],
    ["pytest", "=========== 1 failed, 2 passed in 0.12s ===========\n", 1, { runner: "pytest", passed: false, failedCount: 1, passedCount: 2 }],
    ["pytest, green", "============ 3 passed in 0.01s ============\n", 0, { runner: "pytest", passed: true, passedCount: 3 }],
    ["cargo test", "test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out\n", 101, { runner: "cargo test", passed: false, passedCount: 1, failedCount: 1 }],
    ["go test", "--- FAIL: TestSum (0.00s)\nFAIL\nFAIL\texample.com/sum\t0.002s\n", 1, { runner: "go test", passed: false, failedCount: 1 }],
    ["go test, green", "ok  \texample.com/sum\t0.002s\n", 0, { runner: "go test", passed: true }],
    ["lake build", "✖ [3/5] Building Foo\nerror: build failed\n", 1, { runner: "lake build", passed: false, closingLine: "error: build failed" }],
    ["lake build, green", "Build completed successfully.\n", 0, { runner: "lake build", passed: true }],
  ] as const)("%s", (_name, output, exitCode, expected) => {
    expect(run(output, exitCode)).toMatchObject(expected);
  });

  it("a runner that says it passed, in a command that exited non-zero, did not pass", () => {
    expect(run("      Tests  42 passed (42)\n", 1)).toMatchObject({ passed: false });
  });

  it("output without a runner's summary is no test run", () => {
    expect(run("compiled 3 files\n")).toBeUndefined();
  });
});
