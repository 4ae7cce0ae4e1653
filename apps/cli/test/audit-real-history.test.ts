import { spawnSync } from "node:child_process";
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { cloneRealRepository, realRepository } from "@returnlint/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { git } from "./git-history.js";
import { BIN } from "./helpers.js";

// A real repository of the family returnlint was built for, as a new user meets it: cloned, `returnlint
// init`, then `scan` and `audit` with the same config. The bundle is third-party data kept beside the
// repository (../shared/repos/), cloned here at test time; nothing of it is copied into the project.
const BUNDLE = realRepository("ProofChecker");
const haveBundle = BUNDLE !== undefined;
if (!haveBundle) console.warn("audit-real-history.test.ts: skipped, ../shared/repos/ProofChecker.bundle is absent (a clone of a real repository's history is what it audits)");

interface Verdict {
  readonly ok: boolean;
  readonly phantom: boolean;
}
interface AuditedVersion extends Verdict {
  readonly commit: string;
  readonly path: string;
  readonly status: string | null;
  readonly early: boolean;
}
interface Scanned extends Verdict {
  readonly source: string;
  readonly artifacts?: readonly { readonly path: string; readonly fate: string }[];
}

function run(args: readonly string[], cwd: string): { status: number | null; stdout: string; stderr: string } {
  // A history of thousands of commits: more time than the helper's default, on a busy machine.
  const result = spawnSync(process.execPath, [BIN, ...args], { cwd, input: "", encoding: "utf8", timeout: 180_000, env: { ...process.env, NO_COLOR: "1" } });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The blob each `commit:path` names, in one git call. */
function blobsOf(dir: string, specs: readonly string[]): string[] {
  const out = spawnSync("git", ["cat-file", "--batch-check=%(objectname)"], { cwd: dir, input: `${specs.join("\n")}\n`, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  return out.stdout.split("\n").slice(0, specs.length);
}

describe.skipIf(!haveBundle)("returnlint audit on a real repository's history (a clone of ../shared/repos/ProofChecker.bundle)", { timeout: 300_000 }, () => {
  let dir = "";
  let init: ReturnType<typeof run> | undefined;

  beforeAll(() => {
    // A folder of its own, removed with a time limit of its own: a clone of thousands of commits takes a while to delete on a busy machine.
    dir = path.join(realpathSync(mkdtempSync(path.join(tmpdir(), "returnlint-real-history-"))), "clone");
    cloneRealRepository(BUNDLE ?? "", dir);
    // The newest commit whose tree holds the agents (.claude/agents/) and the metadata files they wrote, so that
    // scan has returns to read at the tip; else the newest with metadata files.
    const candidates = git(dir, ["log", "--format=%H", "--", ":(glob)specs/**/.return-meta.json"]).split("\n");
    const holds = (commit: string) => {
      const files = git(dir, ["ls-tree", "-r", "--name-only", commit, "--", "specs", ".claude/agents"]).split("\n");
      return { returns: files.some((file) => file.endsWith("/.return-meta.json")), agents: files.some((file) => file.startsWith(".claude/agents/")) };
    };
    const withReturns = candidates.find((commit) => Object.values(holds(commit)).every(Boolean)) ?? candidates.find((commit) => holds(commit).returns);
    if (withReturns === undefined) throw new Error("the bundle's history holds no commit with a .return-meta.json");
    git(dir, ["checkout", "-q", "--detach", withReturns]);
    init = run(["init"], dir);
  }, 240_000);

  afterAll(() => {
    if (dir !== "") rmSync(path.dirname(dir), { recursive: true, force: true });
  }, 120_000);

  it("after init, the audit says the uncommitted config was not applied and how to apply it; -c applies it", () => {
    expect(init?.status, init?.stderr).toBe(0);
    const plain = run(["audit"], dir);
    expect(plain.status, plain.stderr).toBe(0);
    expect(plain.stdout).toContain(
      "Config: none committed at HEAD (built-in presets, format detected per return); the working tree's returnlint.config.yaml is not committed, so it was not applied: audit with it with -c returnlint.config.yaml\n",
    );
    const applied = run(["audit", "-c", "returnlint.config.yaml"], dir);
    expect(applied.status, applied.stderr).toBe(0);
    expect(applied.stdout).toContain("\nConfig: returnlint.config.yaml\n");
    expect(applied.stdout).toMatch(/\nEarly metadata: [\d,]+ in_progress versions replaced later by other versions of their files, not judged \(written while the agent worked\)\n/);
  });

  it("no mid-run in_progress commit is a failure: only the last version of a file is judged, and scan agrees with audit on every file at the tip", () => {
    const audited = run(["audit", "-c", "returnlint.config.yaml", "--format", "json"], dir);
    expect(audited.status, audited.stderr).toBe(0);
    const document = JSON.parse(audited.stdout) as { summary: { early: number }; returns: AuditedVersion[] };
    const versions = document.returns;
    const lastOf = new Map(versions.map((version, index) => [version.path, index]));
    const early = versions.filter((version, index) => version.status === "in_progress" && lastOf.get(version.path) !== index);
    expect(early.length).toBeGreaterThan(0);
    expect(document.summary.early).toBe(early.length);
    expect(early.filter((version) => !version.early || !version.ok)).toEqual([]);
    expect(versions.filter((version) => version.early && version.status !== "in_progress")).toEqual([]);

    const scanned = run(["scan", "--format", "json"], dir);
    expect([0, 1], scanned.stderr).toContain(scanned.status);
    const files = (JSON.parse(scanned.stdout) as Scanned[]).filter((entry) => entry.source.endsWith("/.return-meta.json"));
    expect(files.length).toBeGreaterThan(0);
    // Each file at the tip is the version audit judged in the commit that first wrote its content.
    const byBlob = new Map(blobsOf(dir, versions.map((version) => `${version.commit}:${version.path}`)).map((blob, index) => [blob, versions[index]]));
    const disagreements = blobsOf(dir, files.map((file) => `HEAD:${file.source}`)).flatMap((blob, index) => {
      const file = files[index];
      const version = byBlob.get(blob);
      if (file === undefined) return [];
      if (version === undefined) return [`${file.source}: audit has no version of it`];
      if (version.phantom === file.phantom && version.ok === file.ok) return [];
      // Work deleted after the return (by a later task) is phantom today, and was not when it was claimed.
      const missingToday = (file.artifacts ?? []).filter((artifact) => artifact.fate === "missing").map((artifact) => `${version.commit}:${artifact.path}`);
      const thereThen = missingToday.length > 0 && blobsOf(dir, missingToday).every((object) => !object.endsWith("missing"));
      return file.phantom && !version.phantom && thereThen ? [] : [`${file.source}: scan ${JSON.stringify({ ok: file.ok, phantom: file.phantom })}, audit ${JSON.stringify({ ok: version.ok, phantom: version.phantom })} at ${version.commit}`];
    });
    expect(disagreements).toEqual([]);
  });
});
