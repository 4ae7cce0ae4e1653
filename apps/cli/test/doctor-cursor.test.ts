// The Cursor doctor's checks (apps/cli/src/doctor/cursor.ts), run on real project folders: each
// setup that cannot work fails with a line naming what to fix; a correct one is all ok.
import { mkdirSync, symlinkSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isReturnlintError, type LoadedConfig } from "@returnlint/core";
import { loadReturnlintConfig } from "@returnlint/api";
import { cursorDoctor } from "../src/doctor/cursor.js";
import type { DoctorContext, DoctorLine } from "../src/doctor/host-doctor.js";
import { project, REPO } from "./helpers.js";
import { agentMarkdown } from "@returnlint/testing";

const INSTALLED = 'node "${CURSOR_PROJECT_DIR:-.}"/node_modules/returnlint/dist/returnlint.cjs hook cursor';
const AGENTS = { ".cursor/agents/lean-research-agent.md": agentMarkdown("lean-research-agent"), ".cursor/agents/planner.md": agentMarkdown("planner") };

/** What `init cursor` writes for AGENTS, with `entry` changing our entry's members. */
function hooksFile(entry: Readonly<Record<string, unknown>> = {}, events: Readonly<Record<string, unknown>> = {}): Record<string, unknown> {
  return { version: 1, hooks: { subagentStop: [{ matcher: "^(lean-research-agent|planner)$", command: INSTALLED, timeout: 30, loop_limit: 10, ...entry }], ...events } };
}

/** A project with returnlint installed in node_modules (this build), AGENTS and `files`. */
function installed(files: Readonly<Record<string, unknown>>): string {
  const root = project({ ...AGENTS, ...files });
  mkdirSync(path.join(root, "node_modules"), { recursive: true });
  symlinkSync(path.join(REPO, "apps", "cli"), path.join(root, "node_modules", "returnlint"));
  return root;
}

async function contextOf(root: string): Promise<DoctorContext> {
  let config: LoadedConfig | undefined;
  let configError: string | undefined;
  try {
    config = await loadReturnlintConfig({ cwd: root });
  } catch (error) {
    if (!isReturnlintError(error)) throw error;
    configError = error.message;
  }
  return { root, config, ...(configError === undefined ? {} : { configError }), env: { PATH: process.env.PATH } };
}

async function check(root: string): Promise<readonly DoctorLine[]> {
  return await cursorDoctor.check(await contextOf(root));
}

const levels = (lines: readonly DoctorLine[]) => lines.map((line) => line.level);
const said = (lines: readonly DoctorLine[], level: DoctorLine["level"]) => lines.filter((line) => line.level === level).map((line) => line.text);

describe("the Cursor doctor", { timeout: 60_000 }, () => {
  it("passes the setup init cursor writes, naming the agents, having run its command once", async () => {
    const lines = await check(installed({ ".cursor/hooks.json": hooksFile() }));
    expect(levels(lines)).toEqual(["ok", "ok", "ok", "ok"]);
    expect(lines.map((line) => line.text)).toEqual([
      '.cursor/hooks.json runs returnlint when a subagent stops (subagentStop, matcher "^(lean-research-agent|planner)$")',
      "the hook runs for lean-research-agent (/research) and planner (/plan)",
      expect.stringMatching(/^the hook command runs from the project \(tried with a stop of an agent it leaves alone: exit 0 in \d+ ms\)$/),
      "loop_limit is 10, at least the hook's --max-blocks (3): returnlint's own bound comes first",
    ]);
  });

  it("is present only where the project has a hooks file", () => {
    const env = { PATH: process.env.PATH };
    expect(cursorDoctor.present({ root: project({ ".cursor/hooks.json": hooksFile() }), config: undefined, env })).toBe(true);
    expect(cursorDoctor.present({ root: project(AGENTS), config: undefined, env })).toBe(false);
  });

  it.each([
    ["no hooks file", {}, 'there is no .cursor/hooks.json: Cursor runs no hook in this project; run "returnlint init cursor"'],
    ["a hooks file that is not JSON", { ".cursor/hooks.json": '{ "version": 1,' }, ".cursor/hooks.json is not JSON ("],
    ["a hooks file of another version", { ".cursor/hooks.json": { ...hooksFile(), version: 2 } }, '.cursor/hooks.json says "version": 2: Cursor reads hooks files of version 1 and runs none of these; set "version": 1'],
    ["a hooks file without a version", { ".cursor/hooks.json": { hooks: hooksFile().hooks } }, '.cursor/hooks.json has no "version": Cursor reads hooks files of version 1'],
  ])("fails %s, in one line saying what to do", async (_name, files, text) => {
    const lines = await check(installed(files));
    expect(levels(lines)).toEqual(["fail"]);
    expect(lines[0]?.text).toContain(text);
  });

  it.each([
    ["registered for stop only", { version: 1, hooks: { stop: [{ command: INSTALLED }] } }, ["returnlint is registered for stop too, whose payload carries no final message", 'no subagentStop entry of .cursor/hooks.json runs "returnlint hook cursor": subagents stop unchecked']],
    ["registered under Claude Code's event name", { version: 1, hooks: { SubagentStop: [{ command: INSTALLED }] } }, ['registers returnlint under "SubagentStop", Claude Code\'s name: Cursor\'s event is "subagentStop"', "no subagentStop entry"]],
    ["running Claude Code's hook", hooksFile({ command: INSTALLED.replace("hook cursor", "hook claude") }), ['runs "returnlint hook claude" on subagentStop: that is the hook for another host', "no subagentStop entry"]],
  ])("fails returnlint %s, saying why subagents stop unchecked", async (_name, hooks, texts) => {
    const lines = await check(installed({ ".cursor/hooks.json": hooks }));
    expect(said(lines, "fail").length).toBeGreaterThan(0);
    const all = lines.map((line) => line.text).join("\n");
    for (const text of texts) expect(all).toContain(text);
    expect(said(lines, "ok")).toEqual([]);
  });

  it("fails a command that cannot run from the project, with the reason the shell gave", async () => {
    const root = project({ ...AGENTS, ".cursor/hooks.json": hooksFile() });
    const lines = await check(root);
    expect(said(lines, "fail")).toEqual([
      `the hook command does not run as a hook from the project (tried with a stop of an agent it leaves alone: exit 1, "Error: Cannot find module '${path.join(root, "node_modules/returnlint/dist/returnlint.cjs")}'"): ${INSTALLED}`,
    ]);
  });

  it("fails a matcher that leaves out an agent returnlint checks, naming it, and one that is no regular expression", async () => {
    const narrow = await check(installed({ ".cursor/hooks.json": hooksFile({ matcher: "^planner$" }), "returnlint.config.json": { agents: { "proof-writer": "implement" } } }));
    expect(said(narrow, "fail")).toEqual(['the subagentStop matcher "^planner$" does not take lean-research-agent (/research) and proof-writer (/implement): they stop unchecked; run "returnlint init cursor" to rebuild the matcher']);
    expect(said(narrow, "ok")).toContain("the hook runs for planner (/plan)");
    const broken = await check(installed({ ".cursor/hooks.json": hooksFile({ matcher: "^(planner" }) }));
    expect(said(broken, "fail")[0]).toMatch(/^the matcher "\^\(planner" is no regular expression \(.*\): Cursor rejects the hooks file/);
  });

  it("fails a config that does not load: the hook checks nothing", async () => {
    const lines = await check(installed({ ".cursor/hooks.json": hooksFile(), "returnlint.config.json": "{ not json" }));
    expect(said(lines, "fail")[0]).toMatch(/^returnlint's config cannot be loaded, so the hook checks nothing and says so at every stop: .*returnlint\.config\.json/);
  });

  it("warns, without failing, about what works but costs or misses something", async () => {
    const root = installed({
      ".cursor/hooks.json": hooksFile({ matcher: undefined, loop_limit: 2, command: "npx --no-install returnlint hook cursor" }, { stop: [{ command: INSTALLED }] }),
      ".cursor/environment.json": { install: "npm install" },
      "returnlint.config.json": { agents: { explore: "research" } },
    });
    mkdirSync(path.join(root, "node_modules", ".bin"));
    symlinkSync("../returnlint/dist/returnlint.cjs", path.join(root, "node_modules", ".bin", "returnlint"));
    const lines = await check(root);
    expect(said(lines, "fail")).toEqual([]);
    expect(said(lines, "warn")).toEqual([
      "returnlint is registered for stop too, whose payload carries no final message: every stop of the main agent goes through with a sentence; remove that entry",
      'the config\'s "agents" map sends the host\'s built-in agent explore to /research: it answers in prose by design and will be sent back; remove the entry unless that is what you want',
      'the hook command starts npx, which costs every stop about ten times what "node" on returnlint\'s file does; "returnlint init cursor" writes the node command',
      "loop_limit is 2, below the hook's --max-blocks (3): Cursor stops delivering returnlint's follow-ups after 2, and the failing return then reaches the parent though its verdict says \"block\"; raise loop_limit",
      "this project sets up Cursor's cloud agents (.cursor/environment.json), which run no stop hooks: their subagents' returns are never checked there; gate that work on \"returnlint check\"",
    ]);
    expect(said(lines, "ok")).toContain("the hook runs for explore (/research), lean-research-agent (/research) and planner (/plan)");
  });

  it("warns when no agent maps to a command, when loop_limit is null, and reads --max-blocks from the command", async () => {
    const none = await check(installed({ ".cursor/hooks.json": hooksFile({ matcher: undefined }), ".cursor/agents/lean-research-agent.md": agentMarkdown("helper", "prose"), ".cursor/agents/planner.md": agentMarkdown("reviewer", "prose") }));
    expect(said(none, "warn")).toEqual([expect.stringMatching(/^no agent of \.cursor\/agents\/ or of the config's "agents" map maps to a command, so the hook goes by each subagent's name/)]);
    const unbounded = await check(installed({ ".cursor/hooks.json": hooksFile({ loop_limit: null }) }));
    expect(said(unbounded, "warn")[0]).toMatch(/^loop_limit is null: nothing on Cursor's side bounds the follow-ups/);
    const raised = await check(installed({ ".cursor/hooks.json": hooksFile({ loop_limit: undefined, command: `${INSTALLED} --max-blocks 6` }) }));
    expect(said(raised, "warn")).toEqual(["loop_limit is unset (Cursor's default, 5), below the hook's --max-blocks (6): Cursor stops delivering returnlint's follow-ups after 5, and the failing return then reaches the parent though its verdict says \"block\"; raise loop_limit"]);
  });
});
