import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { beforeAll, describe, expect, it } from "vitest";
import { commit, git, newRepository } from "@returnlint/testing";

// One return, one verdict: whichever way a return is reached (check on the checked-out tree, scan,
// audit of the history, the Claude Code hook's verdict file, the MCP server's tool), the library
// judges it once, so the verdict and the phantom flag are the same. A generated history holds every
// artifact fate, handoffs, a multi-task return and early metadata.

const BIN = fileURLToPath(new URL("../apps/cli/dist/returnlint.js", import.meta.url));
/** The MCP server's own bin (`returnlint mcp` starts it when the project has @returnlint/mcp installed). */
const MCP_BIN = fileURLToPath(new URL("../packages/mcp/dist/bin.js", import.meta.url));
const SESSION = "sess_1768000000_abc123";

interface Verdict {
  readonly ok: boolean;
  readonly phantom: boolean;
}

function returnlint(args: readonly string[], options: { cwd: string; input?: string }): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, [BIN, ...args], { cwd: options.cwd, input: options.input ?? "", encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

const metadata = (command: string, agent: string) => ({ session_id: SESSION, agent_type: agent, delegation_depth: 1, delegation_path: ["orchestrator", command, agent] });
const report = (task: string, name = "research-001.md") => ({ type: "report", path: `specs/${task}/reports/${name}`, summary: "Findings" });

/** What a kind of return writes: its files (the return among them) and what the surfaces must agree it is. */
interface Case {
  readonly kind: string;
  /** The return's path, relative to the root. */
  readonly file: string;
  readonly files: Record<string, unknown>;
  /** Files that the task's archiving moves later: from → to. */
  readonly archive?: Record<string, string>;
  /** What every surface must say (the hook differs only where it is a gate: see below). */
  readonly expected: Verdict;
  /** The command the hook's agent maps to, for metadata files the hook reads. */
  readonly agent?: string;
}

/** The kinds of return, each with its expected verdict: a case that everyone got wrong the same way still fails here. */
function caseOf(kind: number, n: number, root: string): Case {
  const task = `${String(n)}_task${String(n)}`;
  const meta = `specs/${task}/.return-meta.json`;
  const research = (artifacts: unknown[], extra: Record<string, unknown> = {}) => ({ status: "researched", summary: `Researched task ${String(n)}.`, artifacts, metadata: metadata("research", "research-agent"), ...extra });
  const written = { [`specs/${task}/reports/research-001.md`]: "# Findings\n" };
  const handoffFile = `specs/${task}/.orchestrator-handoff.json`;
  const handoff = { status: "implemented", phases_completed: 2, phases_total: 2, blockers: [], continuation_path: null, artifacts: [{ type: "summary", path: `specs/${task}/summaries/done.md` }], summary: "Done", sorry_inventory: [] };
  switch (kind) {
    case 0:
      return { kind: "exists", file: meta, agent: "research-agent", files: { ...written, [meta]: research([report(task)]) }, expected: { ok: true, phantom: false } };
    case 1:
      return { kind: "missing", file: meta, agent: "research-agent", files: { [meta]: research([report(task)]) }, expected: { ok: false, phantom: true } };
    case 2:
      return { kind: "empty", file: meta, agent: "research-agent", files: { [`specs/${task}/reports/research-001.md`]: "", [meta]: research([report(task)]) }, expected: { ok: false, phantom: true } };
    case 3:
      return { kind: "near miss", file: meta, agent: "research-agent", files: { ...written, [meta]: research([report(task, "research-002.md")]) }, expected: { ok: false, phantom: true } };
    case 4:
      return {
        kind: "absolute, inside the root",
        file: meta,
        agent: "research-agent",
        files: { ...written, [meta]: research([{ ...report(task), path: path.join(root, `specs/${task}/reports/research-001.md`) }]) },
        expected: { ok: false, phantom: false },
      };
    case 5:
      return { kind: "outside the root", file: meta, agent: "research-agent", files: { [meta]: research([{ ...report(task), path: "../elsewhere/report.md" }]) }, expected: { ok: false, phantom: false } };
    case 6:
      return {
        kind: "a folder among files",
        file: meta,
        agent: "research-agent",
        files: { ...written, [meta]: research([report(task), { ...report(task), path: `specs/${task}/reports` }]) },
        expected: { ok: false, phantom: false },
      };
    case 7:
      return {
        kind: "archived with its task",
        file: `specs/archive/${task}/.return-meta.json`,
        files: { ...written, [meta]: research([report(task)]) },
        archive: { [`specs/${task}`]: `specs/archive/${task}` },
        // Its artifact moved with it: reported as archived, which is neither a failure nor phantom work.
        expected: { ok: true, phantom: false },
      };
    case 8:
      return { kind: "no artifact", file: meta, agent: "research-agent", files: { [meta]: research([]) }, expected: { ok: false, phantom: true } };
    case 9:
      return {
        kind: "partial, its artifact not written yet",
        file: meta,
        agent: "implement-agent",
        files: {
          [meta]: {
            status: "partial",
            summary: `Half of task ${String(n)} done.`,
            artifacts: [{ type: "implementation", path: `specs/${task}/summaries/summary.md`, summary: "Not yet" }],
            partial_progress: { stage: "phase_2", details: "Phase 2 of 3", handoff_path: null },
            metadata: metadata("implement", "implement-agent"),
          },
        },
        expected: { ok: true, phantom: false },
      };
    case 10:
      return {
        kind: "planned for /revise",
        file: meta,
        agent: "revise-agent",
        files: {
          [`specs/${task}/plans/plan-002.md`]: "# Plan\n",
          [meta]: { status: "planned", summary: `Revised task ${String(n)}.`, artifacts: [{ type: "plan", path: `specs/${task}/plans/plan-002.md`, summary: "Plan" }], metadata: metadata("revise", "revise-agent") },
        },
        expected: { ok: true, phantom: false },
      };
    case 11:
      return {
        kind: "early metadata",
        file: meta,
        agent: "implement-agent",
        files: { [meta]: { status: "in_progress", started_at: `2026-01-10T10:${String(n % 60).padStart(2, "0")}:00Z`, artifacts: [], partial_progress: { stage: "phase_1", details: `Started task ${String(n)}` }, metadata: metadata("implement", "implement-agent") } },
        expected: { ok: true, phantom: false },
      };
    case 12:
      return { kind: "handoff, its artifact there", file: handoffFile, files: { [`specs/${task}/summaries/done.md`]: "# Done\n", [handoffFile]: handoff }, expected: { ok: true, phantom: false } };
    case 13:
      // The handoff preset checks the artifacts a handoff lists, like any return's: a missing one fails it, and is phantom work.
      return { kind: "handoff, its artifact missing", file: handoffFile, files: { [handoffFile]: handoff }, expected: { ok: false, phantom: true } };
    default:
      return {
        kind: n % 2 === 0 ? "multi-task, tasks completed" : "multi-task, none completed",
        file: `specs/${task}/.return-meta-multi.json`,
        files: {
          [`specs/${task}/.return-meta-multi.json`]: {
            status: "completed",
            session_id: SESSION,
            metadata: { tasks_completed: n % 2 === 0 ? [1, 2] : [], tasks_failed: [], defer_ledger: [], detected_defects: [], cycles_used: 1, multi_task_mode: true, paused_by_user: false, resume_hint: null },
          },
        },
        expected: { ok: n % 2 === 0, phantom: n % 2 !== 0 },
      };
  }
}

const KINDS = 15;
const TASKS = 120;

describe("one verdict for each return, whichever way it is reached", { timeout: 240_000 }, () => {
  let root = "";
  let cases: Case[] = [];
  /**
   * Where audit judges each return's current version: the path and commit that first wrote its
   * content (an archived return was written in its task folder, and moved unchanged).
   */
  const introducedAt = new Map<string, { readonly path: string; readonly commit: string }>();

  beforeAll(() => {
    root = newRepository();
    cases = Array.from({ length: TASKS }, (_, index) => caseOf(index % KINDS, index + 1, root));
    // Early metadata first, in its own commits, for the tasks that finish later: history that is not the tip.
    commit(root, "2026-01-02T09:00:00Z", { files: Object.fromEntries(cases.filter((c) => c.kind === "exists").map((c) => [c.file, { status: "in_progress", started_at: "2026-01-02T09:00:00Z", artifacts: [], metadata: metadata("research", "research-agent") }])) }, "early metadata");
    // The returns, in four commits a week apart.
    for (let batch = 0; batch < 4; batch += 1) {
      const files = Object.assign({}, ...cases.filter((_, index) => index % 4 === batch).map((c) => c.files)) as Record<string, unknown>;
      commit(root, `2026-01-${String(10 + batch * 7)}T10:00:00Z`, { files });
    }
    commit(root, "2026-02-10T10:00:00Z", { move: Object.assign({}, ...cases.map((c) => c.archive ?? {})) as Record<string, string> }, "archive finished tasks");
    for (const c of cases) {
      const written = c.archive === undefined ? c.file : c.file.replace("specs/archive/", "specs/");
      introducedAt.set(c.file, { path: written, commit: git(root, ["log", "-1", "--diff-filter=AM", "--format=%H", "--", written]) });
    }
  });

  it("holds every kind of return, at least a hundred of them", () => {
    expect(cases.length).toBeGreaterThanOrEqual(100);
    expect(new Set(cases.map((c) => c.kind)).size).toBe(KINDS + 1);
  });

  it("check, scan, audit, the hook's verdict file and the MCP tool agree, and are right", async () => {
    const seen: Record<string, Record<string, Verdict>> = {};
    const record = (surface: string, file: string, verdict: Verdict) => {
      (seen[file] ??= {})[surface] = { ok: verdict.ok, phantom: verdict.phantom };
    };

    for (const c of cases) {
      const run = returnlint(["check", c.file, "--format", "json"], { cwd: root });
      expect([0, 1], `${c.file}: ${run.stderr}`).toContain(run.status);
      record("check", c.file, JSON.parse(run.stdout) as Verdict);
    }

    const scanned = returnlint(["scan", "specs", "--format", "json"], { cwd: root });
    expect([0, 1], scanned.stderr).toContain(scanned.status);
    for (const entry of JSON.parse(scanned.stdout) as (Verdict & { source: string })[]) record("scan", entry.source, entry);

    const audited = returnlint(["audit", ".", "--format", "json"], { cwd: root });
    expect([0, 1], audited.stderr).toContain(audited.status);
    const versions = (JSON.parse(audited.stdout) as { returns: (Verdict & { path: string; commit: string })[] }).returns;
    // audit reads the history of metadata files (.return-meta.json): handoffs and batches are the others' to judge.
    for (const c of cases.filter((each) => each.file.endsWith("/.return-meta.json"))) {
      const at = introducedAt.get(c.file);
      const version = versions.find((entry) => entry.path === at?.path && entry.commit === at.commit);
      expect(version, `audit has no version of ${c.file} at ${JSON.stringify(at)}`).toBeDefined();
      if (version !== undefined) record("audit", c.file, version);
    }

    // The hook reads the metadata file a subagent's prose names; its verdict file is task-N.json.
    for (const c of cases.filter((each) => each.agent !== undefined)) {
      const payload = {
        session_id: "s1",
        transcript_path: "/dev/null",
        cwd: root,
        hook_event_name: "SubagentStop",
        stop_hook_active: false,
        agent_id: `agent-${c.file}`,
        agent_type: c.agent,
        last_assistant_message: `Done. The return is in ${c.file}.`,
      };
      const run = returnlint(["hook", "claude"], { cwd: root, input: JSON.stringify(payload) });
      expect(run.status, run.stderr).toBe(0);
      const task = /specs\/(\d+)_/.exec(c.file)?.[1] ?? "";
      record("hook", c.file, JSON.parse(readFileSync(path.join(root, ".returnlint", "verdicts", `task-${task}.json`), "utf8")) as Verdict);
    }

    const client = new Client({ name: "one-verdict", version: "1.0.0" });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [MCP_BIN], cwd: root, stderr: "pipe" }));
    try {
      for (const c of cases) {
        const answer = (await client.callTool({ name: "validate_return", arguments: { path: c.file } })) as CallToolResult;
        record("mcp", c.file, answer.structuredContent as unknown as Verdict);
      }
    } finally {
      await client.close();
    }

    const disagreements: string[] = [];
    for (const c of cases) {
      const surfaces = seen[c.file] ?? {};
      const expectedSurfaces = ["check", "scan", "mcp", ...(c.file.endsWith("/.return-meta.json") ? ["audit"] : []), ...(c.agent === undefined ? [] : ["hook"])];
      for (const surface of expectedSurfaces) {
        const got = surfaces[surface];
        // At a subagent's stop the hook is a gate: a return still in progress has not finished.
        const expected = surface === "hook" && c.kind === "early metadata" ? { ...c.expected, ok: false } : c.expected;
        if (got === undefined || got.ok !== expected.ok || got.phantom !== expected.phantom) {
          disagreements.push(`${c.kind} ${c.file}: ${surface} says ${JSON.stringify(got)}, expected ${JSON.stringify(expected)}`);
        }
      }
    }
    expect(disagreements).toEqual([]);
  });
});
