import { describe, expect, it } from "vitest";
import { lintFile, loadReturnlintConfig } from "@returnlint/api";
import { project, returnlint } from "./helpers.js";

// Issue 17: `check --format json` and every item of `scan --format json` are one report shape,
// built in one place (the library's reportObject), and so is the report the library's lintFile
// (the MCP server) hands back. Proved on real files: each scan item is compared with what check
// prints for the same file with the same command, key for key and value for value.

type Report = Record<string, unknown> & { source: string; command: string | null; ok: boolean; results: { level: string }[] };

const SESSION = "sess_1736700000_abc123";
const meta = (agent: string, command: string) => ({ session_id: SESSION, agent_type: agent, delegation_depth: 1, delegation_path: ["orchestrator", command, agent] });
const returnMeta = (status: string, artifacts: readonly { type: string; path: string }[], agent = "researcher", command = "research") => ({
  status,
  artifacts: artifacts.map((artifact) => ({ ...artifact, summary: "What was written" })),
  metadata: meta(agent, command),
});

/** One return of each kind scan meets: passing, phantom, a missing artifact, a warning, unfinished, not JSON, a handoff that names a missing file. */
function tree(): string {
  return project({
    "specs/1_passes/.return-meta.json": returnMeta("researched", [{ type: "report", path: "specs/1_passes/reports/r.md" }]),
    "specs/1_passes/reports/r.md": "# Findings\n",
    "specs/2_phantom/.return-meta.json": returnMeta("implemented", [], "implementer", "implement"),
    "specs/3_missing/.return-meta.json": returnMeta("planned", [{ type: "plan", path: "specs/3_missing/plans/p.md" }], "planner", "plan"),
    "specs/4_warns/.return-meta.json": { ...returnMeta("researched", [{ type: "report", path: "specs/4_warns/notes.md" }]), metadata: { ...meta("researcher", "research"), delegation_path: ["orchestrator", "research"] } },
    "specs/4_warns/notes.md": "Notes\n",
    "specs/5_partial/.return-meta.json": {
      ...returnMeta("partial", []),
      partial_progress: { stage: "analysis", details: "Read half of the sources.", resume_hint: "Read the rest" },
    },
    "specs/6_broken/.return-meta.json": '{ "status": "researched", ',
    "specs/7_handoff/.orchestrator-handoff.json": {
      status: "partial",
      phases_completed: 2,
      phases_total: 5,
      blockers: [],
      continuation_path: "specs/7_handoff/handoffs/phase-3.md",
      next_action_hint: "/implement 7",
    },
  });
}

function scanItems(root: string, extra: readonly string[] = []): Report[] {
  const run = returnlint(["scan", "--format", "json", ...extra], { cwd: root });
  expect(run.stderr).toBe("");
  // In the order the directory lists them; sorted here so that the test does not depend on it.
  return (JSON.parse(run.stdout) as Report[]).sort((a, b) => (a.source < b.source ? -1 : 1));
}

function checkReport(root: string, args: readonly string[]): Report {
  const run = returnlint(["check", ...args, "--format", "json"], { cwd: root });
  expect(run.stderr).toBe("");
  return JSON.parse(run.stdout) as Report;
}

const commandArgs = (report: Report) => (report.command === null ? [] : ["--command", report.command]);

// Each test runs the built CLI a dozen times: on a loaded machine that is more than the default 5 s.
describe("one report shape for check and scan", { timeout: 60_000 }, () => {
  it("every scan item is the object check prints for the same file and command", () => {
    const root = tree();
    const items = scanItems(root);
    expect(items.map((item) => item.source)).toEqual([1, 2, 3, 4, 5, 6, 7].map((n) => expect.stringMatching(new RegExp(`^specs/${String(n)}_\\w+/\\.(?:return-meta|orchestrator-handoff)\\.json$`)) as unknown));
    // The tree holds every verdict: passes, failures, a warning, an unparsable return, a handoff.
    expect(items.map((item) => item.ok)).toEqual([true, false, false, true, true, false, false]);
    expect(items[6]?.format).toBe("handoff");
    expect(items[3]?.warningCount).toBeGreaterThan(0);
    expect(items[5]?.origin).toBe("file");
    for (const item of items) {
      const checked = checkReport(root, [item.source, ...commandArgs(item)]);
      expect(Object.keys(checked), item.source).toEqual(Object.keys(item));
      expect(checked, item.source).toEqual(item);
    }
  });

  it("with --quiet too: scan keeps the failing returns, each as check --quiet prints it", () => {
    const root = tree();
    const items = scanItems(root, ["--quiet"]);
    expect(items.map((item) => item.source)).toEqual([
      "specs/2_phantom/.return-meta.json",
      "specs/3_missing/.return-meta.json",
      "specs/6_broken/.return-meta.json",
      "specs/7_handoff/.orchestrator-handoff.json",
    ]);
    for (const item of items) {
      expect(item.results.every((result) => result.level === "fail")).toBe(true);
      expect(checkReport(root, [item.source, ...commandArgs(item), "--quiet"])).toEqual(item);
    }
  });

  it("check --task N is the same object, with the task it was asked for", () => {
    const root = tree();
    for (const item of scanItems(root)) {
      const task = /specs\/(\d+)_/.exec(item.source)?.[1] ?? "";
      expect(checkReport(root, ["--task", task, ...commandArgs(item)])).toEqual({ ...item, task });
    }
  });

  it("the library's lintFile (the MCP server's report) is the same object", async () => {
    const root = tree();
    const config = await loadReturnlintConfig({ cwd: root });
    for (const item of scanItems(root)) {
      const { report } = await lintFile(item.source, { config, root, cwd: root, ...(item.command === null ? {} : { command: item.command }) });
      expect(JSON.parse(JSON.stringify(report)), item.source).toEqual(item);
    }
  });

  it("the comparison can fail: a different command gives a different report", () => {
    const root = tree();
    const first = scanItems(root)[0];
    expect(first?.command).toBe("research");
    expect(checkReport(root, [first?.source ?? "", "--command", "implement"])).not.toEqual(first);
  });
});
