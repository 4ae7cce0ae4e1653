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

const INSTALLED = 'node "${CURSOR_PROJECT_DIR:-.}"/node_modules/returnlint/dist/returnlint.cjs hook cursor';
const agent = (name: string) => `---\nname: ${name}\ndescription: ${name}\n---\nDo the work.\n`;
const AGENTS = { ".cursor/agents/lean-research-agent.md": agent("lean-research-agent"), ".cursor/agents/planner.md": agent("planner") };

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

describe("the Cursor doctor", () => {
  it("passes the setup init cursor writes, every line ok, naming the agents", async () => {
    const lines = await check(installed({ ".cursor/hooks.json": hooksFile() }));
    expect(levels(lines)).toEqual(["ok", "ok", "ok", "ok", "ok"]);
    expect(lines.map((line) => line.text)).toEqual([
      `returnlint runs when a subagent stops: .cursor/hooks.json registers "${INSTALLED}" for subagentStop.`,
      "The hook's command resolves: node runs node_modules/returnlint/dist/returnlint.cjs.",
      'The matcher "^(lean-research-agent|planner)$" lets through every agent returnlint checks: lean-research-agent, planner.',
      "Cursor's own agents (generalPurpose, explore, shell, …) answer in prose and are left alone.",
      "loop_limit is 10, at least the hook's --max-blocks (3): returnlint's bound comes first.",
    ]);
  });

  it("is present only where the project has a hooks file", () => {
    const env = { PATH: process.env.PATH };
    expect(cursorDoctor.present({ root: project({ ".cursor/hooks.json": hooksFile() }), config: undefined, env })).toBe(true);
    expect(cursorDoctor.present({ root: project(AGENTS), config: undefined, env })).toBe(false);
  });

  it.each([
    ["no hooks file", {}, "There is no .cursor/hooks.json: Cursor runs no hook in this project."],
    ["a hooks file that is not JSON", { ".cursor/hooks.json": '{ "version": 1,' }, ".cursor/hooks.json is not JSON ("],
    ["a hooks file of another version", { ".cursor/hooks.json": { ...hooksFile(), version: 2 } }, '.cursor/hooks.json says "version": 2; Cursor reads hooks files of version 1.'],
    ["returnlint registered for stop only", { ".cursor/hooks.json": { version: 1, hooks: { stop: [{ command: INSTALLED }] } } }, "returnlint is not registered for subagentStop in .cursor/hooks.json (it is registered for stop only, whose payload carries no final message)"],
    ["Claude Code's event name", { ".cursor/hooks.json": { version: 1, hooks: { SubagentStop: [{ command: INSTALLED }] } } }, "(it is registered for SubagentStop, Claude Code's name: Cursor's event is subagentStop)"],
    ["Claude Code's hook", { ".cursor/hooks.json": hooksFile({ command: INSTALLED.replace("hook cursor", "hook claude") }) }, "runs returnlint's Claude Code hook on subagentStop"],
  ])("fails %s, in one line saying what to do", async (_name, files, text) => {
    const lines = await check(installed(files));
    expect(levels(lines)).toEqual(["fail"]);
    expect(lines[0]?.text).toContain(text);
  });

  it("fails a command that does not resolve: returnlint is not installed where it runs node", async () => {
    const lines = await check(project({ ...AGENTS, ".cursor/hooks.json": hooksFile() }));
    expect(said(lines, "fail")).toEqual([
      'Cursor cannot run the hook: node would run node_modules/returnlint/dist/returnlint.cjs, which does not exist. Every subagent stop then fails the hook, and the return reaches the parent unchecked. Run "returnlint init cursor" (it writes a copy of returnlint where none is installed).',
    ]);
    const copy = await check(project({ ...AGENTS, ".cursor/hooks.json": hooksFile({ command: 'node "${CURSOR_PROJECT_DIR:-.}"/.cursor/hooks/returnlint.cjs hook cursor' }) }));
    expect(said(copy, "fail")[0]).toContain("node would run .cursor/hooks/returnlint.cjs, which does not exist");
    const npx = await check(project({ ...AGENTS, ".cursor/hooks.json": hooksFile({ command: "npx --no-install returnlint hook cursor" }) }));
    expect(said(npx, "fail")[0]).toContain("npx finds no returnlint in node_modules");
  });

  it("fails a matcher that leaves out an agent returnlint checks, naming it, and one that is no regular expression", async () => {
    const narrow = await check(installed({ ".cursor/hooks.json": hooksFile({ matcher: "^planner$" }), "returnlint.config.json": { agents: { "proof-writer": "implement" } } }));
    expect(said(narrow, "fail")).toEqual([
      'The matcher "^planner$" leaves out lean-research-agent, proof-writer: Cursor never runs the hook when they stop, so their returns are never checked. Run "returnlint init cursor" to list them.',
    ]);
    const broken = await check(installed({ ".cursor/hooks.json": hooksFile({ matcher: "^(planner" }) }));
    expect(said(broken, "fail")[0]).toMatch(/^The matcher "\^\(planner" is no regular expression \(.*\): Cursor rejects the hooks file\./);
  });

  it("fails a config that does not load: every stop would go through", async () => {
    const lines = await check(installed({ ".cursor/hooks.json": hooksFile(), "returnlint.config.json": "{ not json" }));
    expect(said(lines, "fail")[0]).toMatch(/^returnlint's config cannot be loaded \(.*returnlint\.config\.json.*\): the hook lets every stop through with a sentence\./);
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
      "returnlint is also registered for stop, whose payload carries no final message: every stop of the main agent is let through with a sentence. Remove that entry.",
      'The hook\'s command starts npx, which costs every stop about ten times what "node" on returnlint\'s file does. Run "returnlint init cursor" to write the node command.',
      'The config\'s "agents" map names explore, an agent Cursor ships, which answers in prose: its returns are checked and sent back. Remove it from the map unless you mean it.',
      "loop_limit is 2, below the hook's --max-blocks (3): Cursor stops delivering returnlint's follow-ups after 2, and the failing return then reaches the parent though its verdict says \"block\". Raise loop_limit.",
      "This project sets up Cursor's cloud agents (.cursor/environment.json), which run no stop hooks: their subagents' returns are never checked there. Gate that work on \"returnlint check\" instead.",
    ]);
    expect(said(lines, "ok")).toContain("No matcher: the hook runs for every subagent and checks explore, lean-research-agent, planner; the others map to no command and go through.");
  });

  it("warns when no agent maps to a command, when loop_limit is null, and reads --max-blocks from the command", async () => {
    const none = await check(installed({ ".cursor/hooks.json": hooksFile({ matcher: undefined }), ".cursor/agents/lean-research-agent.md": agent("helper"), ".cursor/agents/planner.md": agent("reviewer") }));
    expect(said(none, "warn")).toEqual(['No agent of this project maps to a command (.cursor/agents/*.md, the config\'s "agents" map): the hook checks nothing. Name your agents in the config\'s "agents" map.']);
    const unbounded = await check(installed({ ".cursor/hooks.json": hooksFile({ loop_limit: null }) }));
    expect(said(unbounded, "warn")[0]).toMatch(/^loop_limit is null: nothing on Cursor's side bounds the follow-ups/);
    const raised = await check(installed({ ".cursor/hooks.json": hooksFile({ loop_limit: undefined, command: `${INSTALLED} --max-blocks 6` }) }));
    expect(said(raised, "warn")).toEqual(["loop_limit is unset (Cursor's default, 5), below the hook's --max-blocks (6): Cursor stops delivering returnlint's follow-ups after 5, and the failing return then reaches the parent though its verdict says \"block\". Raise loop_limit."]);
  });
});
