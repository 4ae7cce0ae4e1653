import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { XMLParser } from "fast-xml-parser";
import { SyntaxValidator } from "fast-xml-validator";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { commit, knownHistory, scratchDir } from "./git-history.js";
import { metadata, project, returnlint } from "./helpers.js";
import { sarifErrors } from "./sarif-schema.js";

// Every command speaks CI: check, scan and audit in sarif, junit and github, the SARIF checked against the
// SARIF 2.1.0 schema, one run per invocation, and each finding's fingerprint the same from one run to the next.

interface SarifLog {
  runs: {
    automationDetails: { id: string };
    results: {
      ruleId: string;
      level: string;
      locations: { physicalLocation?: { artifactLocation: { uri: string }; region?: { startLine: number } } }[];
      partialFingerprints: Record<string, string>;
      properties: Record<string, unknown>;
    }[];
    invocations: { executionSuccessful: boolean; toolExecutionNotifications?: { message: { text: string } }[] }[];
    properties: { returns: number; failed: number; phantom: number; results: number; resultsOmitted?: number; verdicts?: { task?: string; ok: boolean }[] };
  }[];
}

/** A research return of task `n`: every third claims a report never written, every fifth claims nothing (both phantom work), the others pass. */
function taskReturn(n: number): Record<string, unknown> {
  const report = `specs/${String(n)}_task/reports/research-001.md`;
  const artifacts = n % 5 === 0 ? [] : [{ type: "report", path: report, summary: "The research report" }];
  return { status: "researched", summary: `Researched task ${String(n)}.`, artifacts, metadata: { ...metadata("lean-research-agent"), session_id: "sess_1736700000_abc123" } };
}

/** Thirty task folders, their reports written where the return is honest. */
function thirtyTasks(): string {
  const files: Record<string, unknown> = {};
  for (let n = 1; n <= 30; n += 1) {
    files[`specs/${String(n)}_task/.return-meta.json`] = taskReturn(n);
    if (n % 3 !== 0 && n % 5 !== 0) files[`specs/${String(n)}_task/reports/research-001.md`] = `# Task ${String(n)}\n`;
  }
  return project(files);
}

const failing = (n: number) => n % 3 === 0 || n % 5 === 0;
const failingCount = Array.from({ length: 30 }, (_, index) => index + 1).filter(failing).length;

function sarifOf(text: string): SarifLog {
  const log = JSON.parse(text) as SarifLog;
  expect(sarifErrors(log)).toEqual([]);
  return log;
}

const fingerprints = (log: SarifLog): string[] => (log.runs[0]?.results ?? []).map((result) => result.partialFingerprints["returnlintFinding/v1"] ?? "").sort();

function wellFormed(xml: string): void {
  expect(() => SyntaxValidator.validate(xml, { xmlDeclaraion: { optional: false } })).not.toThrow();
}

describe("check --task 1-30 --format sarif", () => {
  it("is one run for the thirty tasks, with its category, each task's verdict, and a result per failure", () => {
    const root = thirtyTasks();
    const run = returnlint(["check", "--task", "1-30", "--root", root, "-f", "sarif"], { cwd: root });
    expect(run.status).toBe(1);
    const log = sarifOf(run.stdout);
    expect(log.runs).toHaveLength(1);
    const [only] = log.runs;
    expect(only?.automationDetails).toEqual({ id: "returnlint/check/" });
    expect(only?.properties).toMatchObject({ returns: 30, failed: failingCount, phantom: failingCount });
    expect(only?.properties.verdicts?.filter((verdict) => !verdict.ok).map((verdict) => Number(verdict.task))).toEqual([3, 5, 6, 9, 10, 12, 15, 18, 20, 21, 24, 25, 27, 30]);
    expect(new Set(only?.results.map((result) => result.locations[0]?.physicalLocation?.artifactLocation.uri))).toEqual(
      new Set([3, 5, 6, 9, 10, 12, 15, 18, 20, 21, 24, 25, 27, 30].map((n) => `specs/${String(n)}_task/.return-meta.json`)),
    );
  });
});

describe("scan in the CI formats", () => {
  it("writes SARIF, JUnit and annotations from one walk, and the exit code stays the scan's", () => {
    const root = thirtyTasks();
    const run = returnlint(["scan", "-f", "sarif", "-o", "scan.sarif", "-f", "junit", "-o", "scan.xml", "-f", "github"], { cwd: root });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(1);
    const log = sarifOf(readFileSync(path.join(root, "scan.sarif"), "utf8"));
    expect(log.runs).toHaveLength(1);
    expect(log.runs[0]?.automationDetails).toEqual({ id: "returnlint/scan/" });
    expect(log.runs[0]?.properties).toMatchObject({ returns: 30, failed: failingCount, phantom: failingCount });

    const xml = readFileSync(path.join(root, "scan.xml"), "utf8");
    wellFormed(xml);
    const suites = (new XMLParser({ ignoreAttributes: false }).parse(xml) as { testsuites: { "@_failures": string; testsuite: unknown[] } }).testsuites;
    expect(suites.testsuite).toHaveLength(30);
    expect(Number(suites["@_failures"])).toBe(failingCount);

    const annotations = run.stdout.trimEnd().split("\n");
    expect(annotations).toHaveLength(log.runs[0]?.results.length ?? -1);
    const line = readFileSync(path.join(root, "specs/3_task/.return-meta.json"), "utf8").split("\n").findIndex((text) => text.includes("research-001.md")) + 1;
    expect(annotations).toContain(`::error file=specs/3_task/.return-meta.json,line=${String(line)},title=returnlint artifacts at /artifacts/0/path::Artifact does not exist: specs/3_task/reports/research-001.md%0AError: Subagent claimed to create artifact but file does not exist%0ARecommendation: Verify lean-research-agent writes artifacts to correct paths`);
  });

  it("keeps each finding's fingerprint from one run to the next, and after unrelated changes that move its line", () => {
    const root = thirtyTasks();
    const first = sarifOf(returnlint(["scan", "-f", "sarif"], { cwd: root }).stdout);
    expect(fingerprints(sarifOf(returnlint(["scan", "-f", "sarif"], { cwd: root }).stdout))).toEqual(fingerprints(first));
    expect(new Set(fingerprints(first)).size).toBe(fingerprints(first).length);

    // Task 3's return rewritten on fewer lines (its finding moves), a new failing task 33, task 1's report edited.
    writeFileSync(path.join(root, "specs/3_task/.return-meta.json"), JSON.stringify(taskReturn(3)));
    writeFileSync(path.join(root, "specs/1_task/reports/research-001.md"), "# Task 1, revised\n");
    mkdirSync(path.join(root, "specs/33_task"));
    writeFileSync(path.join(root, "specs/33_task/.return-meta.json"), JSON.stringify(taskReturn(33)));
    const second = sarifOf(returnlint(["scan", "-f", "sarif"], { cwd: root }).stdout);
    const moved = second.runs[0]?.results.find((result) => result.locations[0]?.physicalLocation?.artifactLocation.uri === "specs/3_task/.return-meta.json");
    expect(moved?.locations[0]?.physicalLocation?.region?.startLine).toBe(1);
    expect(fingerprints(second)).toEqual(expect.arrayContaining(fingerprints(first)));
    expect(fingerprints(second)).toHaveLength(fingerprints(first).length + 1);
  });
});

describe("scan --max-warnings", () => {
  it("fails a return with more warnings than it allows, in the table and in every CI format", () => {
    const root = project({
      "specs/1_task/.return-meta.json": { ...taskReturn(1), metadata: { ...(taskReturn(1).metadata as Record<string, unknown>), delegation_path: ["orchestrator", "research"] } },
      "specs/1_task/reports/research-001.md": "# Task 1\n",
    });
    const lenient = returnlint(["scan", "-f", "github"], { cwd: root });
    expect(lenient.status).toBe(0);
    expect(lenient.stdout).toMatch(
      /^::warning file=specs\/1_task\/\.return-meta\.json,line=\d+,title=returnlint delegation at \/metadata\/delegation_path::Delegation path does not end with the returning agent: ends with research, agent_type is lean-research-agent/,
    );

    const strict = returnlint(["scan", "--max-warnings", "0", "-f", "sarif", "-o", "scan.sarif", "-f", "stylish", "-f", "github"], { cwd: root });
    expect(strict.status).toBe(1);
    expect(strict.stdout).toContain("[FAIL] specs/1_task/.return-meta.json: 1 warning, more than --max-warnings 0\n");
    expect(strict.stdout).toContain("::error file=specs/1_task/.return-meta.json,");
    expect(sarifOf(readFileSync(path.join(root, "scan.sarif"), "utf8")).runs[0]?.properties).toMatchObject({ returns: 1, failed: 1, phantom: 0 });
  });
});

describe("audit in the CI formats", () => {
  let history: ReturnType<typeof knownHistory>;
  beforeAll(() => {
    history = knownHistory();
  });

  it("writes SARIF, JUnit and annotations of one audit: a result per failure of a judged version, located by path and commit", () => {
    const out = scratchDir();
    const run = returnlint(["audit", history.dir, "-f", "sarif", "-o", path.join(out, "audit.sarif"), "-f", "junit", "-o", path.join(out, "audit.xml"), "-f", "github"]);
    expect(run.status).toBe(0);
    const log = sarifOf(readFileSync(path.join(out, "audit.sarif"), "utf8"));
    expect(log.runs).toHaveLength(1);
    const [only] = log.runs;
    expect(only?.automationDetails).toEqual({ id: "returnlint/audit/" });
    const failed = history.expected.filter((version) => !version.ok);
    expect(only?.properties).toMatchObject({ returns: history.expected.length, failed: failed.length, phantom: history.expected.filter((version) => version.phantom).length });
    expect(only?.results.length).toBe(failed.reduce((sum, version) => sum + version.failures.length, 0));
    expect(only?.results.map((result) => result.properties.messageId)).toEqual(failed.flatMap((version) => version.failures));

    const xml = readFileSync(path.join(out, "audit.xml"), "utf8");
    wellFormed(xml);
    expect(xml).toContain(`failures="${String(failed.length)}"`);

    const annotations = run.stdout.trimEnd().split("\n");
    expect(annotations.filter((line) => line.startsWith("::error "))).toHaveLength(failed.length);
    expect(annotations[0]).toMatch(/^::error file=specs\/1_phantom\/\.return-meta\.json,title=returnlint audit%3A specs\/1_phantom\/\.return-meta\.json at [0-9a-f]{12} \(2025-01-10\)::Phantom work/);
  });

  it("keeps each finding's fingerprint when the history grows", () => {
    const before = sarifOf(returnlint(["audit", history.dir, "-f", "sarif"]).stdout);
    commit(history.dir, "2025-06-01T09:00:00Z", { files: { "specs/40_new/.return-meta.json": JSON.parse(JSON.stringify(taskReturn(40))) as Record<string, unknown> } });
    const after = sarifOf(returnlint(["audit", history.dir, "-f", "sarif"]).stdout);
    expect(fingerprints(after)).toEqual(expect.arrayContaining(fingerprints(before)));
    expect(fingerprints(after).length).toBe(fingerprints(before).length + 1);
  });
});

describe("a SARIF run past GitHub's 25,000 results", () => {
  beforeAll(() => {
    vi.stubGlobal("RETURNLINT_VERSION", "0.0.0-test");
  });
  afterAll(() => {
    vi.unstubAllGlobals();
  });

  it("lists the first 25,000, and says in the run how many it left out", async () => {
    const { sarifLog, sarifLocation } = await import("../src/formatters/sarif.js");
    const findings = Array.from({ length: 25_003 }, (_, index) => ({
      ruleId: "artifacts",
      level: "error" as const,
      message: `Artifact ${String(index)} does not exist`,
      locations: [sarifLocation({ path: "specs/1_a/.return-meta.json", line: 1 }, `/artifacts/${String(index)}/path`)],
      properties: {},
      identity: ["specs/1_a/.return-meta.json", "artifacts", "notFound", `/artifacts/${String(index)}/path`],
    }));
    const log = sarifOf(sarifLog([{ command: "scan", root: "/tmp", rules: [], findings, executionSuccessful: true, properties: {} }]));
    const [only] = log.runs;
    expect(only?.results).toHaveLength(25_000);
    expect(only?.properties).toMatchObject({ results: 25_003, resultsOmitted: 3 });
    expect(only?.invocations[0]?.toolExecutionNotifications?.[0]?.message.text).toBe("3 of 25003 results are not listed: GitHub code scanning takes at most 25000 per run.");
  });
});
