import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditNotices, auditVerdict, renderAudit, runAudit, type AuditOptions, type AuditRun } from "./index.js";

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** git with a fixed identity and no signing, whatever the machine's config says. */
function git(cwd: string, args: readonly string[], env: Record<string, string> = {}): string {
  const clean = Object.fromEntries(Object.entries({ ...process.env, ...env }).filter(([name]) => !["GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE"].includes(name)));
  return execFileSync("git", ["-c", "user.name=Returnlint Test", "-c", "user.email=test@returnlint.invalid", "-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main", ...args], {
    cwd,
    env: clean,
    encoding: "utf8",
  }).trim();
}

/** Writes `files` and commits them with both dates set to `date`. */
function commit(dir: string, date: string, files: Readonly<Record<string, unknown>>): void {
  for (const [relative, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, relative)), { recursive: true });
    writeFileSync(path.join(dir, relative), typeof content === "string" ? content : `${JSON.stringify(content, null, 2)}\n`);
  }
  git(dir, ["add", "-A"]);
  git(dir, ["commit", "-q", "-m", `change of ${date}`], { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date });
}

/** A task's metadata file, by a research agent, naming `artifacts`. */
const researched = (artifacts: readonly string[]) => ({
  status: "researched",
  artifacts: artifacts.map((artifact) => ({ type: "report", path: artifact, summary: "What the agent made" })),
  metadata: { session_id: "sess_1", agent_type: "research-agent", delegation_depth: 1, delegation_path: ["orchestrator", "research", "research-agent"] },
});

const PHANTOM = "specs/1_phantom/.return-meta.json";
const DONE = "specs/2_done/.return-meta.json";
let repo: string;

beforeAll(() => {
  repo = mkdtempSync(path.join(tmpdir(), "returnlint-audit-package-"));
  folders.push(repo);
  git(repo, ["init", "-q"]);
  // The report of task 1 comes a commit later: the version that claimed it is phantom work.
  commit(repo, "2025-01-10T09:00:00Z", { [PHANTOM]: researched(["specs/1_phantom/reports/r.md"]) });
  commit(repo, "2025-01-11T09:00:00Z", { "specs/1_phantom/reports/r.md": "# Report\n" });
  commit(repo, "2025-02-03T09:00:00Z", { [DONE]: researched(["specs/2_done/reports/r.md"]), "specs/2_done/reports/r.md": "# Report\n" });
});

const audit = (options: Partial<AuditOptions> = {}): Promise<AuditRun> => runAudit({ repo: ".", cwd: repo, env: {}, ...options });

describe("runAudit", { timeout: 30_000 }, () => {
  it("judges each version against its own commit: phantom work is claimed work the commit does not hold", async () => {
    const { document } = await audit();
    expect(document.returns.map(({ path: file, date, ok, phantom }) => ({ file, date, ok, phantom }))).toEqual([
      { file: PHANTOM, date: "2025-01-10T09:00:00.000Z", ok: false, phantom: true },
      { file: DONE, date: "2025-02-03T09:00:00.000Z", ok: true, phantom: false },
    ]);
    expect(document.summary).toMatchObject({ returns: 2, failed: 1, phantom: 1 });
    expect(document.range).toEqual({ since: null, until: null, first: "2025-01-10T09:00:00.000Z", last: "2025-02-03T09:00:00.000Z" });
    expect(document.repo).toMatchObject({ rev: "HEAD", bare: false, web: null });
  });

  it("audits only the versions in the date range", async () => {
    const { document } = await audit({ since: new Date("2025-02-01T00:00:00Z") });
    expect(document.returns.map((audited) => audited.path)).toEqual([DONE]);
    expect(document.range.since).toBe("2025-02-01T00:00:00.000Z");
  });

  it("says how far it got", async () => {
    const lines: string[] = [];
    await audit({ progress: { show: (line) => lines.push(line), tick: (line) => lines.push(line()), done: (line) => lines.push(line) } });
    expect(lines[0]).toBe(`Reading the history of ${repo}…`);
    expect(lines).toContain(`Auditing ${repo}: 1 return of 2, 1 phantom`);
    expect(lines.at(-1)).toMatch(/^Audited 2 returns in \d+\.\d\d s$/);
  });

  it("refuses a revision that names no commit, or that git would read as an option", async () => {
    await expect(audit({ rev: "no-such-branch" })).rejects.toMatchObject({ code: "USAGE", message: `Cannot audit .: "no-such-branch" names no commit in ${repo}.` });
    await expect(audit({ rev: "--all" })).rejects.toMatchObject({ code: "USAGE", message: '--rev must name a revision (a branch, a tag or a commit); received "--all".' });
  });

  it("reports a version larger than RETURNLINT_MAX_INPUT_BYTES as unreadable, in a notice", async () => {
    const { document } = await audit({ env: { RETURNLINT_MAX_INPUT_BYTES: "16" } });
    expect(document.returns).toEqual([]);
    expect(auditNotices(document)).toEqual([
      expect.stringMatching(new RegExp(`^Cannot read ${PHANTOM} at [0-9a-f]{40}: it is \\d+ bytes, more than the 16 read \\(RETURNLINT_MAX_INPUT_BYTES\\)\\.$`)),
      expect.stringMatching(new RegExp(`^Cannot read ${DONE} at `)),
    ]);
    expect(auditVerdict(document, undefined)).toBe("[FAIL] 2 versions of .return-meta.json could not be read, and none was audited");
  });
});

describe("auditVerdict and renderAudit", { timeout: 30_000 }, () => {
  let run: AuditRun;
  beforeAll(async () => {
    run = await audit();
  });

  it("fails only when phantom work passes maxPhantom", () => {
    expect(auditVerdict(run.document, undefined)).toBe("[WARN] 1 of 2 returns claimed work that was not in their commit (50.0% phantom work); 1 failed validation");
    expect(auditVerdict(run.document, 0)).toBe("[FAIL] 1 of 2 returns claimed work that was not in their commit (50.0% phantom work), more than --max-phantom 0; 1 failed validation");
  });

  it("renders the document as JSON, as a terminal report ending in the verdict, and as one self-contained page", async () => {
    const verdict = auditVerdict(run.document, undefined);
    const json = JSON.parse(await renderAudit(run, "json", verdict)) as { summary: unknown; returns: { path: string; phantom: boolean }[] };
    expect(json.summary).toEqual(JSON.parse(JSON.stringify(run.document.summary)));
    expect(json.returns.map(({ path: file, phantom }) => ({ file, phantom }))).toEqual([
      { file: PHANTOM, phantom: true },
      { file: DONE, phantom: false },
    ]);
    expect((await renderAudit(run, "stylish", verdict)).trimEnd().endsWith(verdict)).toBe(true);
    const page = await renderAudit(run, "html", verdict);
    expect(page).toMatch(/^<!doctype html>/i);
    // Chart.js inlined (its banner carries the licence), nothing fetched.
    expect(page).toContain("Chart.js v4");
    expect(page).not.toMatch(/<script[^>]+src=/);
  });
});
