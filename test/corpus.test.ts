import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { tempProject, writeFiles } from "@returnlint/testing";
import {
  corpusExists,
  commandForStatus,
  describeRecord,
  expectationsFor,
  formatSummary,
  insideRoot,
  readIndex,
  replayCorpus,
  resolveCorpusDir,
  summarize,
  type CorpusSummary,
  type IndexEntry,
  type ReplayRecord,
  type ReplayRun,
} from "../scripts/corpus-lib.mjs";

const REPO = fileURLToPath(new URL("..", import.meta.url));
const CLI = path.join(REPO, "apps", "cli", "dist", "returnlint.cjs");
const CORPUS = resolveCorpusDir(REPO);

const SESSION = { session_id: "sess_1768788507_c30ebc", agent_type: "general-research-agent", delegation_depth: 1, delegation_path: ["orchestrator", "research"] };

function record(overrides: Partial<ReplayRecord> & Pick<ReplayRecord, "ok" | "expectations">): ReplayRecord {
  return {
    file: "x.json",
    path: "specs/1_x/.return-meta.json",
    status: "researched",
    command: "research",
    errorCount: 0,
    warningCount: 0,
    problems: [],
    skipped: [],
    detection: { fromPath: "metadata-file", sameVerdict: true, contentOnly: "metadata-file" },
    ...overrides,
  };
}

const NO_EXPECTATIONS = { badPaths: [], artifactsChecked: true, mustFailBadPath: false, exemptBadPath: false, mustFailNoArtifacts: false, mustPass: false };

function violationsOf(summary: CorpusSummary, id: "a" | "b" | "c" | "d"): readonly ReplayRecord[] {
  const result = summary.invariants.find((invariant) => invariant.id === id);
  if (result === undefined) throw new Error(`no invariant ${id}`);
  return result.violations;
}

describe("corpus replay: what each return is expected to get", () => {
  it("infers the command from the contextual success status only", () => {
    expect([commandForStatus("researched"), commandForStatus("planned"), commandForStatus("implemented")]).toEqual(["research", "plan", "implement"]);
    expect([commandForStatus("partial"), commandForStatus("done"), commandForStatus(null), commandForStatus("constructor")]).toEqual([null, null, null, null]);
  });

  it("recreates paths only inside the root", () => {
    const root = path.join(tmpdir(), "root");
    expect(insideRoot(root, "specs/1_x/reports/r.md")).toBe(path.join(root, "specs/1_x/reports/r.md"));
    expect(insideRoot(root, "a/../b.md")).toBe(path.join(root, "b.md"));
    for (const hostile of ["/etc/passwd", "../outside.md", "a/../../outside.md", "", ".", "a\0b", 42]) expect(insideRoot(root, hostile)).toBeNull();
  });

  it("expects a bad artifact path to fail only under a status whose artifacts are checked", () => {
    const entry = (status: string): IndexEntry => ({ file: "f", path: "p", status, artifact_paths_at_commit: [["specs/1_x/r.md", "never_in_history"]] });
    const value = (status: string): unknown => ({ status, artifacts: [{ type: "report", path: "specs/1_x/r.md" }], metadata: SESSION });
    expect(expectationsFor(entry("implemented"), value("implemented"))).toMatchObject({ mustFailBadPath: true, exemptBadPath: false, mustPass: false });
    expect(expectationsFor(entry("partial"), value("partial"))).toMatchObject({ mustFailBadPath: false, exemptBadPath: true, mustPass: false });
  });

  it("expects success-like statuses with no artifacts to fail, and schema-following returns to pass", () => {
    const none: IndexEntry = { file: "f", path: "p" };
    for (const status of ["researched", "completed", "done", "research_complete", "report_written", "tasks_created"]) {
      expect(expectationsFor(none, { status, artifacts: [], metadata: SESSION }).mustFailNoArtifacts, status).toBe(true);
    }
    for (const status of ["in_progress", "partial", "blocked", "awaiting_confirmation"]) {
      expect(expectationsFor(none, { status, artifacts: [], metadata: SESSION }).mustFailNoArtifacts, status).toBe(false);
    }
    const present: IndexEntry = { file: "f", path: "p", artifact_paths_at_commit: [["specs/1_x/r.md", "present"]] };
    expect(expectationsFor(present, { status: "researched", artifacts: [{ path: "specs/1_x/r.md" }], metadata: SESSION }).mustPass).toBe(true);
    expect(expectationsFor(present, { status: "researched", artifacts: ["specs/1_x/r.md"], metadata: SESSION }).mustPass).toBe(false);
    expect(expectationsFor(present, { status: "researched", artifacts: [{ path: "specs/1_x/r.md" }], session_id: "s", metadata: {} }).mustPass).toBe(false);
    expect(expectationsFor(present, { status: "done", artifacts: [{ path: "specs/1_x/r.md" }], metadata: SESSION }).mustPass).toBe(false);
    const implemented = { status: "implemented", artifacts: [{ path: "specs/1_x/r.md" }], metadata: SESSION };
    expect(expectationsFor(present, implemented).mustPass).toBe(false);
    expect(expectationsFor(present, { ...implemented, completion_data: { completion_summary: "Did it." } }).mustPass).toBe(true);
    // A handoff the index does not record cannot be recreated: the replay expects nothing of such a return.
    const partial = { status: "partial", artifacts: [{ path: "specs/1_x/r.md" }], metadata: SESSION };
    expect(expectationsFor(present, { ...partial, partial_progress: { handoff_path: null } }).mustPass).toBe(true);
    expect(expectationsFor(present, { ...partial, partial_progress: { handoff_path: "specs/1_x/handoffs/h.md" } }).mustPass).toBe(false);
    expect(expectationsFor(present, { ...partial, modified_files: ["src/a.ts"] }).mustPass).toBe(false);
  });

  it("reports every return that breaks an invariant, and only those", () => {
    const run: ReplayRun = {
      corpusDir: "corpus",
      tempDir: "tmp",
      elapsedMs: 1,
      records: [
        record({ file: "phantom-passed.json", ok: true, expectations: { ...NO_EXPECTATIONS, mustFailBadPath: true } }),
        record({ file: "empty-passed.json", ok: true, expectations: { ...NO_EXPECTATIONS, mustFailNoArtifacts: true } }),
        record({ file: "good-failed.json", ok: false, expectations: { ...NO_EXPECTATIONS, mustPass: true } }),
        record({ file: "phantom-failed.json", ok: false, expectations: { ...NO_EXPECTATIONS, mustFailBadPath: true, mustFailNoArtifacts: true } }),
        record({ file: "good-passed.json", ok: true, expectations: { ...NO_EXPECTATIONS, mustPass: true } }),
        record({ file: "misdetected.json", ok: false, expectations: NO_EXPECTATIONS, detection: { fromPath: "v5", sameVerdict: false, contentOnly: "v5" } }),
      ],
    };
    const summary = summarize(run);
    expect(summary.ok).toBe(false);
    expect([summary.passed, summary.failed]).toEqual([3, 3]);
    expect(violationsOf(summary, "a").map((r) => r.file)).toEqual(["phantom-passed.json"]);
    expect(violationsOf(summary, "b").map((r) => r.file)).toEqual(["empty-passed.json"]);
    expect(violationsOf(summary, "c").map((r) => r.file)).toEqual(["good-failed.json"]);
    expect(violationsOf(summary, "d").map((r) => r.file)).toEqual(["misdetected.json"]);
    expect(formatSummary(summary)).toContain("good-failed.json");
  });
});

describe("corpus replay of a small corpus on disk", () => {
  const corpus = tempProject();
  const outside = `returnlint-corpus-escape-${String(process.pid)}-${String(Date.now())}`;
  const files: Record<string, { entry: Omit<IndexEntry, "file">; value: unknown }> = {
    "good.json": {
      entry: { path: "specs/1_good/.return-meta.json", status: "researched", artifact_paths_at_commit: [["specs/1_good/reports/research-001.md", "present"]] },
      value: { status: "researched", artifacts: [{ type: "report", path: "specs/1_good/reports/research-001.md", summary: "s" }], metadata: SESSION },
    },
    "phantom.json": {
      entry: { path: "specs/2_phantom/.return-meta.json", status: "implemented", artifact_paths_at_commit: [["specs/2_phantom/summaries/s.md", "never_in_history"]] },
      value: { status: "implemented", artifacts: [{ type: "summary", path: "specs/2_phantom/summaries/s.md", summary: "s" }], metadata: SESSION },
    },
    "hostile.json": {
      entry: {
        path: `../../${outside}/.return-meta.json`,
        status: "implemented",
        artifact_paths_at_commit: [
          [`../../${outside}/escape.md`, "present"],
          [path.join(tmpdir(), outside, "absolute.md"), "present"],
        ],
      },
      value: { status: "implemented", artifacts: [{ type: "summary", path: `../../${outside}/escape.md`, summary: "s" }], metadata: SESSION },
    },
  };
  let run: ReplayRun;
  let summary: CorpusSummary;

  beforeAll(async () => {
    const lines = Object.entries(files).map(([file, { entry }]) => JSON.stringify({ file, ...entry }));
    writeFiles(corpus, { ...Object.fromEntries(Object.entries(files).map(([file, { value }]) => [file, value])), "INDEX.jsonl": `${lines.join("\n")}\n` });
    run = await replayCorpus(corpus, { concurrency: 2 });
    summary = summarize(run);
  });

  it("gives each return its verdict", () => {
    expect(Object.fromEntries(run.records.map((r) => [r.file, r.ok]))).toEqual({ "good.json": true, "phantom.json": false, "hostile.json": false });
    expect(summary.ok).toBe(true);
  });

  it("creates nothing outside the temporary root, and removes the root", () => {
    expect(existsSync(path.join(tmpdir(), outside))).toBe(false);
    expect(existsSync(path.resolve(corpus, "..", outside))).toBe(false);
    expect(existsSync(run.tempDir)).toBe(false);
    const hostile = run.records.find((r) => r.file === "hostile.json");
    expect(hostile?.skipped.map((s) => s.path)).toHaveLength(3);
  });
});

const available = corpusExists(CORPUS);

describe.skipIf(!available)(available ? `the shared corpus (${CORPUS})` : `the shared corpus: skipped, no INDEX.jsonl at ${CORPUS} (set RETURNLINT_CORPUS)`, () => {
  let summary: CorpusSummary;
  let records: readonly ReplayRecord[] = [];
  let indexed = 0;

  beforeAll(async () => {
    indexed = (await readIndex(CORPUS)).length;
    const run = await replayCorpus(CORPUS);
    records = run.records;
    summary = summarize(run);
  }, 120_000);

  it("replays every indexed return", () => {
    expect(summary.total).toBe(indexed);
    expect(summary.passed + summary.failed).toBe(indexed);
  });

  it("(a) fails every return naming a missing, never-existing or absolute artifact path (under a status whose artifacts are checked)", () => {
    expect(summary.invariants[0].checked).toBeGreaterThan(0);
    expect(violationsOf(summary, "a").map(describeRecord)).toEqual([]);
  });

  it("(b) fails every success return with no artifacts", () => {
    expect(summary.invariants[1].checked).toBeGreaterThan(0);
    expect(violationsOf(summary, "b").map(describeRecord)).toEqual([]);
  });

  it("(c) passes every return that follows the metadata-file schema with all artifacts present", () => {
    expect(summary.invariants[2].checked).toBeGreaterThan(0);
    expect(violationsOf(summary, "c").map(describeRecord)).toEqual([]);
  });

  it("(d) with no config, reads every .return-meta.json from its path as a metadata file, with the preset's verdict", () => {
    expect(summary.invariants[3].checked).toBeGreaterThan(2000);
    expect(violationsOf(summary, "d").map(describeRecord)).toEqual([]);
  });

  // taskset limits the process to one core, where scan walks in its own thread (docs/scan.md, "Performance").
  it.runIf(existsSync("/usr/bin/taskset") && availableParallelism() > 1)("scan of every return, each in a task folder of its own, reports the same with its finding thread as walked in one thread", async () => {
    const index = await readIndex(CORPUS);
    const files: Record<string, string> = {};
    index.forEach((entry, position) => {
      files[`specs/${String(position + 1)}_version/.return-meta.json`] = readFileSync(path.join(CORPUS, entry.file), "utf8");
    });
    const root = tempProject(files);
    const scanArgs = [CLI, "scan", "--format", "json"];
    const run = (command: string, args: readonly string[]) => spawnSync(command, args, { cwd: root, encoding: "utf8", maxBuffer: 256 * 1024 * 1024, timeout: 60_000 });
    const threaded = run(process.execPath, scanArgs);
    const alone = run("/usr/bin/taskset", ["-c", "0", process.execPath, ...scanArgs]);
    expect(threaded.stderr).toBe("");
    expect(threaded.status).toBe(1);
    expect(alone.status).toBe(1);
    expect(threaded.stdout).toBe(alone.stdout);
    const reports = JSON.parse(threaded.stdout) as { source: string; ok: boolean }[];
    expect(reports).toHaveLength(index.length);
    expect(new Set(reports.map(({ source }) => source)).size).toBe(index.length);
  }, 120_000);

  it("detects a metadata file from its content alone for all but a few, and never a contextual status as v5", () => {
    const misread = [...summary.detection].filter(([format]) => format !== "metadata-file").reduce((sum, [, count]) => sum + count, 0);
    expect(misread / summary.invariants[3].checked).toBeLessThan(0.02);
    const contextual = new Set(["researched", "planned", "implemented", "in_progress"]);
    expect(records.filter((one) => typeof one.status === "string" && contextual.has(one.status) && one.detection.contentOnly !== "metadata-file").map((one) => one.file)).toEqual([]);
  });
});
