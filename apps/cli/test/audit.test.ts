import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { commit, git, knownHistory, newRepository, returnMeta, scratchDir, type Expected } from "./git-history.js";
import { BIN, STACK_FRAME, returnlint } from "./helpers.js";

interface Tally {
  returns: number;
  failed: number;
  phantom: number;
  failureRate: number;
  phantomRate: number;
}

interface AuditJson {
  repo: { path: string; bare: boolean; shallow: boolean; rev: string; head: string | null; web: string | null };
  range: { since: string | null; until: string | null; first: string | null; last: string | null };
  config: string | null;
  configKind: string;
  configRefused: string | null;
  unappliedConfig: string | null;
  summary: Tally & {
    passed: number;
    early: number;
    unreadable: number;
    internalErrors: number;
    commits: number;
    byAgent: (Tally & { agent: string | null })[];
    byCommand: (Tally & { command: string | null })[];
    byStatus: (Tally & { status: string | null })[];
    byMonth: (Tally & { month: string })[];
    byAgentAndMonth: (Tally & { agent: string | null; month: string })[];
    failuresByRule: { rule: string; failures: number; returns: number }[];
    worst: { commit: string; date: string; path: string; agent: string | null; status: string | null; phantom: boolean; failures: number; message: string | null }[];
  };
  returns: {
    commit: string;
    date: string;
    path: string;
    status: string | null;
    agent: string | null;
    command: string | null;
    ok: boolean;
    phantom: boolean;
    early: boolean;
    failures: { ruleId: string; messageId: string; message: string; pointer?: string }[];
  }[];
  unreadable: { commit: string; date: string; path: string; unreadable: string }[];
}

function auditJson(args: readonly string[], options: { cwd?: string; env?: Record<string, string> } = {}): { status: number | null; json: AuditJson; stderr: string } {
  const run = returnlint(["audit", ...args, "--format", "json"], options);
  return { status: run.status, json: JSON.parse(run.stdout) as AuditJson, stderr: run.stderr };
}

/** The part of a return the known history's expectations describe. */
const verdictOf = (audited: AuditJson["returns"][number]): Expected => ({
  path: audited.path,
  date: audited.date,
  agent: audited.agent,
  status: audited.status,
  command: audited.command,
  ok: audited.ok,
  phantom: audited.phantom,
  failures: audited.failures.map((failure) => failure.messageId),
});

const tally = (returns: number, failed: number, phantom: number): Tally => ({ returns, failed, phantom, failureRate: failed / returns, phantomRate: phantom / returns });

describe("returnlint audit: a known history, through the built CLI", () => {
  const { dir, expected } = knownHistory();
  const head = git(dir, ["rev-parse", "HEAD"]);
  const { status, json, stderr } = auditJson([dir]);

  it("exits 0 and prints nothing on standard error (no progress line when it is not a terminal)", () => {
    expect(stderr).toBe("");
    expect(status).toBe(0);
  });

  it("gives each distinct version its verdict in the commit that introduced it, oldest first", () => {
    expect(json.returns.map(verdictOf)).toEqual(expected);
  });

  it("names the commit that introduced each version, and explains each failure at its pointer", () => {
    const late = json.returns.find((audited) => audited.path === "specs/2_late/.return-meta.json");
    expect(late?.commit).toBe(git(dir, ["log", "--format=%H", "-1", "--", "specs/2_late/.return-meta.json"]));
    expect(late?.failures).toEqual([{ ruleId: "artifacts", messageId: "notFound", message: "Artifact does not exist: src/late.ts", pointer: "/artifacts/0/path" }]);
    const deleted = json.returns.filter((audited) => audited.path === "specs/5_deleted/.return-meta.json");
    expect(deleted.map((audited) => audited.commit)).toEqual(git(dir, ["log", "--reverse", "--format=%H", "--", "specs/5_deleted/.return-meta.json"]).split("\n"));
  });

  it("describes the repository, the range and the config", () => {
    expect(json.repo).toEqual({ path: dir, bare: false, shallow: false, rev: "HEAD", head, web: null });
    expect(json.range).toEqual({ since: null, until: null, first: "2025-01-10T09:00:00.000Z", last: "2025-04-02T09:00:00.000Z" });
    expect(json.config).toBeNull();
    expect(json.unreadable).toEqual([]);
  });

  it("counts returns, failures and phantom work per agent, command, status and month", () => {
    const { summary } = json;
    expect(summary).toMatchObject({ ...tally(14, 9, 4), passed: 5, unreadable: 0, internalErrors: 0, commits: 9 });
    expect(summary.byAgent).toEqual([
      { agent: "research-agent", ...tally(7, 4, 3) },
      { agent: "impl-agent", ...tally(5, 4, 1) },
      { agent: "planner-agent", ...tally(1, 0, 0) },
      { agent: null, ...tally(1, 1, 0) },
    ]);
    expect(summary.byCommand).toEqual([
      { command: "research", ...tally(7, 4, 3) },
      { command: "implement", ...tally(5, 4, 1) },
      { command: "plan", ...tally(1, 0, 0) },
      { command: null, ...tally(1, 1, 0) },
    ]);
    expect(summary.byStatus).toEqual([
      { status: "researched", ...tally(7, 4, 3) },
      { status: "implemented", ...tally(3, 3, 1) },
      { status: "completed", ...tally(1, 1, 0) },
      { status: "partial", ...tally(1, 0, 0) },
      { status: "planned", ...tally(1, 0, 0) },
      { status: null, ...tally(1, 1, 0) },
    ]);
    expect(summary.byMonth).toEqual([
      { month: "2025-01", ...tally(2, 2, 2) },
      { month: "2025-02", ...tally(2, 0, 0) },
      { month: "2025-03", ...tally(3, 2, 1) },
      { month: "2025-04", ...tally(7, 5, 1) },
    ]);
    expect(summary.byAgentAndMonth.filter((row) => row.agent === "research-agent")).toEqual([
      { agent: "research-agent", month: "2025-01", ...tally(1, 1, 1) },
      { agent: "research-agent", month: "2025-02", ...tally(1, 0, 0) },
      { agent: "research-agent", month: "2025-03", ...tally(2, 1, 1) },
      { agent: "research-agent", month: "2025-04", ...tally(3, 2, 1) },
    ]);
    expect(summary.failuresByRule).toEqual([
      { rule: "artifacts", failures: 7, returns: 7 },
      { rule: "json-structure", failures: 1, returns: 1 },
      { rule: "status-enum", failures: 1, returns: 1 },
    ]);
  });

  it("ranks the worst returns: phantom work first, then the most failures, then the most recent", () => {
    const worst = json.summary.worst;
    // A submodule, a link out of the repository and a folder fail, but are not phantom work (docs/phantom-work.md).
    expect(worst.map((row) => [row.path, row.phantom])).toEqual([
      ["specs/12_empty/.return-meta.json", true],
      ["specs/5_deleted/.return-meta.json", true],
      ["specs/2_late/.return-meta.json", true],
      ["specs/1_phantom/.return-meta.json", true],
      ["specs/10_completed/.return-meta.json", false],
      ["specs/11_bad/.return-meta.json", false],
      ["specs/13_sub/.return-meta.json", false],
      ["specs/7_link_out/.return-meta.json", false],
      ["specs/6_dir/.return-meta.json", false],
    ]);
    expect(worst[6]).toMatchObject({ commit: head, date: "2025-04-02T09:00:00.000Z", message: "Artifact is not a regular file: vendor/lib (submodule)", failures: 1 });
  });

  it("audits a bare clone the same way", () => {
    const bare = path.join(scratchDir(), "project.git");
    git(dir, ["clone", "-q", "--bare", dir, bare]);
    const fromBare = auditJson([bare]);
    expect(fromBare.status).toBe(0);
    expect(fromBare.json.repo).toMatchObject({ path: bare, bare: true, head });
    expect(fromBare.json.returns).toEqual(json.returns);
    expect(fromBare.json.summary).toEqual(json.summary);
  });

  it("audits the current directory by default, from a folder inside the clone too", () => {
    const inside = auditJson([], { cwd: path.join(dir, "specs") });
    expect(inside.status).toBe(0);
    expect(inside.json.returns).toEqual(json.returns);
  });

  it("keeps the versions committed within --since and --until (whole days and months, UTC)", () => {
    const march = auditJson([dir, "--since", "2025-03", "--until", "2025-03"]);
    expect(march.status).toBe(0);
    expect(march.json.range).toEqual({ since: "2025-03-01T00:00:00.000Z", until: "2025-03-31T23:59:59.999Z", first: "2025-03-01T09:00:00.000Z", last: "2025-03-05T09:00:00.000Z" });
    expect(march.json.returns.map((audited) => audited.path)).toEqual(["specs/5_deleted/.return-meta.json", "specs/5_deleted/.return-meta.json", "specs/6_dir/.return-meta.json"]);
    // A version from before --since is still the version it was: the archive move in February re-audits nothing.
    const fromFebruary10 = auditJson([dir, "--since", "2025-02-10T09:00:00Z", "--until", "2025-02-28"]);
    expect(fromFebruary10.json.returns.map((audited) => audited.path)).toEqual(["specs/archive/4_old/.return-meta.json"]);
  });

  it("walks another branch's history with --rev", () => {
    git(dir, ["branch", "-f", "early", `${head}~4`]);
    const early = auditJson([dir, "--rev", "early"]);
    expect(early.status).toBe(0);
    expect(early.json.repo.rev).toBe("early");
    expect(early.json.returns.map(verdictOf)).toEqual(expected.slice(0, 5));
  });

  it("prints tables and a verdict as stylish output", () => {
    const run = returnlint(["audit", dir]);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(`returnlint audit of ${dir}: HEAD ${head.slice(0, 12)}, 14 returns in 9 commits, 2025-01-10 to 2025-04-02`);
    expect(run.stdout).toContain("Config: none committed at HEAD (built-in presets, format detected per return); to apply a config, commit it or pass -c FILE\n");
    expect(run.stdout).toMatch(/^ {2}agent {11}returns {2}failed {2}phantom {2}phantom rate\n {2}research-agent {8}7 {7}4 {8}3 {9}42\.9%$/m);
    expect(run.stdout).toMatch(/^ {2}2025-04 {8}7 {7}5 {8}1 {9}14\.3%$/m);
    expect(run.stdout).toMatch(/^ {2}artifacts {14}7 {8}7$/m);
    expect(run.stdout).toContain("  2025-04-02 " + head.slice(0, 12) + " specs/12_empty/.return-meta.json\n    phantom work: research-agent, status researched; Artifact is empty: specs/12_empty/reports/r.md\n");
    expect(run.stdout.trimEnd().split("\n").at(-1)).toBe("[WARN] 4 of 14 returns claimed work that was not in their commit (28.6% phantom work); 9 failed validation");
  });

  it("--max-phantom N: exit 1 when more returns than N are phantom work, 0 otherwise", () => {
    const over = returnlint(["audit", dir, "--max-phantom", "3"]);
    expect(over.status).toBe(1);
    expect(over.stdout.trimEnd().split("\n").at(-1)).toBe("[FAIL] 4 of 14 returns claimed work that was not in their commit (28.6% phantom work), more than --max-phantom 3; 9 failed validation");
    expect(returnlint(["audit", dir, "--max-phantom", "4"]).status).toBe(0);
    // Only the range counts: no phantom work in February.
    const february = returnlint(["audit", dir, "--since", "2025-02", "--until", "2025-02", "--max-phantom", "0"]);
    expect(february.status).toBe(0);
    expect(february.stdout.trimEnd().split("\n").at(-1)).toBe("[PASS] All 2 returns passed; no phantom work");
  });

  it("-o FILE writes the report there and says so", () => {
    const out = path.join(scratchDir(), "audit.json");
    const run = returnlint(["audit", dir, "-f", "json", "-o", out]);
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(`Wrote ${out} (json).\n[WARN] 4 of 14 returns claimed work that was not in their commit (28.6% phantom work); 9 failed validation\n`);
    expect((JSON.parse(readFileSync(out, "utf8")) as AuditJson).returns).toEqual(json.returns);
  });
});

describe("returnlint audit: the config committed at the tip of the history", () => {
  it("applies HEAD's config, not an uncommitted edit of it, in a clone and in a bare repository alike", () => {
    const dir = newRepository();
    commit(dir, "2025-05-01T09:00:00Z", {
      files: {
        // The metadata-file format never allows "completed"; this project turned status-enum off.
        "returnlint.config.json": { preset: "metadata-file", rules: { "status-enum": "off" } },
        "specs/1_x/.return-meta.json": returnMeta("completed", ["docs/a.md"], "impl-agent", "implement"),
        "docs/a.md": "# A\n",
      },
    });
    writeFileSync(path.join(dir, "returnlint.config.json"), JSON.stringify({ preset: "metadata-file" }));
    const clone = auditJson([dir]);
    expect(clone.json.config).toBe("HEAD:returnlint.config.json");
    // The edit is named, as --config takes it from the current directory (here, outside the clone).
    expect(clone.json.unappliedConfig).toBe(path.join(dir, "returnlint.config.json"));
    expect(clone.json.returns.map((audited) => audited.ok)).toEqual([true]);
    const stylish = returnlint(["audit", "."], { cwd: dir });
    expect(stylish.stdout).toContain(
      "Config: HEAD:returnlint.config.json, read as data (no code from the repository is run); the working tree's returnlint.config.json differs from the committed one, so it was not applied: audit with it with -c returnlint.config.json\n",
    );
    const bare = path.join(scratchDir(), "configured.git");
    git(dir, ["clone", "-q", "--bare", dir, bare]);
    const fromBare = auditJson([bare]);
    expect(fromBare.json.config).toBe("HEAD:returnlint.config.json");
    expect(fromBare.json.unappliedConfig).toBeNull();
    expect(fromBare.json.returns).toEqual(clone.json.returns);
    // --config FILE is used instead, as given.
    const strict = path.join(scratchDir(), "strict.json");
    writeFileSync(strict, JSON.stringify({ preset: "metadata-file" }));
    const withConfig = auditJson([dir, "--config", strict]);
    expect(withConfig.json.returns.map((audited) => audited.failures.map((failure) => failure.messageId))).toEqual([["invalidStatus"]]);
  });

  it("a config only in the working tree (returnlint init, not committed): the report says how to apply it, and -c applies it", () => {
    const dir = newRepository();
    commit(dir, "2025-05-01T09:00:00Z", {
      files: { "specs/1_x/.return-meta.json": returnMeta("completed", ["docs/a.md"], "impl-agent", "implement"), "docs/a.md": "# A\n" },
    });
    writeFileSync(path.join(dir, "returnlint.config.yaml"), "preset: metadata-file\nrules:\n  status-enum: off\n");
    const unapplied = returnlint(["audit"], { cwd: dir });
    expect(unapplied.status).toBe(0);
    expect(unapplied.stdout).toContain(
      "Config: none committed at HEAD (built-in presets, format detected per return); the working tree's returnlint.config.yaml is not committed, so it was not applied: audit with it with -c returnlint.config.yaml\n",
    );
    expect(unapplied.stdout.trimEnd().split("\n").at(-1)).toBe("[WARN] No phantom work; 1 of 1 return failed validation (100.0%)");
    for (const flag of ["-c", "--config"]) {
      const applied = returnlint(["audit", flag, "returnlint.config.yaml"], { cwd: dir });
      expect(applied.status).toBe(0);
      expect(applied.stdout).toContain("Config: returnlint.config.yaml\n");
      expect(applied.stdout.trimEnd().split("\n").at(-1)).toBe("[PASS] All 1 return passed; no phantom work");
    }
    const json = auditJson(["-c", "returnlint.config.yaml"], { cwd: dir }).json;
    expect([json.config, json.unappliedConfig]).toEqual(["returnlint.config.yaml", null]);
  });

  it("finds a config in package.json's returnlint key; one naming a rule module applies only trusted, and then says which rule a config from git cannot resolve", () => {
    const dir = newRepository();
    commit(dir, "2025-05-01T09:00:00Z", {
      files: {
        "package.json": { name: "project", returnlint: { preset: "metadata-file", rules: { "./rules/custom.mjs": "error" } } },
        "specs/1_x/.return-meta.json": returnMeta("researched", ["docs/a.md"], "r", "research"),
      },
    });
    const bare = path.join(scratchDir(), "custom.git");
    git(dir, ["clone", "-q", "--bare", dir, bare]);
    // Untrusted (the default), the module is not imported: the built-in presets apply, and the Config line says why.
    const untrusted = returnlint(["audit", bare]);
    expect(untrusted.status).toBe(0);
    expect(untrusted.stdout).toContain('Config: built-in presets (format detected per return); HEAD:package.json names rule "./rules/custom.mjs", a module, code, which audit does not run');
    const run = returnlint(["audit", bare, "--trust-repo-config"]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("(read from HEAD:package.json)");
    expect(run.stderr).toContain("rules and presets it names by path or package resolve only in a clone whose working tree holds the same config");
    expect(run.stderr).not.toMatch(STACK_FRAME);
    expect(run.stderr).not.toContain("returnlint-audit-config-");
  });

  it("runs a JavaScript config only trusted, and only from a working tree whose copy matches the commit", () => {
    const dir = newRepository();
    commit(dir, "2025-05-01T09:00:00Z", {
      files: {
        "returnlint.config.mjs": 'export default { preset: "metadata-file", rules: { "status-enum": "off" } };\n',
        "specs/1_x/.return-meta.json": returnMeta("completed", ["docs/a.md"], "impl-agent", "implement"),
        "docs/a.md": "# A\n",
      },
    });
    // Untrusted (the default): not run; the built-in presets judge "completed".
    const untrusted = auditJson([dir]);
    expect(untrusted.status).toBe(0);
    expect([untrusted.json.config, untrusted.json.configKind, untrusted.json.configRefused]).toEqual([null, "builtin", "HEAD:returnlint.config.mjs is JavaScript"]);
    expect(untrusted.json.returns.map((audited) => audited.ok)).toEqual([false]);
    const clone = auditJson([dir, "--trust-repo-config"]);
    expect(clone.status).toBe(0);
    expect([clone.json.config, clone.json.configKind]).toEqual(["HEAD:returnlint.config.mjs", "trusted"]);
    expect(clone.json.returns.map((audited) => audited.ok)).toEqual([true]);
    const bare = path.join(scratchDir(), "js.git");
    git(dir, ["clone", "-q", "--bare", dir, bare]);
    const refused = returnlint(["audit", bare, "--trust-repo-config"]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toBe(
      "returnlint: The config committed at HEAD:returnlint.config.mjs is JavaScript, and returnlint audit runs a config's code only from a working tree whose copy matches the commit. Run the audit in an up-to-date clone, or pass --config FILE or --preset NAME.\n",
    );
  });
});

describe("returnlint audit: early metadata is not judged, unless nothing replaced it", () => {
  // Early metadata as the family's agents write it when they start: no session_id yet, which fails required-fields.
  const early = (agent: string, command: string, startedAt: string) => ({
    status: "in_progress",
    started_at: startedAt,
    artifacts: [],
    partial_progress: { stage: "phase_1", details: "Started" },
    metadata: { agent_type: agent, delegation_depth: 1, delegation_path: ["orchestrator", command, agent] },
  });
  const dir = newRepository();
  commit(dir, "2025-03-01T09:00:00Z", {
    files: {
      "specs/1_done/.return-meta.json": early("impl-agent", "implement", "2025-03-01T09:00:00Z"),
      "specs/2_stopped/.return-meta.json": early("impl-agent", "implement", "2025-03-01T09:05:00Z"),
    },
  });
  commit(dir, "2025-03-02T09:00:00Z", {
    files: { "specs/1_done/.return-meta.json": returnMeta("implemented", ["src/done.ts"], "impl-agent", "implement"), "src/done.ts": "export const done = true;\n" },
  });
  const judged = (json: AuditJson) => json.returns.map(({ path: file, status, ok, early: wasEarly, failures }) => [file, status, ok, wasEarly, failures.map((failure) => failure.messageId)]);

  it("an in_progress version a later version of its file replaced passes as early metadata; the last version is judged as scan judges it", () => {
    const { status, json } = auditJson([dir]);
    expect(status).toBe(0);
    expect(judged(json)).toEqual([
      ["specs/1_done/.return-meta.json", "in_progress", true, true, []],
      ["specs/2_stopped/.return-meta.json", "in_progress", false, false, ["missingMetadataField"]],
      ["specs/1_done/.return-meta.json", "implemented", true, false, []],
    ]);
    expect(json.summary).toMatchObject({ ...tally(3, 1, 0), passed: 2, early: 1 });
    expect(json.summary.byStatus).toEqual([
      { status: "in_progress", ...tally(2, 1, 0) },
      { status: "implemented", ...tally(1, 0, 0) },
    ]);
    expect(json.summary.failuresByRule).toEqual([{ rule: "required-fields", failures: 1, returns: 1 }]);
    // scan reads the tip: the same verdict for the file nothing replaced.
    const scanned = JSON.parse(returnlint(["scan", "specs", "--format", "json"], { cwd: dir }).stdout) as { source: string; ok: boolean; phantom: boolean }[];
    expect(scanned.map(({ source, ok, phantom }) => [source, ok, phantom]).sort()).toEqual([
      ["specs/1_done/.return-meta.json", true, false],
      ["specs/2_stopped/.return-meta.json", false, false],
    ]);
  });

  it("says how many versions were early metadata", () => {
    const run = returnlint(["audit", dir]);
    expect(run.stdout).toContain("\nEarly metadata: 1 in_progress version replaced later by another version of its file, not judged (written while the agent worked)\n");
    expect(run.stdout.trimEnd().split("\n").at(-1)).toBe("[WARN] No phantom work; 1 of 3 returns failed validation (33.3%)");
  });

  it("judges an in_progress version that is the last of its file in the range (--until)", () => {
    const { json } = auditJson([dir, "--until", "2025-03-01"]);
    expect(judged(json)).toEqual([
      ["specs/1_done/.return-meta.json", "in_progress", false, false, ["missingMetadataField"]],
      ["specs/2_stopped/.return-meta.json", "in_progress", false, false, ["missingMetadataField"]],
    ]);
    expect(json.summary.early).toBe(0);
  });
});

describe("returnlint audit: what else a history holds", () => {
  it("an empty repository: nothing to audit, exit 0", () => {
    const dir = newRepository();
    const run = returnlint(["audit", dir]);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("HEAD (no commits), 0 returns in 0 commits");
    expect(run.stdout.trimEnd().split("\n").at(-1)).toBe("[INFO] No .return-meta.json was committed in the history of HEAD");
    expect(auditJson([dir]).json).toMatchObject({ repo: { head: null }, returns: [], summary: { returns: 0, byMonth: [] } });
  });

  it("a merged branch's version is audited once, in the branch commit that wrote it; a metadata file that is a symlink is not a version", () => {
    const dir = newRepository();
    commit(dir, "2025-01-01T09:00:00Z", { files: { "README.md": "# Project\n" } });
    git(dir, ["checkout", "-q", "-b", "feature"]);
    const branchCommit = commit(dir, "2025-01-02T09:00:00Z", {
      files: { "specs/1_x/.return-meta.json": returnMeta("researched", ["README.md"], "r", "research") },
      links: { "specs/2_y/.return-meta.json": "../1_x/.return-meta.json" },
    });
    git(dir, ["checkout", "-q", "main"]);
    commit(dir, "2025-01-03T09:00:00Z", { files: { "docs/other.md": "# Other\n" } });
    git(dir, ["merge", "-q", "--no-ff", "-m", "merge", "feature"], { GIT_AUTHOR_DATE: "2025-01-04T09:00:00Z", GIT_COMMITTER_DATE: "2025-01-04T09:00:00Z" });
    const { json } = auditJson([dir]);
    expect(json.returns.map((audited) => [audited.path, audited.commit, audited.ok])).toEqual([["specs/1_x/.return-meta.json", branchCommit, true]]);
  });

  it("a version larger than RETURNLINT_MAX_INPUT_BYTES is named on standard error and the audit exits 2", () => {
    const dir = newRepository();
    commit(dir, "2025-01-01T09:00:00Z", {
      files: {
        "specs/1_big/.return-meta.json": returnMeta("researched", ["README.md"], "r", "research", { padding: "x".repeat(2000) }),
        "specs/2_small/.return-meta.json": returnMeta("researched", ["README.md"], "r", "research"),
        "README.md": "# R\n",
      },
    });
    const run = auditJson([dir], { env: { RETURNLINT_MAX_INPUT_BYTES: "1k" } });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^returnlint: Cannot read specs\/1_big\/\.return-meta\.json at [0-9a-f]{40}: it is \d+ bytes, more than the 1024 read \(RETURNLINT_MAX_INPUT_BYTES\)\.\n$/);
    expect(run.json.returns.map((audited) => audited.path)).toEqual(["specs/2_small/.return-meta.json"]);
    expect(run.json.summary.unreadable).toBe(1);
    expect(run.json.unreadable.map((skipped) => skipped.path)).toEqual(["specs/1_big/.return-meta.json"]);
  });

  it("links commits and files on a forge the remote names, never with the remote's credentials", () => {
    const dir = newRepository();
    const oid = commit(dir, "2025-01-01T09:00:00Z", { files: { "specs/1_x/.return-meta.json": returnMeta("researched", ["docs/a b.md"], "r", "research"), "docs/a b.md": "# A\n" } });
    git(dir, ["remote", "add", "origin", "https://someone:ghp_secret@github.com/acme/agents.git"]);
    const { json } = auditJson([dir]);
    expect(json.repo.web).toBe("https://github.com/acme/agents");
    const out = path.join(scratchDir(), "report.html");
    expect(returnlint(["audit", dir, "-f", "html", "-o", out]).status).toBe(0);
    const html = readFileSync(out, "utf8");
    expect(html).toContain(`href="https://github.com/acme/agents/commit/${oid}"`);
    expect(html).toContain(`href="https://github.com/acme/agents/blob/${oid}/specs/1_x/.return-meta.json"`);
    expect(html).not.toContain("ghp_secret");
    // Self-contained: the chart library is inside, and nothing is loaded from anywhere.
    expect(html).toContain("Chart.js v4");
    expect(html).not.toMatch(/<(?:script|link|img)[^>]+(?:src|href)=/);
    expect(html).toMatch(/<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'sha256-[^']+' 'sha256-[^']+';/);
  });

  it("draws a progress line on standard error when it is a terminal", () => {
    const { dir } = knownHistory();
    const script = spawnSync("script", ["-qec", `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} audit ${JSON.stringify(dir)} -f json -o /dev/null`, "/dev/null"], {
      encoding: "utf8",
      env: { ...process.env, NO_COLOR: "1" },
      timeout: 20_000,
    });
    expect(script.status).toBe(0);
    expect(script.stdout).toContain("Reading the history of");
    expect(script.stdout).toMatch(/Audited 14 returns in \d+\.\d\d s\r?\n/);
  });
});

describe("returnlint audit: exit 2 with a sentence", () => {
  const notARepo = scratchDir();
  mkdirSync(path.join(notARepo, "plain"), { recursive: true });
  const plain = path.join(notARepo, "plain");
  writeFileSync(path.join(notARepo, "file.txt"), "x\n");

  it.each([
    ["a folder that is not a repository, said once", [plain], new RegExp(`^returnlint: Cannot audit ${plain}: it is not in a git repository \\(nor is any folder above it\\)\\. Give the folder of a clone or a bare repository\\.\n$`)],
    ["a path that does not exist", [path.join(notARepo, "missing")], /: no such directory\.\n$/],
    ["a file", [path.join(notARepo, "file.txt")], /it is not a directory\. Give the folder of a clone or a bare repository\.\n$/],
    ["a date that is not one", [".", "--since", "yesterday"], /^returnlint: --since must be a date: 2025-03-01, 2025-03, 2025, or a date and time such as 2025-03-01T12:00:00Z; received "yesterday"\.\n$/],
    ["a day that does not exist", [".", "--until", "2025-02-30"], /--until must be a date/],
    ["--since after --until", [".", "--since", "2025-04", "--until", "2025-03"], /^returnlint: --since 2025-04 is after --until 2025-03: no commit can be in that range\.\n$/],
    ["an unknown format", [".", "--format", "sarfi"], /^returnlint: Unknown format "sarfi" for "returnlint audit"; available: stylish, json, ndjson, html, sarif, junit, github\.\n$/],
    ["a revision that names no commit", [".", "--rev", "no-such-branch"], /"no-such-branch" names no commit/],
    ["a revision that looks like an option", [".", "--rev=--all"], /--rev must name a revision/],
    ["two repositories", [".", "."], /takes one repository; received 2/],
    ["--max-phantom that is not a number", [".", "--max-phantom", "some"], /--max-phantom must be a whole number/],
  ])("%s", (_name, args, message) => {
    const { dir } = { dir: newRepository() };
    commit(dir, "2025-01-01T09:00:00Z", { files: { "README.md": "# R\n" } });
    const run = returnlint(["audit", ...args], { cwd: dir });
    expect(run.stderr).toMatch(message);
    expect(run.stderr).not.toMatch(STACK_FRAME);
    expect(run.stdout).toBe("");
    expect(run.status).toBe(2);
  });

  it("git missing from the PATH", () => {
    const dir = newRepository();
    const run = returnlint(["audit", dir], { env: { PATH: path.join(notARepo, "no-bin") } });
    expect(run.stderr).toBe("returnlint: git was not found on the PATH: returnlint audit reads history with the git command. Install git (apt-get install git) and run it again.\n");
    expect(run.status).toBe(2);
  });

  it("--help lists every option and the exit codes", () => {
    const run = returnlint(["audit", "--help"]);
    expect(run.status).toBe(0);
    for (const flag of ["--since DATE", "--until DATE", "--rev REVISION", "-c, --config FILE", "--preset NAME", "-f, --format NAME", "-o, --output FILE", "--max-phantom N"]) {
      expect(run.stdout).toContain(flag);
    }
    expect(run.stdout).toContain("Exit codes: 0 the audit ran");
    expect(existsSync(BIN)).toBe(true);
  });
});
