// `returnlint init cursor` and `returnlint hook cursor`, and the hooks file init writes run the way
// Cursor runs a hook: the command exactly as .cursor/hooks.json holds it, through `sh -c`, in the
// project's root with CURSOR_PROJECT_DIR set, a subagentStop payload on standard input. Cursor's
// agent is not on the npm registry, so the payloads follow its hooks documentation field by field
// (@returnlint/testing's cursor-payloads.ts).
import { spawnSync } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { agentMarkdown, CURSOR_SUBAGENT_ID, cursorSubagentStop, researchReturnText } from "@returnlint/testing";
import { project, REPO, returnlint, STACK_FRAME } from "./helpers.js";

const REPORT = "specs/259_prove_completeness/reports/research-001.md";
const VENDORED = path.join(REPO, "apps", "cli", "dist", "returnlint-vendored.cjs");
const INSTALLED_COMMAND = 'node "${CURSOR_PROJECT_DIR:-.}"/node_modules/returnlint/dist/returnlint.cjs hook cursor';
const VENDORED_COMMAND = 'node "${CURSOR_PROJECT_DIR:-.}"/.cursor/hooks/returnlint.cjs hook cursor';
const WROTE_COPY = "Wrote .cursor/hooks/returnlint.cjs, returnlint 0.1.0's loader, which the hook runs.\nWrote .cursor/hooks/returnlint.pack, returnlint 0.1.0 packed, which its loader unpacks.\n";
const CLOUD = "Cursor's cloud agents run no stop hooks: their subagents' returns are not checked there; gate that work on returnlint check (docs/hosts.md).\n";


interface HooksFile {
  version: number;
  hooks: Record<string, Record<string, unknown>[]>;
}
const hooksOf = (root: string) => JSON.parse(readFileSync(path.join(root, ".cursor", "hooks.json"), "utf8")) as HooksFile;
const ourEntry = (root: string) => hooksOf(root).hooks.subagentStop?.find((entry) => String(entry.command).includes("hook cursor")) ?? {};

/** returnlint as npm installs it in a project: this build's apps/cli. */
function install(root: string): void {
  mkdirSync(path.join(root, "node_modules"), { recursive: true });
  symlinkSync(path.join(REPO, "apps", "cli"), path.join(root, "node_modules", "returnlint"));
}

/** The docs' hooks file (docs/hosts.md, the block marked cursor-hooks-json). */
function documentedHooks(): unknown {
  const docs = readFileSync(path.join(REPO, "docs", "hosts.md"), "utf8");
  return JSON.parse(/<!-- hosts-suite: cursor-hooks-json -->\n```json\n([\s\S]*?)\n```/.exec(docs)?.[1] ?? "null") as unknown;
}

/** A subagentStop of the project at `root`, as Cursor's documentation describes it. */
function subagentStop(root: string, summary: string, subagentId = CURSOR_SUBAGENT_ID): string {
  return JSON.stringify(cursorSubagentStop(root, summary, { subagent_id: subagentId }));
}

/** The hooks file's command, as Cursor runs it: `sh -c` with CURSOR_PROJECT_DIR set (unless null), in `cwd` (default: the root). */
function runAsCursor(root: string, payload: string, options: { cwd?: string; projectDir?: string | null } = {}) {
  const env: Record<string, string | undefined> = { PATH: process.env.PATH, HOME: path.join(root, "..", `${path.basename(root)}-home`) };
  if (options.projectDir !== null) env.CURSOR_PROJECT_DIR = options.projectDir ?? root;
  const run = spawnSync("sh", ["-c", String(ourEntry(root).command)], { cwd: options.cwd ?? root, env, input: payload, encoding: "utf8", timeout: 30_000 });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

// Each test starts returnlint several times on a machine that may be busy.
const SLOW = { timeout: 60_000 };

describe("returnlint init cursor", SLOW, () => {
  it("writes the hooks file the docs show, and what it writes is run by Cursor's shell: a phantom return is sent back, a good one stops", () => {
    const root = project({
      ".cursor/agents/lean-research-agent.md": agentMarkdown("lean-research-agent"),
      ".cursor/agents/planner.md": agentMarkdown("planner"),
      ".cursor/agents/implementer.md": agentMarkdown("implementer"),
      "docs/notes.md": "# Notes\n",
    });
    install(root);
    const init = returnlint(["init", "cursor"], { cwd: root });
    expect(init.stderr).toBe("");
    expect(init.status).toBe(0);
    expect(init.stdout).toBe(
      'Added the returnlint subagentStop hook to .cursor/hooks.json (matcher "^(implementer|lean-research-agent|planner)$").\n' +
        "Next: keep returnlint in the project's devDependencies: the hook runs node_modules/returnlint with node\n" +
        CLOUD,
    );
    expect(hooksOf(root)).toEqual(documentedHooks());
    expect(existsSync(path.join(root, ".cursor", "hooks"))).toBe(false);

    const phantom = runAsCursor(root, subagentStop(root, researchReturnText([REPORT])));
    expect(phantom.stderr).toBe("");
    expect(phantom.status).toBe(0);
    const answer = JSON.parse(phantom.stdout) as Record<string, string>;
    expect(Object.keys(answer)).toEqual(["followup_message"]);
    expect(answer.followup_message).toContain(`- /artifacts/0/path: file "${REPORT}" does not exist; write it, or fix the path.`);

    mkdirSync(path.join(root, path.dirname(REPORT)), { recursive: true });
    spawnSync("sh", ["-c", `echo '# Research' > ${REPORT}`], { cwd: root });
    // From a subfolder, as long as Cursor says where the project is; without it, from the project's root.
    expect(runAsCursor(root, subagentStop(root, researchReturnText([REPORT])), { cwd: path.join(root, "docs") })).toEqual({ status: 0, stdout: "{}\n", stderr: "" });
    expect(runAsCursor(root, subagentStop(root, researchReturnText([REPORT]), "sa_2"), { projectDir: null })).toEqual({ status: 0, stdout: "{}\n", stderr: "" });
    const verdict = JSON.parse(readFileSync(path.join(root, ".returnlint", "verdicts", "lean-research-agent--sa_4e1f2c3b.json"), "utf8")) as Record<string, unknown>;
    expect(verdict).toMatchObject({ ok: true, decision: "pass", attempts: 2 });
  });

  it("writes returnlint in one file where it is not installed (and with --vendor), and runs it with node", () => {
    const root = project({ ".cursor/agents/lean-research-agent.md": agentMarkdown("lean-research-agent") });
    const init = returnlint(["init", "cursor"], { cwd: root });
    expect(init.stdout).toBe(
      `${WROTE_COPY}Added the returnlint subagentStop hook to .cursor/hooks.json (matcher "^(lean-research-agent)$").\n` +
        "Next: commit .cursor/hooks/returnlint.cjs and returnlint.pack with .cursor/hooks.json: Cursor runs it with node, nothing to install\n" +
        CLOUD,
    );
    expect(ourEntry(root)).toEqual({ matcher: "^(lean-research-agent)$", command: VENDORED_COMMAND, timeout: 30, loop_limit: 10 });
    expect(readFileSync(path.join(root, ".cursor", "hooks", "returnlint.cjs"))).toEqual(readFileSync(VENDORED));
    expect(readFileSync(path.join(root, ".cursor", "hooks", "returnlint.pack"))).toEqual(readFileSync(VENDORED.replace(/\.cjs$/, ".pack")));
    expect(JSON.parse(runAsCursor(root, subagentStop(root, researchReturnText([REPORT]))).stdout)).toHaveProperty("followup_message");

    const installed = project({});
    install(installed);
    expect(returnlint(["init", "cursor", "--vendor"], { cwd: installed }).stdout).toContain(WROTE_COPY);
    expect(ourEntry(installed).command).toBe(VENDORED_COMMAND);
  });

  it("merges into the hooks already there, keeping every one of them and the file's other members", () => {
    const existing = {
      version: 1,
      hooks: {
        afterFileEdit: [{ command: "./hooks/format.sh" }],
        stop: [{ command: "node .cursor/hooks/audit.js", loop_limit: 3 }],
        subagentStop: [{ command: "./hooks/notify.sh", matcher: "explore" }],
      },
    };
    const root = project({ ".cursor/hooks.json": existing, ".cursor/agents/planner.md": agentMarkdown("planner") });
    install(root);
    const init = returnlint(["init", "cursor"], { cwd: root });
    expect(init.status).toBe(0);
    expect(hooksOf(root)).toEqual({
      version: 1,
      hooks: { ...existing.hooks, subagentStop: [...existing.hooks.subagentStop, { matcher: "^(planner)$", command: INSTALLED_COMMAND, timeout: 30, loop_limit: 10 }] },
    });
    // A file without a version gets Cursor's, and an event list that is missing is made.
    const bare = project({ ".cursor/hooks.json": { hooks: { stop: [{ command: "x" }] } } });
    install(bare);
    returnlint(["init", "cursor"], { cwd: bare });
    expect(hooksOf(bare)).toEqual({ version: 1, hooks: { stop: [{ command: "x" }], subagentStop: [{ command: INSTALLED_COMMAND, timeout: 30, loop_limit: 10 }] } });
  });

  it("is idempotent; run again it updates the matcher and the command only, keeping the options after hook cursor, the timeout and loop_limit", () => {
    const root = project({ ".cursor/agents/planner.md": agentMarkdown("planner") });
    install(root);
    expect(returnlint(["init", "cursor"], { cwd: root }).status).toBe(0);
    const written = statSync(path.join(root, ".cursor", "hooks.json")).mtimeMs;
    expect(returnlint(["init", "cursor"], { cwd: root })).toEqual({ status: 0, stdout: ".cursor/hooks.json already runs returnlint; nothing to change.\n", stderr: "" });
    expect(statSync(path.join(root, ".cursor", "hooks.json")).mtimeMs).toBe(written);

    // An older entry: npx, options of its own, the user's own bounds; a new agent since.
    const older = project({
      ".cursor/agents/planner.md": agentMarkdown("planner"),
      ".cursor/agents/implementer.md": agentMarkdown("implementer"),
      ".cursor/hooks.json": { version: 1, hooks: { subagentStop: [{ command: "npx --no-install returnlint hook cursor --max-blocks 2", matcher: "planner", timeout: 60, loop_limit: 4 }] } },
    });
    install(older);
    const update = returnlint(["init", "cursor"], { cwd: older });
    expect(update.stdout).toContain(`Updated the returnlint hook's matcher and command in .cursor/hooks.json ("${INSTALLED_COMMAND} --max-blocks 2").\n`);
    expect(hooksOf(older).hooks.subagentStop).toEqual([{ command: `${INSTALLED_COMMAND} --max-blocks 2`, matcher: "^(implementer|planner)$", timeout: 60, loop_limit: 4 }]);
    expect(returnlint(["init", "cursor"], { cwd: older }).stdout).toBe(".cursor/hooks.json already runs returnlint; nothing to change.\n");
  });

  it("--dry-run prints the file it would write and writes nothing", () => {
    const root = project({ ".cursor/agents/planner.md": agentMarkdown("planner") });
    const run = returnlint(["init", "cursor", "--dry-run"], { cwd: root });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("Would write .cursor/hooks/returnlint.cjs, returnlint 0.1.0's loader, which the hook runs (--dry-run: nothing written).");
    expect(run.stdout).toContain('Would add the returnlint subagentStop hook to .cursor/hooks.json (matcher "^(planner)$") (--dry-run: nothing written). .cursor/hooks.json would read:\n{\n  "version": 1,\n  "hooks": {');
    expect(existsSync(path.join(root, ".cursor", "hooks.json"))).toBe(false);
    expect(existsSync(path.join(root, ".cursor", "hooks"))).toBe(false);
  });

  it("edits the target of a symlinked hooks file inside the project, and refuses one that leads outside", () => {
    const root = project({ "config/cursor-hooks.json": { version: 1, hooks: {} }, ".cursor/agents/planner.md": agentMarkdown("planner") });
    install(root);
    symlinkSync("../config/cursor-hooks.json", path.join(root, ".cursor", "hooks.json"));
    expect(returnlint(["init", "cursor"], { cwd: root }).status).toBe(0);
    expect(lstatSync(path.join(root, ".cursor", "hooks.json")).isSymbolicLink()).toBe(true);
    expect(readlinkSync(path.join(root, ".cursor", "hooks.json"))).toBe("../config/cursor-hooks.json");
    expect((JSON.parse(readFileSync(path.join(root, "config", "cursor-hooks.json"), "utf8")) as HooksFile).hooks.subagentStop).toHaveLength(1);

    const outside = project({ "hooks.json": { version: 1, hooks: {} } });
    const linked = project({});
    mkdirSync(path.join(linked, ".cursor"));
    symlinkSync(path.join(outside, "hooks.json"), path.join(linked, ".cursor", "hooks.json"));
    const refused = returnlint(["init", "cursor"], { cwd: linked });
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain("it is a symbolic link to");
    expect(refused.stderr).toContain("outside the project; edit that file yourself, or replace the link with a file. init changes nothing.");
    expect(readFileSync(path.join(outside, "hooks.json"), "utf8")).toBe(`${JSON.stringify({ version: 1, hooks: {} }, null, 2)}\n`);
  });

  it("leaves out the matcher when no agent maps to a command, and lists the config's agents too", () => {
    const bare = project({ ".cursor/agents/helper.md": agentMarkdown("helper") });
    expect(returnlint(["init", "cursor"], { cwd: bare }).stdout).toContain("(no matcher: every subagent, the name rule decides)");
    expect(ourEntry(bare)).toEqual({ command: VENDORED_COMMAND, timeout: 30, loop_limit: 10 });
    const mapped = project({ "returnlint.config.json": { agents: { "team.researcher": "research" } }, ".cursor/agents/helper.md": agentMarkdown("helper") });
    returnlint(["init", "cursor"], { cwd: mapped });
    expect(ourEntry(mapped).matcher).toBe("^(team\\.researcher)$");
  });

  it("leaves a hooks file that is not JSON as it is: exit 2 and a sentence", () => {
    const root = project({ ".cursor/hooks.json": '{ "version": 1, "hooks": ' });
    const run = returnlint(["init", "cursor"], { cwd: root });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^returnlint: Cannot update .*\.cursor\/hooks\.json: it is not JSON \(.*\)\. init changes nothing\.\n$/);
    expect(run.stderr).not.toMatch(STACK_FRAME);
    expect(readFileSync(path.join(root, ".cursor", "hooks.json"), "utf8")).toBe('{ "version": 1, "hooks": ');
  });

  it("takes --vendor and --dry-run, not the other hosts' flags", () => {
    const run = returnlint(["init", "cursor", "--mcp"], { cwd: project({}) });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("--mcp is for returnlint init claude");
    expect(returnlint(["init", "cursor", "--help"]).stdout).toContain("returnlint init cursor [--vendor] [--dry-run]");
  });
});

describe("returnlint hook cursor", SLOW, () => {
  it("answers Cursor's way: a follow-up to fail, {} to pass or to let a stop through, and the sentence on standard error", () => {
    const root = project({});
    const blocked = returnlint(["hook", "cursor"], { input: subagentStop(root, researchReturnText([REPORT])) });
    expect(blocked.status).toBe(0);
    expect((JSON.parse(blocked.stdout) as Record<string, string>).followup_message).toContain("failed validation for /research (1 problem, attempt 1):");
    const broken = returnlint(["hook", "cursor"], { input: "{" });
    expect(broken).toEqual({
      status: 0,
      stdout: "{}\n",
      stderr: "returnlint hook: ignoring a broken hook payload: standard input is not JSON (expected the hook's JSON payload) (the stop goes through; --fail-closed blocks instead)\n",
    });
    const held = returnlint(["hook", "cursor", "--fail-closed"], { input: "{" });
    expect(held.status).toBe(0);
    expect(JSON.parse(held.stdout)).toEqual({ followup_message: "returnlint hook: ignoring a broken hook payload: standard input is not JSON (expected the hook's JSON payload)" });
  });

  it("an unknown option is said Cursor's way: {} and the sentence, never a Claude Code systemMessage", () => {
    const run = returnlint(["hook", "cursor", "--max-blokcs", "2"], { input: subagentStop(project({}), researchReturnText([REPORT])) });
    expect(run.status).toBe(0);
    expect(run.stdout).toBe("{}\n");
    expect(run.stderr).toContain("returnlint hook: ");
    expect(returnlint(["hook", "--help"]).stdout).toContain('  cursor      Cursor: a subagentStop hook (.cursor/hooks.json); a failing\n              return is sent back as {"followup_message":…}');
  });
});

describe("returnlint doctor --host cursor", SLOW, () => {
  const doctor = (root: string, args: readonly string[] = ["--host", "cursor"]) => returnlint(["doctor", ...args], { cwd: root, env: { HOME: project({}) } });

  it("passes the setup init cursor writes (exit 0), and checks Cursor unasked where the project has its hooks file", () => {
    const root = project({ ".cursor/agents/lean-research-agent.md": agentMarkdown("lean-research-agent") });
    expect(returnlint(["init", "cursor"], { cwd: root }).status).toBe(0);
    const run = doctor(root);
    expect(run.stderr).toBe("");
    expect(run.stdout).toMatch(
      /^Cursor \(returnlint hook cursor\)\n {2}✓ \.cursor\/hooks\.json runs returnlint when a subagent stops \(subagentStop, matcher "\^\(lean-research-agent\)\$"\)\n {2}✓ the hook runs for lean-research-agent \(\/research\)\n {2}✓ the hook command runs from the project \(tried with a stop of an agent it leaves alone: exit 0 in \d+ ms\)\n {2}✓ loop_limit is 10, at least the hook's --max-blocks \(3\): returnlint's own bound comes first\n\nEvery host checked can run returnlint\.\n$/,
    );
    expect(run.status).toBe(0);
    expect(doctor(root, [])).toMatchObject({ status: 0, stdout: expect.stringContaining("Cursor (returnlint hook cursor)\n") as unknown });
  });

  const addPlanner = (root: string) => {
    writeFileSync(path.join(root, ".cursor", "agents", "planner.md"), agentMarkdown("planner"));
  };
  const removeCopy = (root: string) => {
    rmSync(path.join(root, ".cursor", "hooks", "returnlint.cjs"));
  };
  const onStopOnly = (root: string) => {
    writeFileSync(path.join(root, ".cursor", "hooks.json"), JSON.stringify({ version: 1, hooks: { stop: [{ command: VENDORED_COMMAND }] } }));
  };
  it.each([
    ["a matcher that leaves out an agent added since", addPlanner, '  ✗ the subagentStop matcher "^(lean-research-agent)$" does not take planner (/plan): it stops unchecked'],
    ["a command that cannot run (the vendored copy not committed)", removeCopy, '  ✗ the hook command does not run as a hook from the project (tried with a stop of an agent it leaves alone: exit 1, "Error: Cannot find module'],
    ["returnlint moved to stop, which carries no final message", onStopOnly, '  ✗ no subagentStop entry of .cursor/hooks.json runs "returnlint hook cursor": subagents stop unchecked; run "returnlint init cursor"'],
  ])("says what cannot work and exits 1: %s", (_name, change, line) => {
    const root = project({ ".cursor/agents/lean-research-agent.md": agentMarkdown("lean-research-agent") });
    expect(returnlint(["init", "cursor"], { cwd: root }).status).toBe(0);
    change(root);
    const run = doctor(root);
    expect(run.stdout).toContain(line);
    expect(run.stdout).toContain("Cursor: cannot run returnlint as set up (the ✗ lines say why).\n");
    expect(run.status).toBe(1);
  });
});
