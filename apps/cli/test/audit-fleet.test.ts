import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { commit, newRepository, returnMeta, scratchDir } from "./git-history.js";
import { returnlint } from "./helpers.js";

/** A repository of `count` research returns, one commit each, every third one claiming a report it never committed. */
function history(dir: string, from: number, to: number): void {
  for (let n = from; n <= to; n += 1) {
    const folder = `specs/${String(n)}_task`;
    const report = `${folder}/reports/research-001.md`;
    commit(dir, new Date(Date.UTC(2025, 2, 1) + n * 3_600_000).toISOString(), {
      files: { [`${folder}/.return-meta.json`]: returnMeta("researched", [report], "research-agent", "research"), ...(n % 3 === 0 ? {} : { [report]: "# Report\n" }) },
    });
  }
}

/** The entries in the cache folder's one file: a JSON line per audit that added to it. */
const cacheEntries = (dir: string): number => {
  const [file = ""] = readdirSync(dir);
  const lines = readFileSync(path.join(dir, file), "utf8").trimEnd().split("\n");
  return lines.reduce((count, line) => count + (JSON.parse(line) as { entries: unknown[] }).entries.length, 0);
};

describe("returnlint audit for many repositories", { timeout: 120_000 }, () => {
  it("keeps each version's result in --cache-dir, and a second audit after 10 new commits adds their 10 and reports what --no-cache reports", () => {
    const repo = newRepository();
    history(repo, 1, 12);
    const cache = scratchDir();
    const first = returnlint(["audit", "--cache-dir", cache, "--format", "ndjson"], { cwd: repo });
    expect(first.status).toBe(0);
    expect(first.stdout.trimEnd().split("\n")).toHaveLength(12);
    expect(cacheEntries(cache)).toBe(12);

    history(repo, 13, 22);
    const second = returnlint(["audit", "--cache-dir", cache, "--format", "json"], { cwd: repo });
    const uncached = returnlint(["audit", "--no-cache", "--format", "json"], { cwd: repo });
    expect(second.status).toBe(0);
    expect(second.stdout).toBe(uncached.stdout);
    expect(cacheEntries(cache)).toBe(22);
    expect((JSON.parse(second.stdout) as { summary: { returns: number; phantom: number } }).summary).toMatchObject({ returns: 22, phantom: 7 });
  });

  it("refuses --cache-dir with --no-cache, and an empty --cache-dir, with exit 2", () => {
    const repo = newRepository();
    expect(returnlint(["audit", "--cache-dir", "x", "--no-cache"], { cwd: repo })).toMatchObject({ status: 2, stderr: "returnlint: Pass either --cache-dir or --no-cache, not both.\n" });
    expect(returnlint(["audit", "--cache-dir="], { cwd: repo }).status).toBe(2);
  });

  it("audit merge: one table of repositories from their ndjson files; exit 2 naming each line that is not an audit's", () => {
    const [a, b] = [newRepository(), newRepository()];
    history(a, 1, 3);
    history(b, 1, 6);
    const out = scratchDir();
    for (const [name, repo] of [["a", a], ["b", b]] as const) expect(returnlint(["audit", "--no-cache", "--format", "ndjson", "-o", path.join(out, `${name}.ndjson`)], { cwd: repo }).status).toBe(0);
    const merged = returnlint(["audit", "merge", "a.ndjson", "b.ndjson"], { cwd: out });
    expect(merged.status).toBe(0);
    expect(merged.stdout).toContain("returnlint audit merge of 2 files: 2 repositories, 9 returns\n");
    expect(merged.stdout.trimEnd().split("\n").pop()).toMatch(/^\[WARN\] 3 of 9 returns of 2 repositories claimed work that was not in their commit \(33\.3% phantom work; most in /);
    const json = JSON.parse(returnlint(["audit", "merge", "a.ndjson", "b.ndjson", "--format", "json"], { cwd: out }).stdout) as { repositories: { returns: number; phantom: number }[] };
    expect(json.repositories.map(({ returns, phantom }) => [returns, phantom])).toEqual([
      [6, 2],
      [3, 1],
    ]);

    writeFileSync(path.join(out, "bad.ndjson"), '{"repository": "r"}\n');
    const bad = returnlint(["audit", "merge", "a.ndjson", "bad.ndjson"], { cwd: out });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("bad.ndjson:1: no \"commit\"");
    expect(returnlint(["audit", "merge"], { cwd: out }).status).toBe(2);
    expect(returnlint(["audit", "merge", "missing.ndjson"], { cwd: out })).toMatchObject({ status: 2 });
  });
});
