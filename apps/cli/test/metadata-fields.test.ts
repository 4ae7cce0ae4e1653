import { readFileSync, symlinkSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { lintFile, lintTask, loadReturnlintConfig, type ReportObject } from "@returnlint/api";
import { agentMarkdown, commit, git, newRepository } from "@returnlint/testing";
import { metadata, project, returnlint } from "./helpers.js";


const TASK = "specs/042_prove_lemma";
const HANDOFF = `${TASK}/handoffs/phase-3-handoff-20260314.md`;
const REPORT = `${TASK}/reports/research-001.md`;
const stopped = { type: "timeout", message: "Context exhausted in phase 3", recoverable: true, recommendation: "Resume with /implement 42" };

/** A partial implementation as the projects write it now, with every added field. */
const partial = (fields: Record<string, unknown> = {}) => ({
  status: "partial",
  artifacts: [],
  partial_progress: { stage: "context_exhaustion_handoff", details: "Phases 1-2 done", phases_completed: 2, phases_total: 5, handoff_path: HANDOFF },
  requires_user_review: true,
  review_reason: "Phase 3 needs a decision: keep the axiom or prove it",
  memory_candidates: [{ content: "omega closes linear goals over Int", category: "TECHNIQUE", source_artifact: REPORT, confidence: 0.8, suggested_keywords: ["omega"] }],
  modified_files: ["src/Lemma.lean", `${TASK}/plans/plan-001.md`],
  errors: [stopped],
  metadata: metadata("lean-implementation-agent"),
  ...fields,
});

const problems = (report: ReportObject) => report.results.filter((result) => result.level === "fail" || result.level === "warn").map((result) => `${result.level} ${result.ruleId}/${result.messageId} ${result.pointer ?? ""}`);

describe("the metadata file's added fields on disk", () => {
  it("passes a partial return whose handoff, source artifact and modified files are real (task folder zero-padded)", () => {
    const root = project({
      [`${TASK}/.return-meta.json`]: partial(),
      [HANDOFF]: "# Resume at phase 3\nThe induction step is left.\n",
      [REPORT]: "# Research\nomega works.\n",
      "src/Lemma.lean": "theorem t : True := trivial\n",
      [`${TASK}/plans/plan-001.md`]: "# Plan\n",
    });
    const run = returnlint(["check", "--task", "42"], { cwd: root });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(`[PASS] partial_progress.handoff_path exists: ${HANDOFF} (48 bytes)`);
    expect(run.stdout).toContain(`[PASS] memory_candidates[0].source_artifact exists: ${REPORT} (24 bytes)`);
    expect(run.stdout).toContain("[PASS] Memory candidates are well-formed: 1");
    expect(run.stdout).toContain("[PASS] Modified files are inside the project: 2");
    expect(run.stdout).toContain('[PASS] User review requested: "Phase 3 needs a decision: keep the axiom or prove it"');
  });

  it("fails false claims about files, each at its pointer, and warns where the projects are loose", () => {
    const outside = project({ "notes.md": "# Elsewhere\n" });
    const root = project({
      [`${TASK}/.return-meta.json`]: partial({
        review_reason: null,
        memory_candidates: [{ content: "x", category: "technique", source_artifact: `${TASK}/out/notes.md` }],
        modified_files: ["../other-repo/src/a.ts", "src"],
      }),
      "src/a.ts": "export {};\n",
    });
    symlinkSync(outside, path.join(root, TASK, "out"));
    const run = returnlint(["check", "--task", "42", "--format", "json"], { cwd: root });
    expect(run.status).toBe(1);
    const report = JSON.parse(run.stdout) as ReportObject;
    expect(problems(report)).toEqual([
      "fail file-claims/fileInvalid /partial_progress/handoff_path",
      "fail file-claims/fileInvalid /memory_candidates/0/source_artifact",
      "fail file-claims/modifiedFileOutside /modified_files/0",
      "fail file-claims/modifiedFileNotAFile /modified_files/1",
      "warn memory-candidates/invalidCategory /memory_candidates/0/category",
      "warn user-review/missingReason /review_reason",
    ]);
    const stylish = returnlint(["check", "--task", "42"], { cwd: root });
    expect(stylish.stdout).toContain(`[FAIL] partial_progress.handoff_path is not a file: ${HANDOFF} (no such file)`);
    expect(stylish.stdout).toContain(`[FAIL] memory_candidates[0].source_artifact is not a file: ${TASK}/out/notes.md (a symbolic link on the path leads outside the project root)`);
    expect(stylish.stdout).toContain("[WARN] requires_user_review is true but review_reason says nothing: received null");
  });

  it("check --task warns about a .postflight-pending marker beside a finished return in an archived task folder", () => {
    const archived = "specs/archive/0007_add_cache";
    const root = project({
      [`${archived}/.return-meta.json`]: { status: "researched", artifacts: [{ type: "report", path: `${archived}/reports/research-001.md`, summary: "s" }], metadata: metadata("general-research-agent") },
      [`${archived}/reports/research-001.md`]: "# Research\nFindings.\n",
      [`${archived}/.postflight-pending`]: { session_id: "sess_1", skill: "skill-researcher", task_number: 7, operation: "research", reason: "postflight pending", stop_hook_active: true },
    });
    const run = returnlint(["check", "--task", "7"], { cwd: root });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(`[INFO] Checking ${archived}/.return-meta.json (task 7)`);
    expect(run.stdout).toContain(
      `[WARN] A ${archived}/.postflight-pending marker is left beside this researched return (skill skill-researcher, operation research, session sess_1): the postflight never finished`,
    );
    expect(returnlint(["check", "--task", "7", "--max-warnings", "0"], { cwd: root }).status).toBe(1);
    // check FILE finds it too; the same return on standard input has no folder to look in.
    expect(returnlint(["check", `${archived}/.return-meta.json`], { cwd: root }).stdout).toContain("marker is left beside this researched return");
    const stdin = returnlint(["check", "--preset", "metadata-file", "-"], { cwd: root, input: JSON.stringify({ status: "researched", artifacts: [{ type: "report", path: `${archived}/reports/research-001.md`, summary: "s" }], metadata: metadata("general-research-agent") }) });
    expect(stdin.status).toBe(0);
    expect(stdin.stdout).not.toContain("postflight");
  });

  it("scan reports markers beside finished returns only, archived tasks included", () => {
    const marker = { session_id: "sess_1", skill: "skill-implementer", task_number: 42, operation: "implement", reason: "postflight pending", stop_hook_active: true };
    const root = project({
      [`${TASK}/.return-meta.json`]: partial({ partial_progress: { stage: "phase_2", handoff_path: null }, memory_candidates: [], modified_files: [] }),
      [`${TASK}/.postflight-pending`]: marker,
      "specs/043_running/.return-meta.json": { status: "in_progress", artifacts: [], started_at: new Date().toISOString(), partial_progress: { stage: "phase_1" }, metadata: metadata("general-implementation-agent") },
      "specs/043_running/.postflight-pending": { ...marker, task_number: 43 },
      "specs/archive/0007_add_cache/.return-meta.json": { status: "blocked", artifacts: [], errors: [stopped], metadata: metadata("general-implementation-agent") },
      "specs/archive/0007_add_cache/.postflight-pending": { ...marker, task_number: 7 },
    });
    const run = returnlint(["scan", "--format", "json"], { cwd: root });
    expect(run.stderr).toBe("");
    const reports = JSON.parse(run.stdout) as ReportObject[];
    const markers = reports
      .map((report) => [report.source, report.results.filter((result) => result.ruleId === "postflight-marker").map((result) => result.level)] as const)
      .sort(([a], [b]) => a.localeCompare(b));
    expect(markers).toEqual([
      [`${TASK}/.return-meta.json`, ["warn"]],
      ["specs/043_running/.return-meta.json", []],
      ["specs/archive/0007_add_cache/.return-meta.json", ["warn"]],
    ]);
  });

  it("init, off a terminal, picks auto from the return files under specs/, archived ones included", () => {
    const handoff = { status: "implemented", phases_completed: 2, phases_total: 2, blockers: null, sorry_inventory: [] };
    const said = "each return is checked in the format its file's name, else its fields, say";
    const cases: [Record<string, unknown>, string, string][] = [
      [{ "specs/archive/0007_add_cache/.orchestrator-handoff.json": handoff }, "auto", `found specs/archive/0007_add_cache/.orchestrator-handoff.json: ${said}`],
      [
        { "specs/042_prove_lemma/.orchestrator-handoff.json": handoff, "specs/archive/0007_add_cache/.return-meta.json": partial() },
        "auto",
        `found specs/archive/0007_add_cache/.return-meta.json and specs/042_prove_lemma/.orchestrator-handoff.json: ${said}`,
      ],
      [{ "specs/archive/0007_add_cache/.return-meta.json": partial() }, "auto", `found specs/archive/0007_add_cache/.return-meta.json: ${said}`],
      [{ "specs/42_x/handoffs/phase-2.json": handoff }, "auto", `found specs/42_x/handoffs/*.json: ${said}`],
      [{ "specs/42_x/reports/research-001.md": "# Report\n" }, "v7", "no return files under specs/: console returns"],
      // No return written yet: the agents' definitions say which returns to expect.
      [
        { "specs/42_x/reports/research-001.md": "# Report\n", ".claude/agents/researcher.md": agentMarkdown("researcher", "metadata-file") },
        "auto",
        `no return files under specs/, but the agent researcher (.claude/agents/) returns .return-meta.json: ${said}`,
      ],
      [
        { ".opencode/agent/researcher.md": '---\ndescription: r\n---\nEnd with: {"status": "researched|partial|failed", "summary": "…"}\n' },
        "auto",
        `no specs/ folder here, but the agent researcher (.opencode/agent/) returns "status": "researched…: ${said}`,
      ],
      [{ ".claude/agents/researcher.md": agentMarkdown("researcher", "json") }, "v7", "no specs/ folder here: console returns"],
    ];
    for (const [files, preset, why] of cases) {
      const root = project(files);
      const run = returnlint(["init"], { cwd: root });
      expect(run.status).toBe(0);
      expect(run.stdout).toContain(`Wrote returnlint.config.yaml with the ${preset} preset (${why}).`);
      expect(readFileSync(path.join(root, "returnlint.config.yaml"), "utf8")).toMatch(new RegExp(`^preset: ${preset}$`, "m"));
    }
  });

  it("init picks auto for a repository whose history has return files though its tree has none any more (what audit reads)", () => {
    const root = newRepository();
    const first = commit(root, "2026-03-01T10:00:00Z", { files: { "specs/42_x/.return-meta.json": partial(), "specs/42_x/reports/research-001.md": "# Report\n" } });
    commit(root, "2026-03-02T10:00:00Z", { remove: ["specs/42_x/.return-meta.json"] });
    const run = returnlint(["init"], { cwd: root });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(`Wrote returnlint.config.yaml with the auto preset (no return files under specs/ now, but the history has them (the last written in ${git(root, ["rev-parse", "--short", first])} of 2026-03-01)`);
    // Outside git, the same tree is a console project.
    const plain = project({ "specs/42_x/reports/research-001.md": "# Report\n" });
    expect(returnlint(["init"], { cwd: plain }).stdout).toContain("with the v7 preset (no return files under specs/: console returns)");
  });

  it("the library (the MCP server's lintFile, lintTask) reads a handoff by its name, and leaves the marker alone: a subagent checks before its postflight", async () => {
    const root = project({
      "specs/042_prove_lemma/.orchestrator-handoff.json": { status: "partial", phases_completed: 2, phases_total: null, blockers: [], continuation_context: "Resume", sorry_inventory: [] },
      "specs/archive/0007_add_cache/.return-meta.json": { status: "blocked", artifacts: [], errors: [stopped], metadata: metadata("general-implementation-agent") },
      "specs/archive/0007_add_cache/.postflight-pending": { skill: "skill-implementer" },
    });
    const config = await loadReturnlintConfig({ cwd: root });
    const handoff = await lintFile("specs/042_prove_lemma/.orchestrator-handoff.json", { config, root });
    expect(handoff.report).toMatchObject({ ok: false, format: "handoff" });
    expect(handoff.reask).toContain("phases_total is missing from your handoff");
    const task = await lintTask("7", { config, root });
    expect(task.report).toMatchObject({ ok: true, format: "metadata-file", source: "specs/archive/0007_add_cache/.return-meta.json" });
    expect(JSON.stringify(task.report)).not.toContain("postflight-marker");
  });
});
