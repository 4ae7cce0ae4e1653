import { existsSync, renameSync } from "node:fs";
import path from "node:path";
import { commit, git } from "@returnlint/testing";
import { describe, expect, it } from "vitest";
import { STACK_FRAME, metadataReturn, mkfifo, run, scratch, type Ran } from "./harness.js";

// Issue 31, point 4: `returnlint audit` of a repository it has no reason to trust (a fresh clone,
// or a project a subagent commits to). Each case is a repository made here, audited by the built CLI.

const META = "specs/1_x/.return-meta.json";
const REPORT = "specs/1_x/reports/r.md";

/** A repository with one return whose report is committed with it (it passes), plus `files`. */
function repository(files: Readonly<Record<string, unknown>> = {}, date = "2025-01-10T09:00:00Z"): string {
  const root = scratch();
  git(root, ["init", "-q"]);
  commit(root, date, { files: { [META]: metadataReturn([REPORT]), [REPORT]: "# Report\n", ...files } });
  return root;
}

/** The report of `audit --format json`, or a failure naming what was printed instead. */
function document(ran: Ran): Record<string, unknown> & { returns: { path: string; agent: string | null; ok: boolean; failures: { messageId: string }[] }[] } {
  try {
    return JSON.parse(ran.stdout) as ReturnType<typeof document>;
  } catch {
    throw new Error(`not a JSON report (exit ${String(ran.status)}): ${ran.stdout.slice(0, 300)} | ${ran.stderr.slice(0, 300)}`);
  }
}

/** What every run here must be: ended by itself, with 0, 1 or 2, and no stack. */
function settled(ran: Ran): Ran {
  expect(ran.signal).toBeNull();
  expect([0, 1, 2]).toContain(ran.status);
  expect(ran.stderr).not.toMatch(STACK_FRAME);
  expect(ran.stderr).not.toMatch(/internal error/i);
  return ran;
}

describe("4. audit runs no code from the repository it audits, unless told to", { timeout: 60_000 }, () => {
  const marker = (root: string) => path.join(root, "..", `${path.basename(root)}-ran`);
  /** A module that leaves a file beside the repository when it is imported: the proof that it ran. */
  const payload = (root: string, exported: string) => `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(marker(root))}, "ran");\nexport default ${exported};\n`;

  it("a committed returnlint.config.mjs is not imported: the built-in presets apply, and every format says why", () => {
    const root = repository();
    commit(root, "2025-01-11T09:00:00Z", { files: { "returnlint.config.mjs": payload(root, "{}") } });

    const stylish = settled(run(["audit"], { cwd: root }));
    expect(stylish.status).toBe(0);
    expect(existsSync(marker(root))).toBe(false);
    expect(stylish.stdout).toContain(
      "Config: built-in presets (format detected per return); HEAD:returnlint.config.mjs is JavaScript, code, which audit does not run from the repository it audits: pass --trust-repo-config to run it",
    );
    const json = document(settled(run(["audit", "-f", "json"], { cwd: root })));
    expect(json).toMatchObject({ config: null, configKind: "builtin", configRefused: "HEAD:returnlint.config.mjs is JavaScript" });
    const html = settled(run(["audit", "-f", "html"], { cwd: root })).stdout;
    expect(html).toContain("HEAD:returnlint.config.mjs is JavaScript, code, which audit does not run from the repository it audits");
    expect(existsSync(marker(root))).toBe(false);

    // Asked for, it runs, and the report says it was trusted.
    const trusted = settled(run(["audit", "--trust-repo-config"], { cwd: root }));
    expect(trusted.status).toBe(0);
    expect(trusted.stdout).toContain("Config: HEAD:returnlint.config.mjs, trusted with --trust-repo-config (code it is or names may run)");
    expect(existsSync(marker(root))).toBe(true);
  });

  it("a rule module named by a committed JSON config is not imported; a config of data alone is applied, read as data", () => {
    const root = repository();
    commit(root, "2025-01-11T09:00:00Z", {
      files: {
        "returnlint.config.json": { rules: { "./rules/x.mjs": "error" } },
        "rules/x.mjs": payload(root, `{ id: "x", meta: { description: "x", docs: "", schema: {}, messages: { x: { text: "x" } } }, check() {} }`),
      },
    });
    const refused = settled(run(["audit", "-f", "json"], { cwd: root }));
    expect(refused.status).toBe(0);
    expect(existsSync(marker(root))).toBe(false);
    expect(document(refused)).toMatchObject({ config: null, configKind: "builtin", configRefused: 'HEAD:returnlint.config.json names rule "./rules/x.mjs", a module' });

    commit(root, "2025-01-12T09:00:00Z", { files: { "returnlint.config.json": { rules: { "summary-length": "off" } } } });
    const data = settled(run(["audit"], { cwd: root }));
    expect(data.status).toBe(0);
    expect(data.stdout).toContain("Config: HEAD:returnlint.config.json, read as data (no code from the repository is run)");
    expect(document(run(["audit", "-f", "json"], { cwd: root }))).toMatchObject({ config: "HEAD:returnlint.config.json", configKind: "data", configRefused: null });
  });

  it("audit --help names --trust-repo-config", () => {
    expect(settled(run(["audit", "--help"], { cwd: scratch() })).stdout).toMatch(/--trust-repo-config +let the committed config run code/);
  });
});

describe("4. files that are not files do not hang an audit", { timeout: 60_000 }, () => {
  it("a FIFO in the working tree where the committed config is: compared as no file, never opened for reading", () => {
    const root = repository({ "returnlint.config.json": { rules: { "summary-length": "off" } } });
    renameSync(path.join(root, "returnlint.config.json"), path.join(root, "moved.json"));
    mkfifo(path.join(root, "returnlint.config.json"));
    for (const trust of [[], ["--trust-repo-config"]]) {
      const ran = settled(run(["audit", ...trust], { cwd: root, timeout: 20_000 }));
      expect(ran.status).toBe(0);
      expect(ran.stdout).toContain("Config: HEAD:returnlint.config.json");
    }
  });

  it("a FIFO named by the repository's include.path: a sentence and exit 2 within the 10 s git is given, not a hang", () => {
    const root = repository();
    mkfifo(path.join(root, "shared.gitconfig"));
    git(root, ["config", "include.path", "../shared.gitconfig"]);
    const ran = settled(run(["audit"], { cwd: root, timeout: 30_000 }));
    expect(ran.status).toBe(2);
    expect(ran.stderr).toContain("Cannot audit .: git did not answer within 10 s. A file it reads first may never end: look for a FIFO or a device at .git/config, or at a file that config includes");
  });
});

describe("4. what the repository says about itself is data, never a crash or a link of ours", { timeout: 60_000 }, () => {
  it.each([
    ["git@__proto__:a/b.git"],
    ["git@constructor:a/b.git"],
    ["git@hasOwnProperty:a/b.git"],
    ["https://github.com/a/%zz.git"],
    ["https://github.com/%E0%A4%A/b.git"],
    ["file://host/share"],
  ])("remote %s: no forge link, no internal error", (url) => {
    const root = repository();
    git(root, ["remote", "add", "origin", url]);
    const ran = settled(run(["audit", "-f", "json"], { cwd: root }));
    expect(ran.status).toBe(0);
    expect(document(ran)).toMatchObject({ repo: { web: null } });
    expect(settled(run(["audit", "-f", "html"], { cwd: root })).stdout).not.toMatch(/href="https?:/);
  });

  it("a known forge still links its commits", () => {
    const root = repository();
    git(root, ["remote", "add", "origin", "git@github.com:acme/project.git"]);
    expect(document(settled(run(["audit", "-f", "json"], { cwd: root })))).toMatchObject({ repo: { web: "https://github.com/acme/project" } });
  });

  it("an artifact path with a slash after a file (real.md/, real.md/.) is not found in the commit, as on disk", () => {
    const root = repository();
    const claims = { "specs/2_y/.return-meta.json": metadataReturn(["specs/2_y/real.md/"]), "specs/3_z/.return-meta.json": metadataReturn(["specs/3_z/real.md/."]) };
    commit(root, "2025-01-11T09:00:00Z", { files: { ...claims, "specs/2_y/real.md": "# Real\n", "specs/3_z/real.md": "# Real\n" } });
    const audited = document(settled(run(["audit", "-f", "json"], { cwd: root }))).returns.filter((audited) => audited.path !== META);
    expect(audited.map(({ path: file, ok, failures }) => ({ file, ok, failures: failures.map((failure) => failure.messageId) }))).toEqual([
      { file: "specs/2_y/.return-meta.json", ok: false, failures: ["notFound"] },
      { file: "specs/3_z/.return-meta.json", ok: false, failures: ["notFound"] },
    ]);
    for (const file of Object.keys(claims)) {
      const onDisk = settled(run(["check", file, "-f", "json"], { cwd: root }));
      expect(onDisk.status).toBe(1);
      const results = (JSON.parse(onDisk.stdout) as { results: { level: string; messageId: string }[] }).results;
      expect(results.filter((result) => result.level === "fail").map((result) => result.messageId)).toEqual(["notFound"]);
    }
  });

  it("a commit dated 9999 is in the month table, which says it lists only the months with returns", () => {
    const root = repository();
    commit(root, "@253402246800 +0000", { files: { "specs/2_y/.return-meta.json": metadataReturn(["specs/2_y/r.md"]), "specs/2_y/r.md": "# Report\n" } });
    const ran = settled(run(["audit"], { cwd: root }));
    expect(ran.status).toBe(0);
    expect(ran.stdout).toMatch(/ {2}2025-01 +1 +0 +0 +0\.0%\n {2}9999-12 +1 +0 +0 +0\.0%\n {2}Only the months with returns are listed: the first and the last are more than a century apart/);
    const json = document(settled(run(["audit", "-f", "json"], { cwd: root })));
    expect(json).toMatchObject({ summary: { returns: 2, emptyMonthsOmitted: true, byMonth: [{ month: "2025-01" }, { month: "9999-12" }] } });
  });

  it("a commit dated past 9999 is named in a sentence (exit 2), not an internal error", () => {
    const root = repository();
    commit(root, "@9999999999999 +0000", { files: { "specs/2_y/.return-meta.json": metadataReturn(["specs/2_y/r.md"]), "specs/2_y/r.md": "# Report\n" } });
    const ran = settled(run(["audit"], { cwd: root }));
    expect(ran.status).toBe(2);
    expect(ran.stderr).toMatch(
      /^returnlint: Cannot date specs\/2_y\/\.return-meta\.json at [0-9a-f]{40}: its author date \(9999999999999 seconds after 1970\) is outside the years 0000 to 9999 that the report can write\.$/m,
    );
    expect(ran.stdout).toContain("1 return in 1 commit");
  });

  it("a shallow clone says so, and does not attribute the versions at its cut to the cut", () => {
    const origin = repository();
    commit(origin, "2025-02-10T09:00:00Z", { files: { "specs/2_y/.return-meta.json": metadataReturn(["specs/2_y/r.md"]), "specs/2_y/r.md": "# Report\n" } });
    commit(origin, "2025-03-10T09:00:00Z", { files: { "specs/3_z/.return-meta.json": metadataReturn(["specs/3_z/missing.md"]) } });
    const clone = path.join(scratch(), "clone");
    git(path.dirname(clone), ["clone", "-q", "--depth", "2", `file://${origin}`, clone]);
    const cut = git(clone, ["rev-parse", "HEAD~1"]);

    const ran = settled(run(["audit"], { cwd: clone }));
    expect(ran.status).toBe(0);
    expect(ran.stdout).toContain(
      `[WARN] The repository is a shallow clone: history before its cut is not there; the 2 versions of .return-meta.json already there at its cut (${cut.slice(0, 12)}) were not audited, since when they were written is not known. Fetch the whole history (git fetch --unshallow) to audit it.`,
    );
    const json = document(settled(run(["audit", "-f", "json"], { cwd: clone })));
    expect(json).toMatchObject({ repo: { shallow: true }, shallowCut: { commits: [cut], versions: 2 } });
    // Only the version written after the cut is audited, in its own commit.
    expect(json.returns.map((audited) => audited.path)).toEqual(["specs/3_z/.return-meta.json"]);
  });

  it("bidi overrides and control characters in names reach neither the terminal nor the page raw", () => {
    const agent = "evil\u202eagent\u001b[31m\u009b";
    const folder = "specs/4_\u2066w\u2069";
    const root = repository({ [`${folder}/.return-meta.json`]: { ...metadataReturn([`${folder}/missing.md`]), metadata: { ...metadataReturn([]).metadata as object, agent_type: agent } } });
    // eslint-disable-next-line no-control-regex -- the control characters are what must not be printed
    const raw = /[\u001b\u009b\u202e\u2066\u2069]/;
    for (const format of ["stylish", "json", "html"]) {
      const ran = settled(run(["audit", "-f", format], { cwd: root }));
      expect(ran.status).toBe(0);
      expect(ran.stdout).not.toMatch(raw);
      expect(ran.stdout).toContain("evil\\u202eagent\\u001b[31m\\u009b");
    }
    // The JSON is the same text once parsed.
    expect(document(run(["audit", "-f", "json"], { cwd: root })).returns.map((audited) => audited.agent)).toContain(agent);
    // A path in a notice on standard error is written out too.
    const notice = settled(run(["audit"], { cwd: root, env: { RETURNLINT_MAX_INPUT_BYTES: "16" } }));
    expect(notice.status).toBe(2);
    expect(notice.stderr).toContain("specs/4_\\u2066w\\u2069/.return-meta.json");
    expect(notice.stderr).not.toMatch(raw);
  });
});
