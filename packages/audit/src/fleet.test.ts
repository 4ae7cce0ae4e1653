import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { isReturnlintError } from "@returnlint/core";
import { mergeAudits, renderAudit, renderMerged, runAudit, type AuditOptions } from "./index.js";

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});
const temporary = (name: string): string => {
  const folder = mkdtempSync(path.join(tmpdir(), `returnlint-${name}-`));
  folders.push(folder);
  return folder;
};

function git(cwd: string, args: readonly string[], env: Record<string, string> = {}): string {
  const clean = Object.fromEntries(Object.entries({ ...process.env, ...env }).filter(([name]) => !["GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE"].includes(name)));
  return execFileSync("git", ["-c", "user.name=Returnlint Test", "-c", "user.email=test@returnlint.invalid", "-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main", ...args], { cwd, env: clean, encoding: "utf8" }).trim();
}

/** Task `n`'s metadata file by `agent`; its report is committed with it unless `phantom`. */
function commitTask(dir: string, n: number, agent: string, phantom: boolean): void {
  const folder = `specs/${String(n)}_task`;
  const files: Record<string, string> = {
    [`${folder}/.return-meta.json`]: `${JSON.stringify({
      status: "researched",
      artifacts: [{ type: "report", path: `${folder}/reports/r.md`, summary: "What the agent made" }],
      metadata: { session_id: `sess_${String(n)}`, agent_type: agent, delegation_depth: 1, delegation_path: ["orchestrator", "research", agent] },
    })}\n`,
  };
  if (!phantom) files[`${folder}/reports/r.md`] = "# Report\n";
  for (const [relative, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, relative)), { recursive: true });
    writeFileSync(path.join(dir, relative), content);
  }
  const date = new Date(Date.UTC(2025, 0, 1) + n * 3_600_000).toISOString();
  git(dir, ["add", "-A"]);
  git(dir, ["commit", "-q", "-m", `task ${String(n)}`], { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date });
}

/** A repository of `count` tasks, every third one phantom work. */
function repository(count: number, agent = "research-agent"): string {
  const dir = temporary("fleet-repo");
  git(dir, ["init", "-q"]);
  for (let n = 1; n <= count; n += 1) commitTask(dir, n, agent, n % 3 === 0);
  return dir;
}

const audit = (repo: string, options: Partial<AuditOptions> = {}) => runAudit({ repo: ".", cwd: repo, env: {}, ...options });

/** The lines of a cache file: each a walk continued `from` a tip, the entries it added (each led by its version's place in the walk) and the tip it ends at. */
const cacheLines = (file: string) =>
  readFileSync(file, "utf8")
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as { walk: { from: string | null; versions: unknown[] }; entries: unknown[][]; tip: string });

describe("the audit cache", { timeout: 120_000 }, () => {
  it("lints only the versions a repository gained since the last audit, and reports what an audit without the cache reports", async () => {
    const repo = repository(20);
    const cache = { dir: temporary("fleet-cache"), version: "1.2.3" };
    const cold = await audit(repo, { cache });
    expect(cold.linted).toBe(20);
    const warm = await audit(repo, { cache });
    expect(warm.linted).toBe(0);
    expect(warm.document).toEqual(cold.document);

    for (let n = 21; n <= 30; n += 1) commitTask(repo, n, "research-agent", n % 3 === 0);
    const grown = await audit(repo, { cache });
    expect(grown.linted).toBe(10);
    const uncached = await audit(repo);
    expect(uncached.linted).toBe(30);
    expect(grown.document).toEqual(uncached.document);
    expect(grown.document.summary).toMatchObject({ returns: 30, phantom: 10 });

    // The cache is in the folder it was given, never in the repository audited.
    expect(git(repo, ["status", "--porcelain", "--ignored"])).toBe("");
    expect(readdirSync(cache.dir)).toHaveLength(1);
  });

  it("walks only the commits after the last audited tip, and the whole history again when that tip is gone from it", async () => {
    const repo = repository(6);
    const cache = { dir: temporary("fleet-cache"), version: "1" };
    await audit(repo, { cache });
    // A rewritten history: the last two commits replaced by others.
    git(repo, ["reset", "-q", "--hard", "HEAD~2"]);
    for (let n = 7; n <= 9; n += 1) commitTask(repo, n, "other-agent", false);
    const rewritten = await audit(repo, { cache });
    expect(rewritten.linted).toBe(3);
    expect(rewritten.document).toEqual((await audit(repo)).document);
    expect(rewritten.document.returns.map((audited) => audited.path)).toEqual([1, 2, 3, 4, 7, 8, 9].map((n) => `specs/${String(n)}_task/.return-meta.json`));
    // Another branch whose history does not hold the cached tip: walked whole, judged alike.
    const other = await audit(repo, { cache, rev: "HEAD~1" });
    expect(other.document).toEqual((await audit(repo, { rev: "HEAD~1" })).document);
  });

  it("lints everything again under another config, another preset or another version of the rules", async () => {
    const repo = repository(4);
    const dir = temporary("fleet-cache");
    expect((await audit(repo, { cache: { dir, version: "1.0.0" } })).linted).toBe(4);
    expect((await audit(repo, { cache: { dir, version: "1.0.1" } })).linted).toBe(4);
    expect((await audit(repo, { cache: { dir, version: "1.0.1" }, preset: "metadata-file" })).linted).toBe(4);
    const config = path.join(temporary("fleet-config"), "returnlint.config.json");
    writeFileSync(config, `${JSON.stringify({ preset: "metadata-file", rules: { "summary-length": "off" } })}\n`);
    expect((await audit(repo, { cache: { dir, version: "1.0.1" }, config })).linted).toBe(4);
    expect((await audit(repo, { cache: { dir, version: "1.0.1" }, config })).linted).toBe(0);
  });

  it("a cache file that is not one is no error: every version is linted, and the file written anew", async () => {
    const repo = repository(3);
    const dir = temporary("fleet-cache");
    await audit(repo, { cache: { dir, version: "1" } });
    const [file = ""] = readdirSync(dir);
    writeFileSync(path.join(dir, file), "{ not json");
    const again = await audit(repo, { cache: { dir, version: "1" } });
    expect(again.linted).toBe(3);
    expect(again.cacheProblem).toBeNull();
    const written = cacheLines(path.join(dir, file));
    expect(written.map((line) => [line.walk.from, line.walk.versions.length, line.entries.length, line.tip])).toEqual([[null, 3, 3, git(repo, ["rev-parse", "HEAD"])]]);
  });

  it("adds what an audit found to the file as one line that continues the walk before it, and reads every line", async () => {
    const repo = repository(4);
    const dir = temporary("fleet-cache");
    await audit(repo, { cache: { dir, version: "1" } });
    const first = git(repo, ["rev-parse", "HEAD"]);
    for (let n = 5; n <= 6; n += 1) commitTask(repo, n, "research-agent", n % 3 === 0);
    expect((await audit(repo, { cache: { dir, version: "1" } })).linted).toBe(2);
    const [file = ""] = readdirSync(dir);
    const lines = cacheLines(path.join(dir, file));
    // The second line holds only the two new versions, their entries by their place in the walk.
    expect(lines.map((line) => [line.walk.from, line.walk.versions.length, line.entries.map((entry) => entry[0] as number).sort((a, b) => a - b), line.tip])).toEqual([
      [null, 4, [0, 1, 2, 3], first],
      [first, 2, [4, 5], git(repo, ["rev-parse", "HEAD"])],
    ]);
    const warm = await audit(repo, { cache: { dir, version: "1" } });
    expect(warm.linted).toBe(0);
    expect(warm.document).toEqual((await audit(repo)).document);
  });

  it("reads a file cut short up to its last whole line, and writes it anew as one line", async () => {
    const repo = repository(3);
    const dir = temporary("fleet-cache");
    await audit(repo, { cache: { dir, version: "1" } });
    for (let n = 4; n <= 5; n += 1) commitTask(repo, n, "research-agent", false);
    await audit(repo, { cache: { dir, version: "1" } });
    const [file = ""] = readdirSync(dir);
    const text = readFileSync(path.join(dir, file), "utf8");
    // An audit stopped while it added its line: half of it is there.
    writeFileSync(path.join(dir, file), text.slice(0, text.length - Math.floor(text.split("\n")[1]?.length ?? 0) / 2));
    const again = await audit(repo, { cache: { dir, version: "1" } });
    expect(again.linted).toBe(2);
    expect(again.document).toEqual((await audit(repo)).document);
    expect(cacheLines(path.join(dir, file)).map((line) => [line.walk.from, line.walk.versions.length, line.entries.length])).toEqual([[null, 5, 5]]);
  });
});

describe("audit --format ndjson", { timeout: 60_000 }, () => {
  it("writes one line per version, every key on every line in one order", async () => {
    const repo = repository(3);
    const run = await audit(repo);
    const lines = (await renderAudit(run, "ndjson", "")).split("\n");
    expect(lines.pop()).toBe("");
    expect(lines).toHaveLength(3);
    const parsed = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    for (const line of parsed) {
      expect(Object.keys(line)).toEqual(["repository", "commit", "date", "path", "status", "agent", "command", "ok", "phantom", "early", "internalError", "unreadable", "failures"]);
    }
    expect(parsed.map((line) => [line.path, line.phantom, line.ok, line.repository])).toEqual([
      ["specs/1_task/.return-meta.json", false, true, run.document.repo.path],
      ["specs/2_task/.return-meta.json", false, true, run.document.repo.path],
      ["specs/3_task/.return-meta.json", true, false, run.document.repo.path],
    ]);
  });
});

describe("audit merge", { timeout: 60_000 }, () => {
  it("tallies each repository and each repository's agents, counting a version listed twice once", async () => {
    const [a, b] = [repository(6, "alpha-agent"), repository(3, "beta-agent")];
    const ndjson = async (repo: string) => renderAudit(await audit(repo), "ndjson", "");
    const [first, second] = [await ndjson(a), await ndjson(b)];
    const merged = mergeAudits([
      { name: "a.ndjson", text: first },
      { name: "b.ndjson", text: second },
      { name: "a-again.ndjson", text: first },
    ]);
    expect(merged.files).toBe(3);
    expect(merged.repositories.map(({ repository, returns, phantom, phantomRate }) => ({ repository, returns, phantom, phantomRate }))).toEqual([
      { repository: a, returns: 6, phantom: 2, phantomRate: 2 / 6 },
      { repository: b, returns: 3, phantom: 1, phantomRate: 1 / 3 },
    ]);
    expect(merged.byRepositoryAndAgent.map(({ repository, agent, phantom }) => [repository, agent, phantom])).toEqual([
      [a, "alpha-agent", 2],
      [b, "beta-agent", 1],
    ]);
    expect(merged.summary).toMatchObject({ returns: 9, phantom: 3 });
    const stylish = await renderMerged(merged, "stylish", new Date(0));
    expect(stylish).toContain("returnlint audit merge of 3 files: 2 repositories, 9 returns\n");
    expect(stylish.trimEnd().split("\n").pop()).toMatch(/^\[WARN\] 3 of 9 returns of 2 repositories claimed work that was not in their commit \(33\.3% phantom work; most in /);
    const html = await renderMerged(merged, "html", new Date(0));
    expect(html).toContain("<h2>Phantom rate per agent per repository</h2>");
    expect(html).toContain("<td>alpha-agent</td>");
    expect(JSON.parse(await renderMerged(merged, "json", new Date(0)))).toEqual(JSON.parse(JSON.stringify(merged)));
  });

  it("names every line that is not an audit's, with its file and line, at once", () => {
    let thrown: unknown;
    try {
      mergeAudits([{ name: "x.ndjson", text: '{"repository":"r"}\nnot json\n\n[1]\n' }]);
    } catch (error) {
      thrown = error;
    }
    expect(isReturnlintError(thrown) && thrown.code).toBe("USAGE");
    expect(isReturnlintError(thrown) && thrown.problems).toEqual([
      'x.ndjson:1: no "commit", "date", "path", "status", "agent", "command", "ok", "phantom", "early", "internalError", "unreadable", "failures" (is it from "returnlint audit --format ndjson"?)',
      "x.ndjson:2: not JSON",
      "x.ndjson:4: not a JSON object",
    ]);
  });
});
