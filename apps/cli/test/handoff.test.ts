import { symlinkSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { project, returnlint } from "./helpers.js";
import type { ReportObject } from "@returnlint/api";


const handoff = (fields: Record<string, unknown> = {}) => ({
  status: "partial",
  phases_completed: 2,
  phases_total: 5,
  blockers: [],
  continuation_path: "specs/042_prove_lemma/handoffs/phase-3.md",
  sorry_inventory: [],
  ...fields,
});

const problems = (report: ReportObject) => report.results.filter((result) => result.level === "fail" || result.level === "warn").map((result) => `${result.level} ${result.messageId} ${result.pointer ?? ""}`);

describe("the handoff format on disk", () => {
  it("checks .orchestrator-handoff.json with the handoff preset, picked by its name", () => {
    const root = project({
      "specs/042_prove_lemma/.orchestrator-handoff.json": handoff(),
      "specs/042_prove_lemma/handoffs/phase-3.md": "# Phase 3\nResume at the induction step.\n",
    });
    const run = returnlint(["check", "specs/042_prove_lemma/.orchestrator-handoff.json"], { cwd: root });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("[INFO] Format handoff (auto): read from specs/042_prove_lemma/.orchestrator-handoff.json");
    expect(run.stdout).toContain("[PASS] Continuation path exists: specs/042_prove_lemma/handoffs/phase-3.md (40 bytes)");
    expect(run.stdout).toContain("[PASS] Handoff is complete: status partial, 2 of 5 phases");
  });

  it("fails a partial handoff whose continuation file was never written, and warns of one with every phase done", () => {
    const root = project({ "specs/042_prove_lemma/.orchestrator-handoff.json": handoff({ phases_completed: 5 }) });
    const run = returnlint(["check", "specs/042_prove_lemma/.orchestrator-handoff.json", "--format", "json"], { cwd: root });
    expect(run.status).toBe(1);
    const report = JSON.parse(run.stdout) as ReportObject;
    expect(report).toMatchObject({ ok: false, format: "handoff", preset: "handoff", status: "partial" });
    expect(problems(report)).toEqual(["warn partialWithAllPhases /phases_completed", "fail continuationPathInvalid /continuation_path"]);
  });

  it("refuses a continuation path that leaves the root through a symlink", () => {
    const root = project({ "specs/042_prove_lemma/.orchestrator-handoff.json": handoff({ continuation_path: "specs/042_prove_lemma/out/notes.md" }) });
    const outside = project({ "notes.md": "# Notes elsewhere\n" });
    symlinkSync(outside, path.join(root, "specs/042_prove_lemma/out"));
    const run = returnlint(["check", "specs/042_prove_lemma/.orchestrator-handoff.json"], { cwd: root });
    expect(run.status).toBe(1);
    expect(run.stdout).toContain("[FAIL] Continuation path is not a file to resume from: specs/042_prove_lemma/out/notes.md (a symbolic link on the path leads outside the project root)");
  });

  it("reads a task's handoff with --task when its folder has no .return-meta.json, padded or archived", () => {
    const root = project({
      "specs/042_prove_lemma/.orchestrator-handoff.json": handoff({ continuation_path: null, continuation_context: "Resume at phase 3" }),
      "specs/archive/1234_add_cache/.orchestrator-handoff.json": handoff({ status: "blocked", phases_total: null, continuation_path: null, continuation_context: null }),
    });
    const run = returnlint(["check", "--task", "42,1234", "--format", "json"], { cwd: root });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(1);
    const reports = JSON.parse(run.stdout) as ReportObject[];
    expect(reports.map((report) => [report.task, report.source, report.format, report.ok])).toEqual([
      ["42", "specs/042_prove_lemma/.orchestrator-handoff.json", "handoff", true],
      ["1234", "specs/archive/1234_add_cache/.orchestrator-handoff.json", "handoff", false],
    ]);
    expect(problems(reports[1] as ReportObject)).toEqual(["fail missingField /phases_total", "warn noContinuation /continuation_path"]);
  });

  it("prefers the task's .return-meta.json when both files are there", () => {
    const root = project({
      "specs/042_prove_lemma/.orchestrator-handoff.json": handoff(),
      "specs/042_prove_lemma/.return-meta.json": { status: "partial", artifacts: [], metadata: { session_id: "sess_1" } },
    });
    const run = returnlint(["check", "--task", "42", "--format", "json"], { cwd: root });
    const report = JSON.parse(run.stdout) as ReportObject;
    expect(report.format).toBe("metadata-file");
    expect(report.source).toBe("specs/042_prove_lemma/.return-meta.json");
  });

  it("scan checks handoffs beside metadata files, archived ones too, and counts no phantom work for them", () => {
    const root = project({
      "specs/042_prove_lemma/.orchestrator-handoff.json": handoff({ phases_completed: null, continuation_path: null }),
      "specs/archive/0007_add_cache/.orchestrator-handoff.json": handoff({ status: "implemented", phases_completed: 5, continuation_path: null }),
      "specs/archive/0007_add_cache/.return-meta.json": { status: "implemented", artifacts: [], metadata: { session_id: "sess_1" } },
    });
    const run = returnlint(["scan", "--format", "json"], { cwd: root });
    expect(run.status).toBe(1);
    const reports = JSON.parse(run.stdout) as ReportObject[];
    expect(reports.map((report) => [report.source, report.format, report.ok])).toEqual([
      ["specs/042_prove_lemma/.orchestrator-handoff.json", "handoff", false],
      ["specs/archive/0007_add_cache/.orchestrator-handoff.json", "handoff", true],
      ["specs/archive/0007_add_cache/.return-meta.json", "metadata-file", false],
    ]);
    const table = returnlint(["scan"], { cwd: root });
    expect(table.stdout).toMatch(/phantom work +1\n/);
  });

  it("--preset handoff checks a handoff read from standard input", () => {
    const root = project({});
    const run = returnlint(["check", "--preset", "handoff", "-"], { cwd: root, input: JSON.stringify({ status: "done", phases_completed: 1, phases_total: 2 }) });
    expect(run.status).toBe(1);
    expect(run.stdout).toContain('[FAIL] "status" must be one of researched, planned, implemented, needs_research, partial, failed, blocked in a handoff; received string "done"');
    expect(run.stdout).toContain("[FAIL] Missing required handoff field: blockers");
  });
});
