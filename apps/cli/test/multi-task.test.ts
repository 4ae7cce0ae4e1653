import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { lintFile, loadReturnlintConfig, type ReportObject } from "@returnlint/api";
import { EXAMPLES, project, returnlint } from "./helpers.js";


/** The passing batch of examples/multi-task (session sess_1783582863_a1b2c3, three cycles), with no failed task unless a case says so. */
const example = JSON.parse(readFileSync(path.join(EXAMPLES, "multi-task", "specs", ".return-meta-multi.json"), "utf8")) as { metadata: Record<string, unknown> };
const batch = (status: string, metadata: Record<string, unknown> = {}) => ({ ...example, status, metadata: { ...example.metadata, tasks_failed: [], ...metadata } });

const problems = (report: ReportObject) => report.results.filter((result) => result.level === "fail" || result.level === "warn").map((result) => `${result.level} ${result.ruleId}/${result.messageId} ${result.pointer ?? ""}`);

describe("the multi-task format on disk", () => {
  it("checks specs/.return-meta-multi.json with the multi-task preset, picked by its name", () => {
    const root = project({ "specs/.return-meta-multi.json": batch("partial", { tasks_completed: [42], tasks_failed: [43], detected_defects: [{ class: "stale-lock" }] }) });
    const run = returnlint(["check", "specs/.return-meta-multi.json"], { cwd: root });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("[INFO] Format multi-task (auto): read from specs/.return-meta-multi.json\n");
    expect(run.stdout).toContain("[PASS] All required fields present\n");
    expect(run.stdout).toContain("[INFO] Batch reported 1 system defect in metadata.detected_defects\n");
    expect(run.stdout).toContain("[PASS] Multi-task return is consistent: status partial, 1 completed, 1 failed in 3 cycles\n");
  });

  it("fails a batch that says completed while tasks failed, with the pointer to the status", () => {
    const root = project({ "specs/.return-meta-multi.json": batch("completed", { tasks_failed: [44, { task_number: 45, reason: "lake build fails" }] }) });
    const run = returnlint(["check", "specs/.return-meta-multi.json", "--format", "json"], { cwd: root });
    expect(run.status).toBe(1);
    const report = JSON.parse(run.stdout) as ReportObject;
    expect(report).toMatchObject({ ok: false, format: "multi-task", preset: "multi-task", status: "completed", source: "specs/.return-meta-multi.json" });
    expect(problems(report)).toEqual(["fail multi-task/successWithFailures /status"]);
    expect(report.results.find((result) => result.level === "fail")?.message).toBe('Batch says "completed" but 2 tasks in metadata.tasks_failed: 44, 45');
  });

  it("checks a session's own file, and its session id against --session-id", () => {
    const file = "specs/.orchestration/.return-meta-multi-sess_1783582863_a1b2c3.json";
    const root = project({ [file]: batch("implemented") });
    expect(returnlint(["check", file, "--session-id", "sess_1783582863_a1b2c3"], { cwd: root }).status).toBe(0);
    const stale = returnlint(["check", file, "--session-id", "sess_1783590000_ffffff", "--format", "json"], { cwd: root });
    expect(stale.status).toBe(1);
    const report = JSON.parse(stale.stdout) as ReportObject;
    expect(report.format).toBe("multi-task");
    expect(problems(report)).toEqual(["fail session-id/mismatch /session_id"]);
  });

  it("reports what the first generation left out as missing, and a file that is not JSON as such", () => {
    const root = project({
      "specs/.return-meta-multi.json": { status: "completed", metadata: { tasks_completed: [7], multi_task_mode: true } },
      "specs/.return-meta-multi-sess_2.json": "{ status: completed",
    });
    const missing = returnlint(["check", "specs/.return-meta-multi.json", "--format", "json"], { cwd: root });
    expect(missing.status).toBe(1);
    expect(problems(JSON.parse(missing.stdout) as ReportObject)).toEqual(["fail required-fields/missingMetadataField /metadata/tasks_failed", "fail required-fields/missingMetadataField /metadata/cycles_used"]);
    const broken = returnlint(["check", "specs/.return-meta-multi-sess_2.json"], { cwd: root });
    expect(broken.status).toBe(1);
    expect(broken.stdout).toContain("[INFO] Format multi-task (auto): read from specs/.return-meta-multi-sess_2.json\n");
    expect(broken.stdout).toContain("[FAIL] Invalid JSON return");
  });

  it("recognises a multi-task return on standard input by metadata.multi_task_mode, and --preset forces the preset", () => {
    const root = project({});
    const detected = returnlint(["check", "-"], { cwd: root, input: JSON.stringify(batch("completed", { tasks_completed: [], paused_by_user: true })) });
    expect(detected.status).toBe(1);
    expect(detected.stdout).toContain("[INFO] Format multi-task (auto): metadata.multi_task_mode is true\n");
    expect(detected.stdout).toContain('[FAIL] Batch says "completed" but metadata.tasks_completed is empty: no task was finished\n');
    expect(detected.stdout).not.toContain("resume_hint");
    expect(detected.stdout).toContain('[WARN] Batch says "completed" but metadata.paused_by_user is true\n');

    const forced = returnlint(["check", "--preset", "multi-task", "--format", "json", "-"], { cwd: root, input: JSON.stringify({ status: "done", metadata: { tasks_completed: [42], tasks_failed: "none", cycles_used: 1, multi_task_mode: false } }) });
    expect(forced.status).toBe(1);
    const report = JSON.parse(forced.stdout) as ReportObject;
    expect(report.format).toBe("multi-task");
    expect(problems(report)).toEqual(["fail required-fields/wrongType /metadata/tasks_failed", "fail multi-task/invalidStatus /status", "fail multi-task/notMultiTaskMode /metadata/multi_task_mode"]);
  });

  it("scan finds multi-task returns beside the task folders, and counts a completed batch with no task as phantom work", () => {
    const root = project({
      "specs/.return-meta-multi.json": batch("completed", { tasks_completed: [] }),
      // A finished batch lists tasks, not artifacts: it is not phantom work.
      "specs/.orchestration/.return-meta-multi-sess_9.json": batch("completed", { tasks_completed: [42] }),
      "specs/042_prove_lemma/.return-meta.json": { status: "partial", artifacts: [], metadata: { session_id: "sess_1" } },
      "specs/042_prove_lemma/reports/research-001.md": "# Research\n",
      // Names that only look like a multi-task return are not read.
      "specs/.return-meta-multi.json.bak": "not JSON",
      "specs/return-meta-multi.json": "not JSON",
      "specs/.return-meta-multi-latest.json": "not JSON",
    });
    const run = returnlint(["scan", "--format", "json"], { cwd: root });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(1);
    const reports = JSON.parse(run.stdout) as ReportObject[];
    expect(reports.map((report) => [report.source, report.format, report.ok]).sort()).toEqual([
      ["specs/.orchestration/.return-meta-multi-sess_9.json", "multi-task", true],
      ["specs/.return-meta-multi.json", "multi-task", false],
      ["specs/042_prove_lemma/.return-meta.json", "metadata-file", true],
    ]);
    const table = returnlint(["scan"], { cwd: root });
    expect(table.stdout).toContain('[FAIL] specs/.return-meta-multi.json: Batch says "completed" but metadata.tasks_completed is empty: no task was finished (multi-task)\n');
    expect(table.stdout).toMatch(/phantom work +1\n/);
    expect(table.stdout).toContain("[FAIL] 1 of 3 returns below specs failed validation\n");
  });

  it("the library's lintFile (the MCP server's validate_return) picks the format by the file's name", async () => {
    const root = project({ "specs/.return-meta-multi.json": batch("completed", { tasks_completed: [42], tasks_failed: [42] }) });
    const config = await loadReturnlintConfig({ cwd: root });
    const { report, reask } = await lintFile("specs/.return-meta-multi.json", { config, root, cwd: root });
    expect(report).toMatchObject({ ok: false, format: "multi-task", preset: "multi-task" });
    expect(report.results.filter((result) => result.level === "fail").map((result) => result.messageId)).toEqual(["taskInBothLists", "successWithFailures"]);
    expect(reask).toContain("tasks_failed");
  });
});
