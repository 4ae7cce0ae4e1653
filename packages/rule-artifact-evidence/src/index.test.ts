import path from "node:path";
import { describe, it } from "vitest";
import { RuleTester } from "@returnlint/rule-tester";
import rule from "./index.js";

const report = "specs/259_prove_completeness/reports/research-001.md";
const artifact = (path: string) => ({ type: "report", path, summary: "Research report" });
const researched = (...paths: string[]) => ({ status: "researched", artifacts: paths.map(artifact) });
// Fixture files are written when the case runs: long after these instants.
const past = new Date("2001-01-01T00:00:00Z");
const future = new Date("2999-01-01T00:00:00Z");

/** A rollout the real Codex 0.169.0 wrote (core's reader fixtures): another host's transcript. */
const codexRollout = path.join(import.meta.dirname, "..", "..", "core", "src", "transcript", "fixtures", "codex-0.169.0", "subagent.jsonl");

new RuleTester({ describe, it }).run(rule, {
  valid: [
    {
      name: "a Codex rollout is told apart, never read as a Claude Code transcript that shows no write",
      input: researched(report),
      files: { [report]: "# Research\n" },
      expected: { transcriptPath: codexRollout },
      options: { evidence: ["transcript"] },
    },
    { name: "a partial return is not asked for evidence", input: { status: "partial", artifacts: [artifact(report)] }, expected: { since: future } },
    { name: "no source of evidence at all: said once, nothing fails", input: researched(report) },
    { name: "freshness from --since", input: researched(report), files: { [report]: "# Research\n" }, expected: { since: past } },
    { name: "freshness from the return's started_at", input: { ...researched(report), started_at: "2001-01-01T00:00:00Z" }, files: { [report]: "x" } },
    {
      name: "--since wins over started_at",
      input: { ...researched(report), started_at: "2999-01-01T00:00:00Z" },
      files: { [report]: "x" },
      expected: { since: past },
    },
    {
      name: "toleranceSeconds absorbs clock skew",
      input: researched(report),
      files: { [report]: "x" },
      expected: { since: new Date(Date.now() + 60_000) },
      options: { toleranceSeconds: 3600 },
    },
    { name: "bare path strings are checked too", input: { status: "completed", artifacts: [report] }, files: { [report]: "x" }, expected: { since: past } },
    { name: "kinds left out of `evidence` are not used", input: researched(report), expected: { since: future }, options: { evidence: ["git", "transcript"] } },
    { name: "a started_at that is not a timestamp gives no freshness", input: { ...researched(report), started_at: "yesterday" } },
    { name: "no artifacts is the artifacts rule's phantom work", input: { status: "completed", artifacts: [] }, expected: { since: future } },
    { name: "a project that is not a git repository says so", input: researched(report), expected: { gitBase: "HEAD" } },
  ],
  invalid: [
    {
      name: "modified before the run started",
      input: researched(report),
      files: { [report]: "# Research\n" },
      expected: { since: future },
      errors: [
        {
          messageId: "noEvidence",
          pointer: "/artifacts/0/path",
          message: `No evidence that this run produced ${report}`,
          detail: "freshness: not found (last modified ",
        },
      ],
    },
    {
      name: "every artifact is judged on its own",
      input: researched("a.md", "b.md"),
      files: { "a.md": "x", "b.md": "y" },
      expected: { since: future },
      errors: [
        { messageId: "noEvidence", pointer: "/artifacts/0/path" },
        { messageId: "noEvidence", pointer: "/artifacts/1/path" },
      ],
    },
    {
      name: "a missing file has no evidence",
      input: { ...researched(report), started_at: "2001-01-01T00:00:00Z" },
      errors: [{ messageId: "noEvidence", detail: "freshness: not found (the file cannot be inspected: notFound)" }],
    },
    {
      name: "a transcript that does not exist is reported",
      input: researched(report),
      files: { [report]: "x" },
      expected: { transcriptPath: "/nonexistent/returnlint/transcript.jsonl" },
      errors: [{ messageId: "transcriptUnreadable", message: "/nonexistent/returnlint/transcript.jsonl does not exist" }],
    },
  ],
});
