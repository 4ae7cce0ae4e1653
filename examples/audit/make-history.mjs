#!/usr/bin/env node
// Builds a small git repository whose history holds the cases `returnlint audit` tells apart:
// a phantom return, an artifact committed one commit after the return that claimed it, a task
// moved to the archive, an artifact deleted while its return still claims it, a folder named as
// an artifact, an empty artifact, a status the metadata file forbids, and honest returns.
// Dates and identity are fixed, so the commits (and their hashes) are the same on every machine.
//
//   node examples/audit/make-history.mjs DIR     then: returnlint audit DIR
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";

const IDENTITY = ["-c", "user.name=Returnlint Example", "-c", "user.email=example@returnlint.invalid", "-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main"];

function git(dir, args, env = {}) {
  const clean = Object.fromEntries(Object.entries({ ...process.env, ...env }).filter(([name]) => !name.startsWith("GIT_") || name.endsWith("_DATE")));
  return execFileSync("git", [...IDENTITY, ...args], { cwd: dir, env: clean, encoding: "utf8" }).trim();
}

function commit(dir, date, change) {
  for (const [relative, content] of Object.entries(change.files ?? {})) {
    const target = path.join(dir, relative);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, typeof content === "string" ? content : `${JSON.stringify(content, null, 2)}\n`);
  }
  for (const relative of change.remove ?? []) git(dir, ["rm", "-q", "-r", relative]);
  for (const [from, to] of Object.entries(change.move ?? {})) {
    mkdirSync(path.dirname(path.join(dir, to)), { recursive: true });
    git(dir, ["mv", from, to]);
  }
  git(dir, ["add", "-A"]);
  git(dir, ["commit", "-q", "-m", change.message], { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date });
}

/** A metadata file (return-metadata-file.md) claiming `artifacts`. */
function returnMeta(status, artifacts, agent, command, extra = {}) {
  return {
    status,
    artifacts: artifacts.map((artifact) => ({ type: "report", path: artifact, summary: "What the agent made" })),
    ...(status === "implemented" ? { completion_data: { completion_summary: "Implemented the change and its tests." } } : {}),
    metadata: { session_id: "sess_1736700000_abc123", agent_type: agent, delegation_depth: 1, delegation_path: ["orchestrator", command, agent] },
    ...extra,
  };
}

const research = (artifacts, extra) => returnMeta("researched", artifacts, "research-agent", "research", extra);
const implement = (status, artifacts, extra) => returnMeta(status, artifacts, "impl-agent", "implement", extra);

const HISTORY = [
  ["2025-01-10T09:00:00Z", { message: "Research task 1 (the report was never written)", files: { "specs/1_phantom/.return-meta.json": research(["specs/1_phantom/reports/research-001.md"]), "docs/real.md": "# Real\n" } }],
  ["2025-01-15T09:00:00Z", { message: "Implement task 2 (the code comes a commit later)", files: { "specs/2_late/.return-meta.json": implement("implemented", ["src/late.ts", "specs/2_late/summaries/summary.md"]), "specs/2_late/summaries/summary.md": "# Summary\n" } }],
  ["2025-01-16T09:00:00Z", { message: "The code task 2 claimed", files: { "src/late.ts": "export const late = true;\n" } }],
  ["2025-02-03T09:00:00Z", { message: "Plan task 3", files: { "specs/3_archived/.return-meta.json": returnMeta("planned", ["specs/3_archived/plans/implementation-001.md"], "planner-agent", "plan"), "specs/3_archived/plans/implementation-001.md": "# Plan\n" } }],
  ["2025-02-10T09:00:00Z", { message: "Archive task 3; research task 4 in the archive", move: { "specs/3_archived": "specs/archive/3_archived" }, files: { "specs/archive/4_old/.return-meta.json": research(["specs/archive/4_old/reports/r.md"]), "specs/archive/4_old/reports/r.md": "# Old report\n" } }],
  ["2025-03-01T09:00:00Z", { message: "Research task 5", files: { "specs/5_deleted/.return-meta.json": research(["specs/5_deleted/reports/r.md"]), "specs/5_deleted/reports/r.md": "# Report\n" } }],
  ["2025-03-02T09:00:00Z", { message: "Task 5 again: the report deleted, the return still claims it", remove: ["specs/5_deleted/reports/r.md"], files: { "specs/5_deleted/.return-meta.json": research(["specs/5_deleted/reports/r.md"], { next_steps: "Run /plan 5" }) } }],
  ["2025-03-05T09:00:00Z", { message: "Implement task 6 (a folder named as the artifact)", files: { "specs/6_dir/.return-meta.json": implement("implemented", ["src/lib"]), "src/lib/index.ts": "export {};\n" } }],
  [
    "2025-04-02T09:00:00Z",
    {
      message: "Tasks 9, 10 and 12",
      files: {
        "specs/9_partial/.return-meta.json": implement("partial", ["src/never.ts"], { errors: [{ type: "timeout", message: "Timed out after phase 2", recoverable: true, recommendation: "Resume with /implement 9" }] }),
        "specs/10_completed/.return-meta.json": implement("completed", ["docs/real.md"]),
        "specs/12_empty/.return-meta.json": research(["specs/12_empty/reports/r.md"]),
        "specs/12_empty/reports/r.md": "",
      },
    },
  ],
];

/** Writes the history into `dir`, which must be missing or empty. */
export function makeHistory(dir) {
  mkdirSync(dir, { recursive: true });
  if (readdirSync(dir).length > 0) throw new Error(`${dir} is not empty: give a new folder`);
  git(dir, ["init", "-q"]);
  for (const [date, change] of HISTORY) commit(dir, date, change);
  return dir;
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === new URL(import.meta.url).pathname) {
  const dir = process.argv[2];
  if (dir === undefined || (existsSync(dir) && readdirSync(dir).length > 0)) {
    process.stderr.write("Usage: node examples/audit/make-history.mjs NEW_DIR   (a folder that does not exist yet, or is empty)\n");
    process.exit(2);
  }
  makeHistory(path.resolve(dir));
  process.stdout.write(`Made a repository of ${String(HISTORY.length)} commits in ${dir}: now run "returnlint audit ${dir}".\n`);
}
