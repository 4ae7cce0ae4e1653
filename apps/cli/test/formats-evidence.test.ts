import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { ReportObject } from "@returnlint/api";
import { project, returnlint } from "./helpers.js";

// Returns shaped like the real ones in ../shared/corpus/ and the repositories the tool was built
// for, written by hand: a metadata file that says "completed", an implemented one, handoffs with
// the artifacts list most real handoffs carry, and a multi-task return.

const task = "specs/412_port_timeline";
const summaryFile = `${task}/summaries/01_implementation-summary.md`;
const sourceFile = "lua/timeline/port.lua";
const agentMetadata = { session_id: "sess_1774124468_fbb8fd", agent_type: "general-implementation-agent", delegation_depth: 1, delegation_path: ["orchestrator", "implement", "general-implementation-agent"] };

const completedMetadataFile = {
  status: "completed",
  started_at: "2026-03-21T00:00:00Z",
  artifacts: [{ path: summaryFile, type: "summary", summary: "Implementation summary" }],
  metadata: agentMetadata,
  completion_data: { completion_summary: "Ported the timeline to the new API." },
};
const implementedMetadataFile = { ...completedMetadataFile, status: "implemented" };

const handoff = (fields: Record<string, unknown> = {}) => ({
  status: "partial",
  phases_completed: 2,
  phases_total: 4,
  blockers: [],
  continuation_path: null,
  continuation_context: "Resume at phase 3: wire the picker to the new timeline",
  next_action_hint: "/implement 412",
  artifacts: [{ type: "implementation", path: sourceFile, summary: "Timeline ported" }],
  summary: "Phases 1 and 2 done",
  ...fields,
});

const batch = { status: "partial", session_id: "sess_1774200000_a1b2c3", metadata: { tasks_completed: [412], tasks_failed: [413], cycles_used: 2, multi_task_mode: true } };

const onDisk = { [summaryFile]: "# Summary\n", [sourceFile]: "return {}\n" };

function reportOf(run: { stdout: string }): ReportObject {
  return JSON.parse(run.stdout) as ReportObject;
}

/** What a user sees of a verdict: exit code, format, and each failure and warning with its pointer. */
function verdictOf(run: { status: number | null; stdout: string }) {
  const report = reportOf(run);
  const findings = report.results.filter((result) => result.level === "fail" || result.level === "warn").map((result) => `${result.level} ${result.ruleId}/${result.messageId} ${result.pointer ?? ""}`);
  return { exit: run.status, format: report.format, phantom: report.phantom, findings };
}

describe("a return's format follows the evidence: its name, then its fields, before any console default", () => {
  const returns: [string, string, unknown, string][] = [
    ["a metadata file that says completed", `${task}/.return-meta.json`, completedMetadataFile, "metadata-file"],
    ["an implemented metadata file", `${task}/.return-meta.json`, implementedMetadataFile, "metadata-file"],
    ["a partial handoff", `${task}/.orchestrator-handoff.json`, handoff(), "handoff"],
    ["an implemented handoff whose artifact was never written", `${task}/.orchestrator-handoff.json`, handoff({ status: "implemented", phases_completed: 4, artifacts: [{ type: "implementation", path: "lua/timeline/picker.lua" }] }), "handoff"],
    ["a multi-task return", "specs/.return-meta-multi.json", batch, "multi-task"],
  ];

  it.each(returns)("%s: the same verdict by its name, from standard input, and saved under another name", (_name, file, value, format) => {
    const bytes = `${JSON.stringify(value, null, 2)}\n`;
    const root = project({ ...onDisk, [file]: bytes, "saved/copy.json": bytes });
    const byName = verdictOf(returnlint(["check", file, "--format", "json"], { cwd: root }));
    expect(byName.format).toBe(format);
    expect(verdictOf(returnlint(["check", "-", "--format", "json"], { cwd: root, input: bytes }))).toEqual(byName);
    expect(verdictOf(returnlint(["check", "saved/copy.json", "--format", "json"], { cwd: root }))).toEqual(byName);
  });

  it("a metadata file that says completed fails on its status, by name and from standard input alike", () => {
    const bytes = JSON.stringify(completedMetadataFile);
    const root = project({ ...onDisk, [`${task}/.return-meta.json`]: bytes });
    const piped = returnlint(["check", "-"], { cwd: root, input: bytes });
    expect(piped.status).toBe(1);
    expect(piped.stdout.split("\n")[1]).toBe("[INFO] Format metadata-file (auto): it has completion_data, which only metadata files carry");
    expect(verdictOf(returnlint(["check", "-", "--format", "json"], { cwd: root, input: bytes })).findings).toContain("fail status-enum/invalidStatus /status");
  });

  it("a handoff piped from git show is a handoff, and says why", () => {
    const piped = returnlint(["check", "-"], { cwd: project(onDisk), input: JSON.stringify(handoff()) });
    expect(piped.stdout.split("\n")[1]).toBe("[INFO] Format handoff (auto): it has continuation_path, which only handoffs carry");
    expect(piped.stdout).toContain("[PASS] Handoff is complete: status partial, 2 of 4 phases");
  });
});

describe("a handoff's artifacts are checked like any return's", () => {
  it("a missing artifact of an implemented handoff is a failure at its pointer, and phantom work in scan", () => {
    const root = project({ [`${task}/.orchestrator-handoff.json`]: handoff({ status: "implemented", phases_completed: 4, artifacts: [{ type: "implementation", path: "lua/timeline/picker.lua", summary: "Picker" }] }) });
    const run = returnlint(["check", `${task}/.orchestrator-handoff.json`], { cwd: root });
    expect(run.status).toBe(1);
    expect(run.stdout).toContain("[FAIL] Artifact does not exist: lua/timeline/picker.lua\n");
    expect(run.stdout).toContain("Rule: artifacts at /artifacts/0/path\n");
    const [scanned] = JSON.parse(returnlint(["scan", "--format", "json"], { cwd: root }).stdout) as ReportObject[];
    expect(scanned).toMatchObject({ format: "handoff", phantom: true, phantomReason: "lua/timeline/picker.lua is not there" });
  });

  it("near misses, archived tasks and absolute paths are worded as for any artifact; an artifact list left empty is no phantom work", () => {
    const root = project({
      "lua/timeline/port.lua": "return {}\n",
      "specs/archive/410_x/summaries/summary.md": "# Summary\n",
      [`${task}/.orchestrator-handoff.json`]: handoff({
        status: "implemented",
        phases_completed: 4,
        artifacts: [
          { type: "implementation", path: "lua/timeline/ports.lua", summary: "A typo" },
          { type: "summary", path: "specs/410_x/summaries/summary.md", summary: "Archived since" },
          { type: "implementation", path: "/home/user/project/lua/timeline/port.lua", summary: "Absolute" },
        ],
      }),
      "specs/413_x/.orchestrator-handoff.json": handoff({ status: "implemented", phases_completed: 4, artifacts: [] }),
    });
    const run = returnlint(["check", `${task}/.orchestrator-handoff.json`], { cwd: root });
    expect(run.stdout).toContain("[FAIL] Artifact does not exist: lua/timeline/ports.lua (did you mean lua/timeline/port.lua?)\n");
    expect(run.stdout).toContain("[PASS] Artifact moved to the archive with its task: specs/410_x/summaries/summary.md (now specs/archive/410_x/summaries/summary.md)\n");
    expect(run.stdout).toContain("[FAIL] Artifact path is absolute: /home/user/project/lua/timeline/port.lua (the file is at lua/timeline/port.lua in the project)\n");
    const empty = returnlint(["check", "specs/413_x/.orchestrator-handoff.json", "--format", "json"], { cwd: root });
    expect(verdictOf(empty)).toMatchObject({ exit: 0, phantom: false });
  });
});

describe("returnlint init writes one config for check, scan and standard input on a repository of every format", () => {
  const longSummary = `Phases 1 and 2 done. ${"The picker still reads the old timeline; phase 3 rewires it. ".repeat(8)}`;

  it("picks auto, holds no handoff to summary-length, and checks each return in its own format", () => {
    const root = project({
      ...onDisk,
      [`${task}/.return-meta.json`]: implementedMetadataFile,
      [`${task}/.orchestrator-handoff.json`]: handoff({ summary: longSummary, sorry_inventory: [] }),
      "specs/.return-meta-multi.json": batch,
    });
    const init = returnlint(["init"], { cwd: root });
    expect(init.status).toBe(0);
    const written = readFileSync(path.join(root, "returnlint.config.yaml"), "utf8");
    expect(written).toMatch(/^preset: auto$/m);
    expect(written).not.toMatch(/^\s+summary-length:/m);

    const scanned = JSON.parse(returnlint(["scan", "--format", "json"], { cwd: root }).stdout) as ReportObject[];
    expect(scanned.map((report) => [report.source, report.format, report.ok, report.warningCount]).sort()).toEqual(
      [
        ["specs/.return-meta-multi.json", "multi-task", true, 0],
        [`${task}/.orchestrator-handoff.json`, "handoff", true, 0],
        [`${task}/.return-meta.json`, "metadata-file", true, 0],
      ].sort(),
    );
    const console = { status: "completed", summary: "Researched the timeline API.", artifacts: [{ type: "report", path: summaryFile, summary: "Report" }], metadata: agentMetadata };
    const piped = returnlint(["check", "-", "--format", "json"], { cwd: root, input: JSON.stringify(console) });
    expect(verdictOf(piped)).toMatchObject({ exit: 0, format: "v7" });
  });
});

describe("the handoff rule's sorryInventory option, set for handoffs alone", () => {
  it("says nothing of a missing sorry_inventory outside skeleton mode, warns of it under formats.handoff in a Lean project, leaves console returns alone, and a wrong value or format is a config error with exit 2", () => {
    const root = project({ ...onDisk, [`${task}/.orchestrator-handoff.json`]: handoff() });
    const quiet = returnlint(["check", `${task}/.orchestrator-handoff.json`, "--format", "json"], { cwd: root });
    expect(verdictOf(quiet)).toEqual({ exit: 0, format: "handoff", phantom: false, findings: [] });
    expect(returnlint(["init"], { cwd: root }).status).toBe(0);
    const config = path.join(root, "returnlint.config.yaml");
    writeFileSync(config, readFileSync(config, "utf8").replace(/^formats: \{\}$/m, 'formats:\n  handoff:\n    rules:\n      handoff: [error, { sorryInventory: "warn" }]'));
    const warned = returnlint(["check", `${task}/.orchestrator-handoff.json`], { cwd: root });
    expect(warned.stdout).toContain("[WARN] Handoff has no sorry_inventory\n");
    // A console return is no handoff: the handoff rule does not run on it.
    const console = { status: "completed", summary: "Ported the timeline.", artifacts: [{ type: "implementation", path: sourceFile, summary: "Port" }], metadata: agentMetadata };
    expect(verdictOf(returnlint(["check", "-", "--format", "json"], { cwd: root, input: JSON.stringify(console) }))).toEqual({ exit: 0, format: "v7", phantom: false, findings: [] });

    writeFileSync(config, 'formats:\n  handof:\n    rules:\n      handoff: [error, { sorryInventory: "error" }]\n');
    const wrong = returnlint(["check", `${task}/.orchestrator-handoff.json`], { cwd: root });
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toContain('formats.handof: "handof" is not a return format; the formats are v5, v7, metadata-file, handoff, multi-task (did you mean "handoff"?)');
    expect(wrong.stderr).toContain('formats.handof.rules.handoff[1].sorryInventory: must be one of "warn", "off"; received "error"');
    expect(wrong.stderr).not.toMatch(/^\s+at /m);
  });
});
