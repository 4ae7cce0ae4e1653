import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { subagentStop } from "../claude-payloads.js";
import { BIN, STACK_FRAME, metadata, ruleModule, scratch, v7Return, write, type Ran } from "./harness.js";

// Issue 31, points 1 and 8: a return as large as the input limit allows costs every stage a bounded
// amount. Each case runs the built CLI under a heap of HEAP_MB (a stage that grew with the return
// would end in V8's abort, exit 134) and within the host's default hook timeout.

/** The heap each run may use: peak RSS for these inputs was about 200 MB (SECURITY.md, "Huge returns"). */
const HEAP_MB = 256;
/** The heap for the most objects the input limit can hold: peak RSS was about 465 MB. */
const WORST_HEAP_MB = 512;
/** Claude Code's default hook timeout: an answer later than this is no answer. */
const HOOK_TIMEOUT_MS = 30_000;
/** The input limit (RETURNLINT_MAX_INPUT_BYTES' default). */
const INPUT_LIMIT = 10 * 1024 * 1024;

function bounded(args: readonly string[], cwd: string, input: string, heapMb = HEAP_MB): Ran {
  const started = Date.now();
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1" };
  delete env.NODE_OPTIONS;
  delete env.RETURNLINT_SESSION_ID;
  const result = spawnSync(process.execPath, [`--max-old-space-size=${String(heapMb)}`, BIN, ...args], {
    cwd,
    input,
    env,
    encoding: "utf8",
    timeout: HOOK_TIMEOUT_MS,
    maxBuffer: 64 * 1024 * 1024,
  });
  return { status: result.status, signal: result.signal, stdout: result.stdout, stderr: result.stderr, ms: Date.now() - started };
}

/** A v7 return whose artifacts are `count` bare paths "a": phantom work, each entry two failures (a bare string; not there). */
function phantomReturn(count: number): string {
  const value = { status: "completed", summary: "Done.", artifacts: ["a"], metadata: metadata("researcher") };
  // Written out by hand: an array of 1.7 million strings costs the test more than the text.
  return JSON.stringify(value).replace('["a"]', `[${'"a",'.repeat(count - 1)}"a"]`);
}

const PHANTOM_ENTRIES = 1_700_000;

interface JsonReport {
  ok: boolean;
  errorCount: number;
  warningCount: number;
  omittedResults?: number;
  results: { ruleId: string; level: string; messageId: string; message: string; data?: Record<string, unknown> }[];
}

function jsonReport(ran: Ran, stderr = ""): JsonReport {
  expect(ran.stderr).toBe(stderr);
  return JSON.parse(ran.stdout) as JsonReport;
}

describe("1. a phantom return of 1.7 million artifacts, under the input limit", { timeout: 90_000 }, () => {
  const text = phantomReturn(PHANTOM_ENTRIES);

  it("the default hook blocks it within the hook timeout: a bounded reason, a bounded verdict file", () => {
    const root = scratch();
    const message = `Done.\n\n\`\`\`json\n${text}\n\`\`\``;
    const payload = JSON.stringify(subagentStop({ cwd: root, agentType: "researcher", agentId: "a1", message }));
    // The payload the issue names: about 10.2 MB, just under the limit, so the hook reads it whole.
    expect(payload.length).toBeGreaterThan(10_000_000);
    expect(payload.length).toBeLessThan(INPUT_LIMIT);
    const ran = bounded(["hook", "claude"], root, payload);
    expect(ran.signal).toBeNull();
    expect(ran.status).toBe(0);
    expect(ran.stderr).toBe("");
    const decision = JSON.parse(ran.stdout) as { decision: string; reason: string };
    expect(decision.decision).toBe("block");
    expect(decision.reason).toContain("(3400000 problems, attempt 1)");
    expect(decision.reason).toContain("… and 3399980 more problems");
    expect(decision.reason.length).toBeLessThan(8 * 1024);
    const verdictFile = path.join(root, ".returnlint", "verdicts", "researcher--a1.json");
    expect(statSync(verdictFile).size).toBeLessThan(64 * 1024);
    const verdict = JSON.parse(readFileSync(verdictFile, "utf8")) as { ok: boolean; phantom: boolean; decision: string; errors: string[] };
    expect(verdict).toMatchObject({ ok: false, phantom: true, decision: "block" });
    expect(verdict.errors.length).toBeLessThanOrEqual(100);
  });

  it("the most objects the input limit holds (3.3 million empty artifacts): the hook blocks, within 512 MB of heap", () => {
    const root = scratch();
    const value = JSON.stringify({ status: "completed", summary: "Done.", artifacts: [{}], metadata: metadata("researcher") }).replace("[{}]", `[{}${",{}".repeat(3_299_999)}]`);
    const payload = JSON.stringify(subagentStop({ cwd: root, agentType: "researcher", agentId: "a2", message: `\`\`\`json\n${value}\n\`\`\`` }));
    expect(payload.length).toBeLessThan(INPUT_LIMIT);
    const ran = bounded(["hook", "claude"], root, payload, WORST_HEAP_MB);
    expect(ran.signal).toBeNull();
    expect(ran.status).toBe(0);
    const decision = JSON.parse(ran.stdout) as { decision: string; reason: string };
    expect(decision.decision).toBe("block");
    expect(decision.reason).toContain("… and 3299980 more problems");
  });

  it("check --format json: exit 1, every failure counted, 100 listed and the rest summed up", () => {
    const ran = bounded(["check", "-", "--format", "json"], scratch(), text);
    expect(ran.status).toBe(1);
    expect(ran.stdout.length).toBeLessThan(256 * 1024);
    const report = jsonReport(ran);
    expect(report).toMatchObject({ ok: false, errorCount: 3_400_000, omittedResults: 3_399_900 });
    const summary = report.results.find((result) => result.messageId === "resultsOmitted");
    expect(summary).toMatchObject({
      ruleId: "artifacts",
      level: "fail",
      message: "… and 3399900 more results of artifacts, not listed: 3399900 failures",
      data: { omitted: 3_399_900, failures: 3_399_900 },
    });
    expect(report.results.filter((result) => result.ruleId === "artifacts" && result.level === "fail")).toHaveLength(101);
  });

  it("check (stylish): exit 1, the '… and N more' line, no stack", () => {
    const ran = bounded(["check", "-"], scratch(), text);
    expect(ran.status).toBe(1);
    expect(ran.stdout).toContain("[FAIL] … and 3399900 more results of artifacts, not listed: 3399900 failures");
    expect(ran.stdout.length).toBeLessThan(256 * 1024);
    expect(ran.stderr).not.toMatch(STACK_FRAME);
  });

  it("a million different made-up paths: each looked up at most once, 10,000 at most, and the return fails", () => {
    const paths = Array.from({ length: 1_000_000 }, (_, index) => `"${index.toString(36)}"`).join(",");
    const many = JSON.stringify({ status: "completed", summary: "Done.", artifacts: ["a"], metadata: metadata("researcher") }).replace('["a"]', `[${paths}]`);
    expect(many.length).toBeLessThan(INPUT_LIMIT);
    const ran = bounded(["check", "-", "--format", "json"], scratch(), many);
    expect(ran.status).toBe(1);
    const report = jsonReport(ran);
    const tooMany = report.results.find((result) => result.messageId === "tooManyArtifacts");
    expect(tooMany?.message).toBe("Artifacts name more than 10000 different paths: 990000 entries past the first 10000 paths were not checked");
    // A million bare strings, ten thousand paths not found, and the paths not judged.
    expect(report.errorCount).toBe(1_000_000 + 10_000 + 1);
  });
});

describe("a metadata file naming a million made-up modified files", { timeout: 60_000 }, () => {
  it("file-claims looks up the first 10,000 different paths, says so first, and fails the return", () => {
    const root = scratch();
    const paths = Array.from({ length: 1_000_000 }, (_, index) => `"${index.toString(36)}"`).join(",");
    const value = { status: "researched", summary: "Researched.", artifacts: [{ type: "report", path: "specs/1_x/r.md", summary: "Report" }], metadata: metadata("researcher"), modified_files: ["a"] };
    write(root, { "specs/1_x/r.md": "# Report\n", "specs/1_x/.return-meta.json": JSON.stringify(value).replace('["a"]', `[${paths}]`) });
    const ran = bounded(["check", "specs/1_x/.return-meta.json", "--format", "json"], root, "");
    expect(ran.status).toBe(1);
    const report = jsonReport(ran);
    const claims = report.results.filter((result) => result.ruleId === "file-claims");
    expect(claims[0]?.message).toBe("The metadata file names more than 10000 different files: 990000 entries past the first 10000 paths were not checked");
    expect(claims.at(-1)?.message).toBe("… and 9901 more results of file-claims, not listed: 9901 warnings");
  });
});

describe("a custom rule in the rule thread that reports a million findings", { timeout: 60_000 }, () => {
  it("every one is counted; the thread hands over the first 100 and the counts, and the report is bounded", () => {
    const root = scratch();
    const body = 'check(context) { for (let index = 0; index < 1000000; index += 1) context.report({ messageId: "found" }); }';
    write(root, { "rules/loud.mjs": ruleModule("loud", body), "a.md": "# A\n", "r.json": v7Return(["a.md"]), "returnlint.config.json": { rules: { "./rules/loud.mjs": "error" } } });
    const ran = bounded(["check", "r.json", "--format", "json"], root, "");
    expect(ran.status).toBe(1);
    expect(ran.stdout.length).toBeLessThan(64 * 1024);
    const report = jsonReport(ran);
    expect(report).toMatchObject({ ok: false, errorCount: 1_000_000, omittedResults: 999_900 });
    expect(report.results.filter((result) => result.ruleId === "loud")).toHaveLength(101);
    expect(report.results.find((result) => result.messageId === "resultsOmitted")?.message).toBe("… and 999900 more results of loud, not listed: 999900 failures");
  });
});

describe("8. finding amplification: a multi-task return naming one task millions of times", { timeout: 60_000 }, () => {
  const multiTask = (entries: string) =>
    JSON.stringify({ status: "completed", metadata: { tasks_completed: [0], tasks_failed: [], cycles_used: 1, multi_task_mode: true } }).replace("[0]", `[${entries}]`);

  it("five million entries of one task: one warning, exit 0, in every format", () => {
    const root = scratch();
    write(root, { "specs/.return-meta-multi.json": multiTask(`1${",1".repeat(4_999_999)}`) });
    expect(statSync(path.join(root, "specs/.return-meta-multi.json")).size).toBeLessThan(INPUT_LIMIT);
    const json = bounded(["check", "specs/.return-meta-multi.json", "--format", "json"], root, "");
    expect(json.status).toBe(0);
    const report = jsonReport(json);
    expect(report).toMatchObject({ ok: true, errorCount: 0, warningCount: 1 });
    expect(report.results.filter((result) => result.messageId === "duplicateTask").map((result) => result.message)).toEqual([
      "Task 1 is listed more than once in metadata.tasks_completed",
    ]);
    const stylish = bounded(["check", "specs/.return-meta-multi.json"], root, "");
    expect(stylish.status).toBe(0);
    expect(stylish.stderr).toBe("");
  });

  it("three million entries that name no task: every warning counted, a bounded list, --max-warnings still sees them all", () => {
    const root = scratch();
    write(root, { "specs/.return-meta-multi.json": multiTask(`1${",-1".repeat(3_000_000)}`) });
    const ran = bounded(["check", "specs/.return-meta-multi.json", "--format", "json", "--max-warnings", "2999999"], root, "");
    expect(ran.status).toBe(1);
    expect(ran.stdout.length).toBeLessThan(256 * 1024);
    const report = jsonReport(ran, "returnlint: specs/.return-meta-multi.json: 3000000 warnings, more than --max-warnings 2999999.\n");
    expect(report).toMatchObject({ ok: false, errorCount: 0, warningCount: 3_000_000, omittedResults: 2_999_900 });
    expect(report.results.find((result) => result.messageId === "resultsOmitted")?.message).toBe("… and 2999900 more results of multi-task, not listed: 2999900 warnings");
  });
});

describe("the hook when it cannot check a return", { timeout: 60_000 }, () => {
  /**
   * The subagent's definition in .claude/agents/ is a FIFO: the hook may not read it (SECURITY.md,
   * "Files returnlint reads for itself"), so it cannot tell how the return is to be found.
   */
  function unreadable(): { root: string; payload: string } {
    const root = scratch();
    mkdirSync(path.join(root, ".claude", "agents"), { recursive: true });
    spawnSync("mkfifo", [path.join(root, ".claude", "agents", "researcher.md")]);
    const payload = subagentStop({ cwd: root, agentType: "researcher", agentId: "a7", message: "Done." });
    return { root, payload: JSON.stringify(payload) };
  }
  const NOT_CHECKED = /^returnlint hook: could not check the return of researcher: Cannot read the agent definition .*researcher\.md: it is a FIFO \(named pipe\), not a regular file/;

  it("by default the stop goes through, said to the user, and the verdict records that it was not checked", () => {
    const { root, payload } = unreadable();
    const ran = bounded(["hook", "claude"], root, payload);
    expect(ran.status).toBe(0);
    const { systemMessage } = JSON.parse(ran.stdout) as { systemMessage: string };
    expect(systemMessage).toMatch(NOT_CHECKED);
    expect(systemMessage).toContain("; the verdict in .returnlint/verdicts/researcher--a7.json records it (the stop goes through; --fail-closed blocks instead)");
    const verdict = JSON.parse(readFileSync(path.join(root, ".returnlint", "verdicts", "researcher--a7.json"), "utf8")) as Record<string, unknown>;
    expect(verdict).toMatchObject({ ok: false, decision: "allow", allowedBecause: "internal-error" });
  });

  it("--fail-closed holds the agent: exit 2 with the sentence on standard error, and a failing verdict", () => {
    const { root, payload } = unreadable();
    const ran = bounded(["hook", "claude", "--fail-closed"], root, payload);
    expect(ran.status).toBe(2);
    expect(ran.stdout).toBe("");
    expect(ran.stderr).toMatch(NOT_CHECKED);
    const verdict = JSON.parse(readFileSync(path.join(root, ".returnlint", "verdicts", "researcher--a7.json"), "utf8")) as Record<string, unknown>;
    expect(verdict).toMatchObject({ ok: false, decision: "block" });
  });
});
