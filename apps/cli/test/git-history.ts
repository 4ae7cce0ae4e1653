import { commit, git, newRepository } from "@returnlint/testing";

// The audit suites import the repository helpers from here, beside the history they build with them;
// an empty temporary folder (a bare clone, an output file) is their scratch folder.
export { commit, git, newRepository, tempProject as scratchDir, type Change } from "@returnlint/testing";

const metadata = (agent: string, command: string) => ({
  session_id: "sess_1736700000_abc123",
  agent_type: agent,
  delegation_depth: 1,
  delegation_path: ["orchestrator", command, agent],
});

/** A metadata file (return-metadata-file.md) naming `artifacts`. */
export function returnMeta(status: string, artifacts: readonly string[], agent: string, command: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    status,
    artifacts: artifacts.map((artifact) => ({ type: "report", path: artifact, summary: "What the agent made" })),
    ...(status === "implemented" ? { completion_data: { completion_summary: "Implemented the change and its tests." } } : {}),
    metadata: metadata(agent, command),
    ...extra,
  };
}

/** What the known history should yield for one version. */
export interface Expected {
  readonly path: string;
  readonly date: string;
  readonly agent: string | null;
  readonly status: string | null;
  readonly command: string | null;
  readonly ok: boolean;
  readonly phantom: boolean;
  /** The messageIds of its failures, in order. */
  readonly failures: readonly string[];
}

/**
 * A history with every case the audit must get right, and what it must say about
 * each version: a phantom return, an artifact added one commit later, an archived
 * task (moved, and one first committed in the archive), a deleted artifact, a folder
 * named as an artifact, symlinks leading out and staying inside, an empty artifact,
 * a submodule, a partial return, a status the format forbids, and a file that is not JSON.
 */
export function knownHistory(): { dir: string; expected: Expected[] } {
  const dir = newRepository();
  const research = (task: string, artifacts: readonly string[], extra?: Record<string, unknown>) => returnMeta("researched", artifacts, "research-agent", "research", extra);
  commit(dir, "2025-01-10T09:00:00Z", { files: { "specs/1_phantom/.return-meta.json": research("1", ["specs/1_phantom/reports/research-001.md"]), "docs/real.md": "# Real\n" } });
  commit(dir, "2025-01-15T09:00:00Z", {
    files: {
      "specs/2_late/.return-meta.json": returnMeta("implemented", ["src/late.ts", "specs/2_late/summaries/summary.md"], "impl-agent", "implement"),
      "specs/2_late/summaries/summary.md": "# Summary\n",
    },
  });
  commit(dir, "2025-01-16T09:00:00Z", { files: { "src/late.ts": "export const late = true;\n" } });
  commit(dir, "2025-02-03T09:00:00Z", {
    files: {
      "specs/3_archived/.return-meta.json": returnMeta("planned", ["specs/3_archived/plans/implementation-001.md"], "planner-agent", "plan"),
      "specs/3_archived/plans/implementation-001.md": "# Plan\n",
    },
  });
  commit(dir, "2025-02-10T09:00:00Z", {
    move: { "specs/3_archived": "specs/archive/3_archived" },
    files: {
      "specs/archive/4_old/.return-meta.json": research("4", ["specs/archive/4_old/reports/r.md"]),
      "specs/archive/4_old/reports/r.md": "# Old report\n",
    },
  });
  commit(dir, "2025-03-01T09:00:00Z", {
    files: { "specs/5_deleted/.return-meta.json": research("5", ["specs/5_deleted/reports/r.md"]), "specs/5_deleted/reports/r.md": "# Report\n" },
  });
  commit(dir, "2025-03-02T09:00:00Z", {
    remove: ["specs/5_deleted/reports/r.md"],
    files: { "specs/5_deleted/.return-meta.json": research("5", ["specs/5_deleted/reports/r.md"], { next_steps: "Run /plan 5" }) },
  });
  commit(dir, "2025-03-05T09:00:00Z", {
    files: { "specs/6_dir/.return-meta.json": returnMeta("implemented", ["src/lib"], "impl-agent", "implement"), "src/lib/index.ts": "export {};\n" },
  });
  commit(dir, "2025-04-01T09:00:00Z", {
    files: {
      "specs/7_link_out/.return-meta.json": research("7", ["specs/7_link_out/reports/r.md"]),
      "specs/8_link_in/.return-meta.json": research("8", ["specs/8_link_in/reports/r.md"]),
    },
    links: { "specs/7_link_out/reports/r.md": "../../../../outside.md", "specs/8_link_in/reports/r.md": "../../../docs/real.md" },
  });
  const head = git(dir, ["rev-parse", "HEAD"]);
  commit(dir, "2025-04-02T09:00:00Z", {
    files: {
      "specs/9_partial/.return-meta.json": returnMeta("partial", ["src/never.ts"], "impl-agent", "implement", {
        errors: [{ type: "timeout", message: "Timed out after phase 2", recoverable: true, recommendation: "Resume with /implement 9" }],
      }),
      "specs/10_completed/.return-meta.json": returnMeta("completed", ["docs/real.md"], "impl-agent", "implement"),
      "specs/11_bad/.return-meta.json": "{ this is not JSON\n",
      "specs/12_empty/.return-meta.json": research("12", ["specs/12_empty/reports/r.md"]),
      "specs/12_empty/reports/r.md": "",
      "specs/13_sub/.return-meta.json": returnMeta("implemented", ["vendor/lib"], "impl-agent", "implement"),
    },
    gitlinks: { "vendor/lib": head },
  });

  const row = (p: string, date: string, agent: string | null, status: string | null, command: string | null, ok: boolean, phantom: boolean, failures: string[]): Expected => ({
    path: p,
    date,
    agent,
    status,
    command,
    ok,
    phantom,
    failures,
  });
  const expected = [
    row("specs/1_phantom/.return-meta.json", "2025-01-10T09:00:00.000Z", "research-agent", "researched", "research", false, true, ["notFound"]),
    row("specs/2_late/.return-meta.json", "2025-01-15T09:00:00.000Z", "impl-agent", "implemented", "implement", false, true, ["notFound"]),
    row("specs/3_archived/.return-meta.json", "2025-02-03T09:00:00.000Z", "planner-agent", "planned", "plan", true, false, []),
    row("specs/archive/4_old/.return-meta.json", "2025-02-10T09:00:00.000Z", "research-agent", "researched", "research", true, false, []),
    row("specs/5_deleted/.return-meta.json", "2025-03-01T09:00:00.000Z", "research-agent", "researched", "research", true, false, []),
    row("specs/5_deleted/.return-meta.json", "2025-03-02T09:00:00.000Z", "research-agent", "researched", "research", false, true, ["notFound"]),
    row("specs/6_dir/.return-meta.json", "2025-03-05T09:00:00.000Z", "impl-agent", "implemented", "implement", false, false, ["notAFile"]),
    row("specs/7_link_out/.return-meta.json", "2025-04-01T09:00:00.000Z", "research-agent", "researched", "research", false, false, ["symlinkEscapesRoot"]),
    row("specs/8_link_in/.return-meta.json", "2025-04-01T09:00:00.000Z", "research-agent", "researched", "research", true, false, []),
    row("specs/10_completed/.return-meta.json", "2025-04-02T09:00:00.000Z", "impl-agent", "completed", "implement", false, false, ["invalidStatus"]),
    row("specs/11_bad/.return-meta.json", "2025-04-02T09:00:00.000Z", null, null, null, false, false, ["syntaxError"]),
    row("specs/12_empty/.return-meta.json", "2025-04-02T09:00:00.000Z", "research-agent", "researched", "research", false, true, ["empty"]),
    row("specs/13_sub/.return-meta.json", "2025-04-02T09:00:00.000Z", "impl-agent", "implemented", "implement", false, false, ["notAFile"]),
    row("specs/9_partial/.return-meta.json", "2025-04-02T09:00:00.000Z", "impl-agent", "partial", "implement", true, false, []),
  ];
  return { dir, expected };
}
