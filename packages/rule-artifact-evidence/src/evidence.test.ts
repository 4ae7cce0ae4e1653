import { readFileSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { createFileView, parseReturn, runRules, type Expected, type Result } from "@returnlint/core";
import { git, tempProject, writeFiles } from "@returnlint/testing";
import rule from "./index.js";

// The acceptance, in real temporary git repositories and with recorded transcripts.

/** Writes one file, modified at `mtime` when given. */
function write(root: string, relative: string, content: string, mtime?: Date): void {
  writeFiles(root, { [relative]: content });
  if (mtime !== undefined) utimesSync(path.join(root, relative), mtime, mtime);
}

async function run(root: string, paths: readonly string[], expected: Expected, options: Record<string, unknown> = {}): Promise<Result[]> {
  const text = JSON.stringify({ status: "researched", artifacts: paths.map((file) => ({ type: "report", path: file, summary: "Report" })) });
  const report = await runRules({
    text,
    parse: parseReturn(text),
    command: "research",
    format: "metadata-file",
    expected,
    rules: [{ rule, severity: "error", options: { ...rule.meta.defaultOptions, ...options }, source: "test" }],
    files: createFileView(root),
  });
  return [...report.results];
}
const verdicts = (results: readonly Result[]) => results.filter((result) => result.level === "pass" || result.level === "fail").map((result) => [result.level, result.messageId]);
const about = (results: readonly Result[], file: string) => results.find((result) => result.message.endsWith(file));

describe("git evidence, in a temporary repository", () => {
  let root = "";
  // The run starts now; what was committed before it is an hour older.
  const start = new Date(Date.now() - 1000);
  const before = new Date(start.getTime() - 3_600_000);

  beforeAll(() => {
    root = tempProject();
    git(root, ["init", "-q"]);
    write(root, "specs/1_x/reports/old.md", "# Old report\n", before);
    write(root, "specs/1_x/reports/same.md", "# Same report\n", before);
    write(root, "specs/1_x/reports/edited.md", "# Edited report\n", before);
    write(root, ".gitignore", "ignored/\n", before);
    git(root, ["add", "."]);
    git(root, ["commit", "-q", "-m", "before the run"]);
    // The run: one new file, one rewritten with its committed content, one edited, one staged, one ignored.
    write(root, "specs/1_x/reports/new.md", "# New report\n");
    write(root, "specs/1_x/reports/same.md", "# Same report\n");
    write(root, "specs/1_x/reports/edited.md", "# Edited report\n\n## Findings\n");
    write(root, "specs/1_x/reports/staged.md", "# Staged\n");
    git(root, ["add", "specs/1_x/reports/staged.md"]);
    write(root, "ignored/out.md", "# Ignored\n", before);
    write(root, "*.md", "a file named like a glob\n");
  });

  it("fails an artifact committed before the run, and says git shows no change", async () => {
    const results = await run(root, ["specs/1_x/reports/old.md"], { since: start, gitBase: "HEAD" });
    expect(verdicts(results)).toEqual([["fail", "noEvidence"]]);
    const detail = about(results, "old.md")?.detail ?? "";
    expect(detail).toContain("freshness: not found (last modified");
    expect(detail).toContain("git: not found (identical to the committed version at HEAD: git shows no change)");
    expect(detail).toContain("Error: looked for freshness, git; found none");
  });

  it("passes an artifact written after the run's start", async () => {
    const results = await run(root, ["specs/1_x/reports/new.md"], { since: start, gitBase: "HEAD" });
    expect(verdicts(results)).toEqual([["pass", "produced"]]);
    expect(about(results, "new.md")?.detail).toMatch(/^freshness: found \(modified .*\)\ngit: found \(new, untracked\)$/);
  });

  it("fails an artifact written but identical to the committed version, even with a fresh mtime", async () => {
    const results = await run(root, ["specs/1_x/reports/same.md"], { since: start, gitBase: "HEAD" });
    expect(verdicts(results)).toEqual([["fail", "identicalToBase"]]);
    const finding = about(results, "same.md");
    expect(finding?.message).toBe("Artifact written but identical to the committed version: specs/1_x/reports/same.md");
    expect(finding?.detail).toContain("freshness: found");
    expect(finding?.detail).toContain("has the same content as at HEAD, so git shows no change");
  });

  it("finds edits and staged files relative to the base, with git alone", async () => {
    const files = ["specs/1_x/reports/edited.md", "specs/1_x/reports/staged.md", "*.md", "./specs/1_x/../1_x/reports/new.md"];
    const results = await run(root, files, { gitBase: "HEAD" }, { evidence: ["git"] });
    expect(verdicts(results)).toEqual(files.map(() => ["pass", "produced"]));
    expect(about(results, "edited.md")?.detail).toBe("git: found (changed relative to HEAD)");
    expect(about(results, "staged.md")?.detail).toBe("git: found (changed relative to HEAD)");
  });

  it("holds no git evidence for an ignored file", async () => {
    const results = await run(root, ["ignored/out.md"], { gitBase: "HEAD" }, { evidence: ["git"] });
    expect(about(results, "out.md")?.detail).toContain("git: not found (ignored by git");
  });

  it("compares with the base, not with HEAD, once the run has committed", async () => {
    const clone = tempProject();
    git(clone, ["init", "-q"]);
    write(clone, "a.md", "# A\n");
    git(clone, ["add", "."]);
    git(clone, ["commit", "-q", "-m", "base"]);
    write(clone, "b.md", "# B\n");
    git(clone, ["add", "."]);
    git(clone, ["commit", "-q", "-m", "the run commits its work"]);
    const results = await run(clone, ["a.md", "b.md"], { gitBase: "HEAD~1" }, { evidence: ["git"] });
    expect(verdicts(results)).toEqual([["fail", "noEvidence"], ["pass", "produced"]]);
  });

  it("works from a project root below the repository's top", async () => {
    const results = await run(path.join(root, "specs/1_x"), ["reports/new.md", "reports/old.md"], { gitBase: "HEAD" }, { evidence: ["git"] });
    expect(verdicts(results)).toEqual([["pass", "produced"], ["fail", "noEvidence"]]);
  });

  it("reports an unknown revision, and one that looks like an option", async () => {
    for (const gitBase of ["no-such-branch", "--output=/tmp/x"]) {
      const results = await run(root, ["specs/1_x/reports/new.md"], { gitBase }, { evidence: ["git"] });
      expect(results.filter((result) => result.level === "fail").map((result) => result.messageId)).toEqual(["unknownRevision"]);
      expect(results.map((result) => result.messageId)).toContain("nothingToCheck");
    }
  });

  it("tells a shallow clone from an unknown revision", async () => {
    const shallow = tempProject();
    const origin = tempProject();
    git(origin, ["init", "-q"]);
    for (const name of ["a", "b"]) {
      write(origin, `${name}.md`, name);
      git(origin, ["add", "."]);
      git(origin, ["commit", "-q", "-m", name]);
    }
    git(shallow, ["clone", "-q", "--depth", "1", `file://${origin}`, "."]);
    const results = await run(shallow, ["b.md"], { gitBase: "HEAD~1" }, { evidence: ["git"] });
    const finding = results.find((result) => result.messageId === "shallowClone");
    expect(finding?.level).toBe("fail");
    expect(finding?.message).toBe('Git evidence not available: the clone is shallow and does not hold "HEAD~1"');
  });

  it("says so when the root is not a git repository", async () => {
    const plain = tempProject();
    write(plain, "a.md", "a");
    const results = await run(plain, ["a.md"], { gitBase: "HEAD", since: new Date(0) });
    expect(results.find((result) => result.messageId === "notARepository")?.level).toBe("info");
    expect(verdicts(results)).toEqual([["pass", "produced"]]);
  });

  describe("without a git executable", () => {
    const saved = process.env.PATH;
    afterEach(() => {
      process.env.PATH = saved;
    });
    it("says git is missing, and checks the rest", async () => {
      process.env.PATH = path.join(tempProject(), "no-git-here");
      const results = await run(root, ["specs/1_x/reports/new.md"], { gitBase: "HEAD", since: start });
      expect(results.find((result) => result.messageId === "gitMissing")?.message).toBe("Git evidence not available: no git executable was found on the PATH");
      expect(verdicts(results)).toEqual([["pass", "produced"]]);
    });
  });
});

describe("transcript evidence, from recorded Claude Code transcripts", () => {
  const artifact = "specs/259_prove_completeness/reports/research-001.md";
  let root = "";
  let transcripts = "";
  const fixture = (name: string, rootInTranscript = root) => {
    const file = path.join(transcripts, name);
    writeFileSync(file, readFileSync(new URL(`fixtures/${name}`, import.meta.url), "utf8").replaceAll("__ROOT__", rootInTranscript));
    return file;
  };

  beforeAll(() => {
    root = tempProject();
    transcripts = tempProject();
    write(root, artifact, "# Research Report: Task 259\n");
  });

  it("a Write tool call to the artifact's path satisfies the transcript evidence", async () => {
    const results = await run(root, [artifact], { transcriptPath: fixture("transcript-write.jsonl") }, { evidence: ["transcript"] });
    expect(verdicts(results)).toEqual([["pass", "produced"]]);
    expect(about(results, artifact)?.detail).toBe("transcript: found (Write at line 4)");
  });

  it("a transcript without one does not, and says what it looked for", async () => {
    const results = await run(root, [artifact], { transcriptPath: fixture("transcript-no-write.jsonl") }, { evidence: ["transcript"] });
    expect(verdicts(results)).toEqual([["fail", "noEvidence"]]);
    expect(about(results, artifact)?.detail).toContain("transcript: not found (no Write, Edit, MultiEdit, NotebookEdit of this path)");
  });

  it("a Write to the same relative path in another project does not count", async () => {
    const results = await run(root, [artifact], { transcriptPath: fixture("transcript-write.jsonl", "/elsewhere/project") }, { evidence: ["transcript"] });
    expect(verdicts(results)).toEqual([["fail", "noEvidence"]]);
  });

  it("a Write whose result is an error does not count", async () => {
    const file = fixture("transcript-write.jsonl");
    const failed = readFileSync(file, "utf8").replace('"type":"tool_result","content":"File created', '"type":"tool_result","is_error":true,"content":"File created');
    writeFileSync(file, failed);
    const results = await run(root, [artifact], { transcriptPath: file }, { evidence: ["transcript"] });
    expect(about(results, artifact)?.detail).toContain("transcript: not found (the Write at line 4 failed)");
  });

  it("tolerates lines that are not JSON, resolves relative paths against the line's cwd, and knows Edit", async () => {
    const file = path.join(transcripts, "mixed.jsonl");
    const edit = { type: "assistant", cwd: path.join(root, "specs"), message: { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "Edit", input: { file_path: "259_prove_completeness/reports/research-001.md", old_string: "a", new_string: "b" } }] } };
    writeFileSync(file, ["{not json", "", "[1, 2]", JSON.stringify(edit), '{"type":"assistant","message":{"content":[{"type":"tool_use"'].join("\n"));
    const results = await run(root, [artifact], { transcriptPath: file }, { evidence: ["transcript"] });
    expect(verdicts(results)).toEqual([["pass", "produced"]]);
    expect(results.find((result) => result.messageId === "transcriptBadLines")?.message).toBe(`Transcript lines skipped: 2 of ${file} are not JSON`);
  });

  it("reads no more than maxTranscriptBytes, and says so", async () => {
    const file = fixture("transcript-write.jsonl");
    const results = await run(root, [artifact], { transcriptPath: file }, { evidence: ["transcript"], maxTranscriptBytes: 1000 });
    expect(results.map((result) => result.messageId)).toContain("transcriptTruncated");
    expect(verdicts(results)).toEqual([["fail", "noEvidence"]]);
  });

  it("reports a transcript that is a directory, without waiting or crashing", async () => {
    const results = await run(root, [artifact], { transcriptPath: transcripts }, { evidence: ["transcript"] });
    expect(results.find((result) => result.level === "fail")?.message).toBe(`Transcript evidence not available: ${transcripts} is not a regular file`);
  });
});
