// `returnlint init claude --vendor` and the default hook commands, run as Claude Code runs them:
// the command exactly as .claude/settings.json holds it, through `sh -c`, with a SubagentStop payload
// on standard input, in a repository that has no package.json, no lockfile and no node_modules.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { finalMessage, subagentStop } from "./claude-payloads.js";
import { project, REPO, returnlint } from "./helpers.js";
import { agentMarkdown } from "@returnlint/testing";

const VENDORED = path.join(REPO, "apps", "cli", "dist", "returnlint-vendored.cjs");
const REPORT = "specs/259_prove_lemma/reports/research-001.md";

/** A repository of the family: an agent, a written report, and no JavaScript tooling at all. */
function repository(files: Record<string, string | object> = {}): string {
  return project({
    ".claude/agents/lean-research-agent.md": agentMarkdown("lean-research-agent"),
    [REPORT]: "# Research Report\n\n## Findings\n\nThe lemma follows from the induction hypothesis.\n",
    "Theories/Main.lean": "theorem t : True := trivial\n",
    ...files,
  });
}

const settingsOf = (root: string) => JSON.parse(readFileSync(path.join(root, ".claude", "settings.json"), "utf8")) as { hooks: { SubagentStop: { matcher?: string; hooks: { command: string }[] }[] } };
const commandOf = (root: string) => settingsOf(root).hooks.SubagentStop[0]?.hooks[0]?.command ?? "";

/** The written command, as Claude Code runs a hook: `sh -c`, the payload on standard input, CLAUDE_PROJECT_DIR set unless `projectDir` is null. */
function runHook(root: string, message: string, options: { cwd?: string; projectDir?: string | null; home?: string } = {}) {
  const env: Record<string, string | undefined> = { PATH: process.env.PATH, HOME: options.home ?? path.join(root, "..", `${path.basename(root)}-home`) };
  if (options.projectDir !== null) env.CLAUDE_PROJECT_DIR = options.projectDir ?? root;
  const run = spawnSync("sh", ["-c", commandOf(root)], { cwd: options.cwd ?? root, env, input: JSON.stringify(subagentStop({ cwd: root, message })), encoding: "utf8", timeout: 30_000 });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

const PHANTOM = finalMessage([]);
const GOOD = finalMessage([REPORT], "researched");

// Each test starts returnlint several times on a machine that may be busy.
const SLOW = { timeout: 60_000 };

describe("returnlint init claude --vendor, in a repository without package.json or node_modules", SLOW, () => {
  it("writes the loader, its pack beside it and a hook command that runs the loader with node; the hook passes a good return and blocks a phantom one", () => {
    const root = repository();
    const init = returnlint(["init", "claude", "--vendor"], { cwd: root });
    expect(init.stderr).toBe("");
    expect(init.status).toBe(0);
    expect(init.stdout).toContain("Wrote .claude/hooks/returnlint.cjs, returnlint 0.1.0's loader, which the hook runs.\nWrote .claude/hooks/returnlint.pack, returnlint 0.1.0 packed, which its loader unpacks.\n");
    expect(init.stdout).toContain("Next: commit .claude/hooks/returnlint.cjs and returnlint.pack with .claude/settings.json: the hook runs it with node, nothing to install\n");
    expect(commandOf(root)).toBe('node "${CLAUDE_PROJECT_DIR:-.}"/.claude/hooks/returnlint.cjs hook claude');
    expect(settingsOf(root).hooks.SubagentStop[0]?.matcher).toBe("lean-research-agent");
    expect(readFileSync(path.join(root, ".claude", "hooks", "returnlint.cjs"))).toEqual(readFileSync(VENDORED));
    expect(readFileSync(path.join(root, ".claude", "hooks", "returnlint.pack"))).toEqual(readFileSync(VENDORED.replace(/\.cjs$/, ".pack")));
    // Nothing of npm's appeared.
    expect(["package.json", "package-lock.json", "node_modules"].filter((name) => existsSync(path.join(root, name)))).toEqual([]);

    const passed = runHook(root, GOOD);
    expect(passed).toEqual({ status: 0, stdout: "", stderr: "" });
    const [verdict] = readdirSync(path.join(root, ".returnlint", "verdicts"));
    expect(JSON.parse(readFileSync(path.join(root, ".returnlint", "verdicts", verdict ?? ""), "utf8"))).toMatchObject({ ok: true, decision: "pass" });

    const blocked = runHook(root, PHANTOM);
    expect(blocked.status).toBe(0);
    const answer = JSON.parse(blocked.stdout) as { decision: string; reason: string };
    expect(answer.decision).toBe("block");
    expect(answer.reason).toContain('- /artifacts: status "completed" says the work is done but "artifacts" is empty');
  });

  it("runs from a subfolder, and where Claude Code did not set CLAUDE_PROJECT_DIR (the hook then runs in the root)", () => {
    const root = repository();
    returnlint(["init", "claude", "--vendor"], { cwd: root });
    expect(runHook(root, GOOD, { cwd: path.join(root, "Theories") })).toEqual({ status: 0, stdout: "", stderr: "" });
    expect(JSON.parse(runHook(root, PHANTOM, { projectDir: null }).stdout)).toMatchObject({ decision: "block" });
  });

  it("keeps what it unpacks and its code caches beside itself, in a folder git ignores, and nothing in the user's home", () => {
    const root = repository();
    returnlint(["init", "claude", "--vendor"], { cwd: root });
    const home = path.join(root, "..", `${path.basename(root)}-own-home`);
    mkdirSync(home);
    expect(runHook(root, GOOD, { home }).status).toBe(0);
    const caches = path.join(root, ".claude", "hooks", ".returnlint-cache");
    const [folder] = readdirSync(caches).filter((name) => name !== ".gitignore");
    expect(folder).toMatch(new RegExp(`^[0-9a-f]{16}-${process.version.replaceAll(".", "\\.")}-${process.arch}$`));
    expect(readdirSync(path.join(caches, folder ?? "")).sort()).toEqual(["cli.cjs", "cli.cjs.hook.cache"]);
    expect(readFileSync(path.join(caches, ".gitignore"), "utf8")).toMatch(/^\*$/m);
    expect(readdirSync(home)).toEqual([]);
    // git sees the copy's two files, not its caches.
    execFileSync("git", ["init", "-q"], { cwd: root });
    expect(execFileSync("git", ["status", "--porcelain", "--untracked-files=all", ".claude/hooks"], { cwd: root, encoding: "utf8" })).toBe("?? .claude/hooks/returnlint.cjs\n?? .claude/hooks/returnlint.pack\n");
    // A cache it cannot write (a read-only folder) costs only speed.
    rmSync(caches, { recursive: true });
    writeFileSync(caches, "not a folder");
    expect(runHook(root, GOOD, { home }).status).toBe(0);
  });

  it("runs a file of a few kilobytes at each stop: the pack is read only to unpack, and a copy without it says so in one sentence (exit 2)", () => {
    const root = repository();
    returnlint(["init", "claude", "--vendor"], { cwd: root });
    const hooks = path.join(root, ".claude", "hooks");
    // Node reads and scans the whole of the file it runs: the loader alone, not the packed bundle.
    expect(statSync(path.join(hooks, "returnlint.cjs")).size).toBeLessThan(32 * 1024);
    expect(runHook(root, GOOD).status).toBe(0);
    // Unpacked on the first stop: later stops never read the pack.
    renameSync(path.join(hooks, "returnlint.pack"), path.join(root, "elsewhere.pack"));
    expect(runHook(root, GOOD)).toEqual({ status: 0, stdout: "", stderr: "" });
    // A clone where the pack was not committed: nothing unpacked yet, nothing to unpack from.
    rmSync(path.join(hooks, ".returnlint-cache"), { recursive: true });
    const missing = spawnSync(process.execPath, [path.join(hooks, "returnlint.cjs"), "--version"], { cwd: root, encoding: "utf8" });
    expect(missing.status).toBe(2);
    expect(missing.stdout).toBe("");
    expect(missing.stderr).toBe(`returnlint: cannot load its bundle (${path.join(hooks, "returnlint.pack")} cannot be read (ENOENT): the vendored copy is returnlint.cjs with returnlint.pack beside it, both written by \`returnlint init HOST --vendor\`); reinstall returnlint\n`);
    // Another version's pack.
    writeFileSync(path.join(hooks, "returnlint.pack"), "not this copy's pack");
    expect(spawnSync(process.execPath, [path.join(hooks, "returnlint.cjs"), "--version"], { cwd: root, encoding: "utf8" }).stderr).toContain(`returnlint.pack is not this copy's pack (20 bytes, not ${String(statSync(VENDORED.replace(/\.cjs$/, ".pack")).size)})`);
    renameSync(path.join(root, "elsewhere.pack"), path.join(hooks, "returnlint.pack"));
    expect(runHook(root, GOOD).status).toBe(0);
  });

  it("runs custom rules in their thread from the vendored copy", () => {
    const root = repository({
      "rules/no-researched.mjs": `export default { id: "no-researched", meta: { description: "d", docs: "https://example.com", schema: {}, defaultOptions: {}, messages: { found: { text: "status is researched" } } }, check(context) { if (context.value.status === "researched") context.report({ messageId: "found", pointer: "/status" }); } };\n`,
      "returnlint.config.json": { preset: "v7", rules: { "./rules/no-researched.mjs": "error" } },
    });
    returnlint(["init", "claude", "--vendor"], { cwd: root });
    const blocked = runHook(root, GOOD);
    expect(blocked.stderr).toBe("");
    expect((JSON.parse(blocked.stdout) as { reason: string }).reason).toContain("/status: status is researched");
  });

  it("scans a folder of more than a thousand tasks with its finding thread, unpacked beside its caches, as the installed CLI does", () => {
    const files: Record<string, object | string> = {};
    for (let task = 1; task <= 1_100; task += 1) {
      const folder = `specs/${String(task)}_task`;
      files[`${folder}/.return-meta.json`] = { status: task % 100 === 0 ? "implemented" : "researched", artifacts: task % 100 === 0 ? [] : [{ type: "report", path: `${folder}/reports/research-001.md`, summary: "Research report" }], metadata: { session_id: "sess_1736700000_abc123", agent_type: "lean-research-agent", delegation_depth: 1, delegation_path: ["orchestrator", "research", "lean-research-agent"] } };
      if (task % 100 !== 0) files[`${folder}/reports/research-001.md`] = "# Findings\n";
    }
    const root = repository(files);
    returnlint(["init", "claude", "--vendor"], { cwd: root });
    const vendored = spawnSync(process.execPath, [path.join(root, ".claude", "hooks", "returnlint.cjs"), "scan", "--quiet", "--format", "json"], { cwd: root, encoding: "utf8", timeout: 30_000 });
    expect(vendored.stderr).toBe("");
    expect(vendored.status).toBe(1);
    const failed = (JSON.parse(vendored.stdout) as { source: string; phantom: boolean }[]).map(({ source, phantom }) => ({ source, phantom }));
    expect(failed.map(({ source }) => source).sort()).toEqual(Array.from({ length: 11 }, (_, index) => `specs/${String((index + 1) * 100)}_task/.return-meta.json`).sort());
    expect(failed.every(({ phantom }) => phantom)).toBe(true);
    expect(returnlint(["scan", "--quiet", "--format", "json"], { cwd: root }).stdout).toBe(vendored.stdout);
    const caches = path.join(root, ".claude", "hooks", ".returnlint-cache");
    const [folder] = readdirSync(caches).filter((name) => name !== ".gitignore");
    expect(readdirSync(path.join(caches, folder ?? ""))).toContain("chunks-find-thread.cjs");
    // Where the thread's script cannot be written, the scan walks in its own thread: the same report.
    rmSync(caches, { recursive: true });
    writeFileSync(caches, "not a folder");
    const alone = spawnSync(process.execPath, [path.join(root, ".claude", "hooks", "returnlint.cjs"), "scan", "--quiet", "--format", "json"], { cwd: root, encoding: "utf8", timeout: 30_000 });
    expect(alone.stdout).toBe(vendored.stdout);
  });

  it("updates a copy of another version when run again, and changes nothing when it is this one", () => {
    const root = repository({ ".claude/hooks/returnlint.cjs": "// returnlint 0.0.9\n" });
    expect(returnlint(["init", "claude", "--vendor"], { cwd: root }).stdout).toContain("Updated .claude/hooks/returnlint.cjs, returnlint 0.1.0's loader, which the hook runs.\n");
    expect(readFileSync(path.join(root, ".claude", "hooks", "returnlint.cjs"))).toEqual(readFileSync(VENDORED));
    expect(readFileSync(path.join(root, ".claude", "hooks", "returnlint.pack"))).toEqual(readFileSync(VENDORED.replace(/\.cjs$/, ".pack")));
    expect(returnlint(["init", "claude", "--vendor"], { cwd: root }).stdout).toBe(".claude/settings.json already runs returnlint; nothing to change.\n");
  });

  it("the copy sets up another project with itself", () => {
    const first = repository();
    returnlint(["init", "claude", "--vendor"], { cwd: first });
    const second = repository();
    const run = spawnSync(process.execPath, [path.join(first, ".claude", "hooks", "returnlint.cjs"), "init", "claude"], { cwd: second, encoding: "utf8" });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(readFileSync(path.join(second, ".claude", "hooks", "returnlint.cjs"))).toEqual(readFileSync(VENDORED));
    expect(readFileSync(path.join(second, ".claude", "hooks", "returnlint.pack"))).toEqual(readFileSync(VENDORED.replace(/\.cjs$/, ".pack")));
    expect(JSON.parse(runHook(second, PHANTOM).stdout)).toMatchObject({ decision: "block" });
  });

  it("never writes outside the project root: a .claude/hooks that is a symlink is refused, exit 2", () => {
    const outside = project({});
    const root = repository();
    mkdirSync(path.join(root, ".claude"), { recursive: true });
    symlinkSync(outside, path.join(root, ".claude", "hooks"));
    const run = returnlint(["init", "claude", "--vendor"], { cwd: root });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^returnlint: .*\.claude\/hooks\/returnlint\.cjs/);
    expect(readdirSync(outside)).toEqual([]);
  });

  it("moves a hook written before (npx) to the new command, keeping its options", () => {
    const root = repository({
      ".claude/settings.json": { hooks: { SubagentStop: [{ matcher: "lean-research-agent", hooks: [{ type: "command", command: "npx --no-install returnlint hook claude --max-blocks 2", timeout: 30 }] }] } },
    });
    const run = returnlint(["init", "claude", "--vendor"], { cwd: root });
    expect(run.stdout).toContain(`Updated the returnlint hook's command in .claude/settings.json ("node "\${CLAUDE_PROJECT_DIR:-.}"/.claude/hooks/returnlint.cjs hook claude --max-blocks 2").`);
    expect(settingsOf(root).hooks.SubagentStop).toEqual([
      { matcher: "lean-research-agent", hooks: [{ type: "command", command: 'node "${CLAUDE_PROJECT_DIR:-.}"/.claude/hooks/returnlint.cjs hook claude --max-blocks 2', timeout: 30 }] },
    ]);
  });
});

describe("returnlint init claude where returnlint is installed in node_modules", SLOW, () => {
  it("runs the project's own copy with node, and writes no file of its own", () => {
    const root = repository({ "package.json": { name: "p", private: true, devDependencies: { returnlint: "^0.1.0" } } });
    mkdirSync(path.join(root, "node_modules"));
    // The package as npm installs it: this build's apps/cli (dist/ is what it ships).
    symlinkSync(path.join(REPO, "apps", "cli"), path.join(root, "node_modules", "returnlint"));
    const init = returnlint(["init", "claude"], { cwd: root });
    expect(init.stdout).toContain("Next: keep returnlint in the project's devDependencies: the hook runs node_modules/returnlint with node\n");
    expect(commandOf(root)).toBe('node "${CLAUDE_PROJECT_DIR:-.}"/node_modules/returnlint/dist/returnlint.cjs hook claude');
    expect(existsSync(path.join(root, ".claude", "hooks"))).toBe(false);
    expect(runHook(root, GOOD)).toEqual({ status: 0, stdout: "", stderr: "" });
    expect(JSON.parse(runHook(root, PHANTOM).stdout)).toMatchObject({ decision: "block" });
  });

  it("the Claude Code plugin's hook is the command init writes, so a plugin's stop costs what init's does", () => {
    const root = repository({ "package.json": { name: "p", private: true } });
    mkdirSync(path.join(root, "node_modules"));
    symlinkSync(path.join(REPO, "apps", "cli"), path.join(root, "node_modules", "returnlint"));
    expect(returnlint(["init", "claude"], { cwd: root }).status).toBe(0);
    const plugin = JSON.parse(readFileSync(path.join(REPO, "claude-plugin", "hooks", "hooks.json"), "utf8")) as { hooks: { SubagentStop: { hooks: { command: string }[] }[] } };
    expect(plugin.hooks.SubagentStop.map((entry) => entry.hooks.map((hook) => hook.command))).toEqual([[commandOf(root)]]);
  });
});

// A space in the project's path: the written command quotes it.
it("the written command works in a project whose path has a space in it", SLOW, () => {
  const parent = project({});
  const root = path.join(parent, "my project");
  mkdirSync(root);
  writeFileSync(path.join(root, "README.md"), "# p\n");
  mkdirSync(path.join(root, "specs", "259_prove_lemma", "reports"), { recursive: true });
  writeFileSync(path.join(root, REPORT), "# Research Report\n\nDone.\n");
  expect(returnlint(["init", "claude", "--vendor"], { cwd: root }).status).toBe(0);
  expect(runHook(root, GOOD, { cwd: parent })).toEqual({ status: 0, stdout: "", stderr: "" });
});
