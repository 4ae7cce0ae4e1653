import { execFileSync } from "node:child_process";
import { readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { REPO, STACK_FRAME, metadata, project, returnlint } from "./helpers.js";
import type { ReportObject } from "@returnlint/api";

// Issue 10 end to end: the built CLI, a config enabling the opt-in rules, a real git repository.

const report = (name: string) => `specs/1_x/reports/${name}.md`;
const content = (title: string) => `# ${title}\n\n## Findings\n\n${"The canonical model covers every maximal consistent set.\n".repeat(5)}`;
const metaFile = (names: readonly string[], session = "sess_1") => ({
  status: "researched",
  artifacts: names.map((name) => ({ type: "report", path: report(name), summary: "Report" })),
  metadata: metadata("general-research-agent", session),
});

const evidence = (stdout: string) =>
  (JSON.parse(stdout) as ReportObject).results
    .filter((result) => result.ruleId === "artifact-evidence" && (result.level === "pass" || result.level === "fail"))
    .map((result) => `${result.level} ${result.messageId} ${result.message}`);

const git = (cwd: string, ...args: string[]) => execFileSync("git", ["-c", "user.name=Test", "-c", "user.email=test@example.com", ...args], { cwd, stdio: "pipe" });

describe("check --since --git-base --transcript with artifact-evidence enabled", () => {
  const root = project({
    "returnlint.config.json": { preset: "metadata-file", rules: { "artifact-evidence": "error", "artifact-content": "error" } },
    [report("old")]: content("Old report"),
    [report("same")]: content("Same report"),
  });
  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
  });
  git(root, "init", "-q");
  git(root, "add", ".");
  git(root, "commit", "-q", "-m", "before the run");
  const hourAgo = new Date(Date.now() - 3_600_000);
  for (const name of ["old", "same"]) utimesSync(path.join(root, report(name)), hourAgo, hourAgo);
  const since = new Date(Date.now() - 1000).toISOString();
  // The run: a new report, and one rewritten with exactly what was committed.
  writeFileSync(path.join(root, report("new")), content("New report"));
  writeFileSync(path.join(root, report("same")), content("Same report"));
  const check = (names: readonly string[], ...flags: string[]) => {
    writeFileSync(path.join(root, "specs/1_x/.return-meta.json"), JSON.stringify(metaFile(names)));
    return returnlint(["check", "--task", "1", "--command", "research", "--session-id", "sess_1", "--format", "json", ...flags], { cwd: root });
  };

  it("passes an artifact written after --since, with freshness and git evidence", () => {
    const run = check(["new"], "--since", since, "--git-base", "HEAD");
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(evidence(run.stdout)).toEqual([`pass produced Artifact produced by this run: ${report("new")}`]);
  });

  it("fails an artifact committed before the run, and one written but identical to the committed version", () => {
    const run = check(["old", "same"], "--since", since, "--git-base", "HEAD");
    expect(run.status).toBe(1);
    expect(evidence(run.stdout)).toEqual([
      `fail noEvidence No evidence that this run produced ${report("old")}`,
      `fail identicalToBase Artifact written but identical to the committed version: ${report("same")}`,
    ]);
  });

  it("prints what was looked for and found, per artifact, in the seeds' transcript", () => {
    writeFileSync(path.join(root, "specs/1_x/.return-meta.json"), JSON.stringify(metaFile(["new", "old"])));
    const run = returnlint(["check", "--task", "1", "--command", "research", "--session-id", "sess_1", "--since", since, "--git-base", "HEAD"], { cwd: root });
    expect(run.status).toBe(1);
    expect(run.stdout).toContain(`[PASS] Artifact produced by this run: ${report("new")}\nfreshness: found (modified `);
    expect(run.stdout).toContain(`[FAIL] No evidence that this run produced ${report("old")}\nfreshness: not found (last modified `);
    expect(run.stdout).toContain("git: not found (identical to the committed version at HEAD: git shows no change)");
  });

  it("takes the transcript's Write as evidence, and not a transcript without one", () => {
    const fixture = (name: string) =>
      readFileSync(path.join(REPO, "packages/rule-artifact-evidence/src/fixtures", name), "utf8")
        .replaceAll("__ROOT__", root)
        .replaceAll("specs/259_prove_completeness/reports/research-001.md", report("old"));
    writeFileSync(path.join(root, "write.jsonl"), fixture("transcript-write.jsonl"));
    writeFileSync(path.join(root, "no-write.jsonl"), fixture("transcript-no-write.jsonl"));
    const config = ["--config", path.join(root, "transcript-only.json")];
    writeFileSync(config[1] ?? "", JSON.stringify({ preset: "metadata-file", rules: { "artifact-evidence": ["error", { evidence: ["transcript"] }] } }));

    const written = check(["old"], "--transcript", "write.jsonl", ...config);
    expect(written.status).toBe(0);
    expect(evidence(written.stdout)).toEqual([`pass produced Artifact produced by this run: ${report("old")}`]);

    const notWritten = check(["old"], "--transcript", "no-write.jsonl", ...config);
    expect(notWritten.status).toBe(1);
    expect(evidence(notWritten.stdout)).toEqual([`fail noEvidence No evidence that this run produced ${report("old")}`]);
  });

  it("says clearly when --git-base names no commit, without a stack trace", () => {
    const run = check(["new"], "--git-base", "no-such-branch");
    expect(run.status).toBe(1);
    expect(run.stdout + run.stderr).not.toMatch(STACK_FRAME);
    expect(evidence(run.stdout)).toEqual(['fail unknownRevision Git evidence not available: "no-such-branch" is not a commit in this repository']);
  });

  it("checks nothing, and fails nothing, when no evidence was given", () => {
    const run = check(["old"]);
    expect(run.status).toBe(0);
    expect((JSON.parse(run.stdout) as ReportObject).results.map((result) => result.messageId)).toContain("nothingToCheck");
  });

  it("reports stale metadata from another session", () => {
    writeFileSync(path.join(root, "specs/1_x/.return-meta.json"), JSON.stringify(metaFile(["new"], "sess_0_earlier")));
    const run = returnlint(["check", "--task", "1", "--command", "research", "--session-id", "sess_1"], { cwd: root });
    expect(run.status).toBe(1);
    expect(run.stdout).toContain("[FAIL] Stale return metadata: specs/1_*/.return-meta.json belongs to session sess_0_earlier, not this run's sess_1");
  });
});
