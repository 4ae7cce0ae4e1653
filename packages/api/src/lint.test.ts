import { rmSync } from "node:fs";
import path from "node:path";
import { GitObjectCache, openGitObjects } from "@returnlint/core";
import { beforeAll, describe, expect, it } from "vitest";
import { git, tempProject } from "@returnlint/testing";
import { commandOfReturn } from "./facts.js";
import { lint, lintSource } from "./lint.js";
import { gitSource, openReturnFile, openTaskSource, textSource } from "./source.js";
import { loadReturnlintConfig } from "./validate.js";

// The library's one entry, in-process: sources in, results with their facts out.


const meta = { session_id: "sess_1768000000_abc123", agent_type: "research-agent", delegation_depth: 1, delegation_path: ["orchestrator", "research", "research-agent"] };
const researched = (...paths: string[]) => ({ status: "researched", summary: "Done.", artifacts: paths.map((file) => ({ type: "report", path: file, summary: "Findings" })), metadata: meta });
const TASK = "specs/1_x";
const REPORT = `${TASK}/reports/research-001.md`;

describe("lint: every kind of source through one call", () => {
  it("text from a channel: the return inside prose is found, its line given, and its format told by content", async () => {
    const root = tempProject({ [REPORT]: "# r\n" });
    const message = `I wrote the report.\n\n\`\`\`json\n${JSON.stringify({ ...researched(REPORT) })}\n\`\`\`\n`;
    const [result] = await lint([textSource(message, "message")], { root, cwd: root });
    expect(result?.report.origin).toBe("fenced");
    expect(result?.report.firstLine).toBe(4);
    expect(result?.report.format).toBe("metadata-file");
    expect(result).toMatchObject({ ok: true, exitCode: 0, facts: { command: "research", status: "researched", success: true, artifacts: [{ path: REPORT, fate: "exists", pointer: "/artifacts/0/path" }] } });
    expect(result?.facts.phantom).toBeUndefined();
  });

  it("a return file: its whole content, its format by name, its task from its folder", async () => {
    const root = tempProject({ [`${TASK}/.return-meta.json`]: researched(REPORT) });
    const result = await lintSource(openReturnFile(`${TASK}/.return-meta.json`, { root, cwd: root }), { root, cwd: root });
    expect(result.source).toMatchObject({ kind: "file", name: `${TASK}/.return-meta.json`, path: `${TASK}/.return-meta.json`, task: "1" });
    expect(result.report.formatReason).toBe(`read from ${TASK}/.return-meta.json`);
    expect(result).toMatchObject({ ok: false, exitCode: 1, facts: { phantom: `${REPORT} is not there`, artifacts: [{ fate: "missing" }] } });
    expect(result.report.results.find((finding) => finding.level === "fail")).toMatchObject({ ruleId: "artifacts", messageId: "notFound", pointer: "/artifacts/0/path" });
  });

  it("a task folder without its metadata file: the missing-file finding, like any other", async () => {
    const root = tempProject({ [`${TASK}/reports/research-001.md`]: "# r\n" });
    const result = await lintSource(openTaskSource("1", { root, cwd: root }), { root, cwd: root });
    expect(result.source).toMatchObject({ kind: "missing", name: `${TASK}/.return-meta.json`, task: "1" });
    expect(result.report.results[0]).toMatchObject({ ruleId: "json-structure", messageId: "missingFile", level: "fail" });
    expect(result.exitCode).toBe(1);
  });

  it("text that holds no return falls back to where it says the return is, opened only then", async () => {
    const root = tempProject({ [REPORT]: "# r\n", [`${TASK}/.return-meta.json`]: researched(REPORT) });
    let opened = 0;
    const otherwise = () => {
      opened += 1;
      return openReturnFile(`${TASK}/.return-meta.json`, { root, cwd: root });
    };
    const prose = await lintSource({ ...textSource("Done; see the metadata file."), otherwise }, { root, cwd: root });
    expect(prose).toMatchObject({ ok: true, source: { kind: "file" } });
    const json = await lintSource({ ...textSource(JSON.stringify(researched(REPORT))), otherwise }, { root, cwd: root });
    expect(json.source.kind).toBe("text");
    expect(opened).toBe(1);
  });

  it("--max-warnings is part of the verdict", async () => {
    const root = tempProject({ [REPORT]: "# r\n" });
    const text = JSON.stringify({ ...researched(REPORT), summary: "x".repeat(2000) });
    const relaxed = await lintSource(textSource(text), { root, cwd: root, preset: "v5" });
    const strict = await lintSource(textSource(text), { root, cwd: root, preset: "v5", maxWarnings: 0 });
    expect(relaxed.report.warningCount).toBeGreaterThan(0);
    expect(strict.report.ok).toBe(relaxed.report.ok);
    expect(strict.exitCode).toBe(relaxed.report.ok ? 1 : relaxed.exitCode);
  });
});

describe("facts: each artifact's fate, and phantom work", () => {
  const cases: { name: string; files: Record<string, unknown>; claim: (root: string) => string; fate: Record<string, unknown>; phantom: boolean }[] = [
    { name: "a file with content", files: { [REPORT]: "# r\n" }, claim: () => REPORT, fate: { fate: "exists", size: 4 }, phantom: false },
    { name: "an empty file", files: { [REPORT]: "" }, claim: () => REPORT, fate: { fate: "empty" }, phantom: true },
    { name: "nothing there", files: {}, claim: () => REPORT, fate: { fate: "missing" }, phantom: true },
    { name: "a near miss", files: { [REPORT]: "# r\n" }, claim: () => `${TASK}/reports/research-002.md`, fate: { fate: "near-miss", didYouMean: REPORT }, phantom: true },
    { name: "archived with its task", files: { [`specs/archive/1_x/reports/research-001.md`]: "# r\n" }, claim: () => REPORT, fate: { fate: "archived", movedTo: "specs/archive/1_x/reports/research-001.md" }, phantom: false },
    { name: "absolute, inside the root", files: { [REPORT]: "# r\n" }, claim: (root) => path.join(root, REPORT), fate: { fate: "absolute", insideRoot: REPORT }, phantom: false },
    { name: "absolute, from another machine's clone", files: { [REPORT]: "# r\n" }, claim: () => `/home/someone/project/${REPORT}`, fate: { fate: "absolute", insideRoot: REPORT }, phantom: false },
    { name: "absolute, nowhere here", files: {}, claim: () => "/tmp/nowhere/at/all.md", fate: { fate: "absolute" }, phantom: false },
    { name: "outside the root", files: {}, claim: () => "../elsewhere.md", fate: { fate: "outside-root" }, phantom: false },
    { name: "a folder", files: { [REPORT]: "# r\n" }, claim: () => `${TASK}/reports`, fate: { fate: "folder" }, phantom: false },
  ];

  for (const { name, files, claim, fate, phantom } of cases) {
    it(`${name}: ${String(fate.fate)}${phantom ? ", phantom work" : ""}`, async () => {
      const root = tempProject(files);
      const claimed = claim(root);
      const { facts } = await lintSource(textSource(JSON.stringify(researched(claimed))), { root, cwd: root });
      expect(facts.artifacts).toEqual([{ pointer: "/artifacts/0/path", path: claimed, ...fate }]);
      expect(facts.phantom !== undefined).toBe(phantom);
    });
  }

  it("a neighbour the return claims too is no near miss: the file claimed is missing, in the facts and the rule alike", async () => {
    const other = `${TASK}/reports/research-002.md`;
    const root = tempProject({ [other]: "# r\n" });
    const { facts, report } = await lintSource(textSource(JSON.stringify(researched(REPORT, other))), { root, cwd: root });
    expect(facts.artifacts.map((artifact) => artifact.fate)).toEqual(["missing", "exists"]);
    expect(facts.phantom).toBe(`${REPORT} is not there`);
    expect(report.results.find((finding) => finding.level === "fail")).toMatchObject({ ruleId: "artifacts", messageId: "notFound", pointer: "/artifacts/0/path" });
  });

  it("a success that names no artifact is phantom work; an unfinished status never is", async () => {
    const root = tempProject({});
    const none = await lintSource(textSource(JSON.stringify(researched())), { root, cwd: root });
    expect(none.facts.phantom).toBe("it names no artifact");
    const partial = await lintSource(textSource(JSON.stringify({ ...researched(REPORT), status: "partial" })), { root, cwd: root });
    expect(partial.facts).toMatchObject({ success: false, artifacts: [{ fate: "missing" }] });
    expect(partial.facts.phantom).toBeUndefined();
  });

  it("a multi-task return is phantom work when it completed no task; a handoff without artifacts is not", async () => {
    const root = tempProject({
      "specs/2_b/.return-meta-multi.json": { status: "completed", session_id: "s", metadata: { multi_task_mode: true, tasks_completed: [] } },
      "specs/3_c/.orchestrator-handoff.json": { status: "implemented", phases_completed: 1, phases_total: 1, blockers: [], continuation_path: null, sorry_inventory: [] },
    });
    const [batch, handoff] = await lint(
      [openReturnFile("specs/2_b/.return-meta-multi.json", { root, cwd: root }), openReturnFile("specs/3_c/.orchestrator-handoff.json", { root })],
      { root },
    );
    expect(batch?.facts.phantom).toBe("it lists no completed task");
    expect(handoff?.facts).toMatchObject({ success: true, artifacts: [] });
    expect(handoff?.facts.phantom).toBeUndefined();
  });
});

describe("a git source: judged against its commit's tree", () => {
  let repo = "";
  let commitId = "";
  let treeId = "";
  // file-claims follows memory_candidates' source_artifact into a folder no artifact shares.
  const committed = { ...researched(REPORT, "specs/9_far/deep/er/still/notes.md"), memory_candidates: [{ content: "x", category: "PATTERN", source_artifact: "specs/8_other/reports/deep/a.md" }] };
  beforeAll(() => {
    repo = tempProject({
      [`${TASK}/.return-meta.json`]: committed,
      [REPORT]: "# r\n",
      "specs/9_far/deep/er/still/notes.md": "notes\n",
      "specs/8_other/reports/deep/a.md": "a\n",
    });
    git(repo, ["init", "-q"]);
    git(repo, ["add", "-A"]);
    git(repo, ["commit", "-q", "-m", "one"]);
    commitId = git(repo, ["rev-parse", "HEAD"]);
    treeId = git(repo, ["rev-parse", "HEAD^{tree}"]);
    rmSync(path.join(repo, "specs"), { recursive: true });
  });

  it("sees every path of the commit, however deep, whatever other returns it shares the commit with", async () => {
    const objects = openGitObjects(path.join(repo, ".git"));
    try {
      const source = gitSource({ text: JSON.stringify(committed), path: `${TASK}/.return-meta.json`, commit: commitId, tree: treeId, time: Date.parse("2026-01-10T10:00:00Z"), cache: new GitObjectCache(objects) });
      const result = await lintSource(source, { root: repo, cwd: repo });
      expect(result.facts.artifacts.map((artifact) => artifact.fate)).toEqual(["exists", "exists"]);
      expect(result.report.results.filter((finding) => finding.level !== "pass" && finding.level !== "info")).toEqual([]);
      expect(result).toMatchObject({ ok: true, source: { task: "1" }, facts: { command: "research" } });
    } finally {
      objects.close();
    }
  });
});

describe("commandOfReturn: the command a return names", () => {
  const cases: [string, unknown, string | null][] = [
    ["a contextual success status", { status: "researched" }, "research"],
    ["planned, delegated by /revise", { status: "planned", metadata: { delegation_path: ["orchestrator", "revise", "planner"] } }, "revise"],
    ["planned, delegated by /implement (the status wins)", { status: "planned", metadata: { delegation_path: ["orchestrator", "implement", "x"] } }, "plan"],
    ["partial, delegated by /implement", { status: "partial", metadata: { delegation_path: ["orchestrator", "/implement", "x"] } }, "implement"],
    ["early metadata: never a gate", { status: "in_progress", metadata: { delegation_path: ["orchestrator", "implement", "x"] } }, null],
    ["a legacy status and no delegation", { status: "completed" }, null],
    ["not an object", [1, 2], null],
  ];
  for (const [name, value, command] of cases) {
    it(name, () => {
      expect(commandOfReturn(value)).toBe(command);
    });
  }
});

describe("configuration is loaded once for many sources", () => {
  it("lint takes a loaded config and does not look for another", async () => {
    const root = tempProject({ "returnlint.config.json": { preset: "v5" } });
    const config = await loadReturnlintConfig({ cwd: root });
    const results = await lint([textSource("{}"), textSource("[]")], { root, cwd: root, config });
    expect(results.map((result) => result.report.preset)).toEqual(["v5", "v5"]);
  });
});
