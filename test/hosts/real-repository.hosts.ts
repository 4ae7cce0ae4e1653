import { execFileSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { commandForAgent, loadReturnlintConfig } from "@returnlint/api";
import { cloneRealRepository, realRepository } from "@returnlint/testing";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { runClaude } from "./claude.js";
import { CLI, cleanUp, linkWorkspaceCli, readJson, tempDir } from "./hosts.js";
import { startModelServer, type ModelServer } from "./model-server.js";
import { copyOf, goodRuns, hookedAgents, PARENT_PROMPT, phantomThenFixed, taskFor, type RealAgent } from "./real-repository.js";
import { BUILT_IN_PROMPTS, builtInAgents } from "./scenarios.js";

// Adoption on a real repository, end to end, as its maintainer would do it: clone it, run
// `returnlint init` and `returnlint init claude`, install returnlint, then let the real Claude Code
// run the repository's own agents (played by the scripted model as their definitions say).
// (`scan` and `audit` on the same clone, with the same config: apps/cli/test/audit-real-history.test.ts.)

const NAME = "ProofChecker";
const bundle = realRepository(NAME);
const returnlint = path.join(CLI, "dist", "returnlint.cjs");

function cli(root: string, args: readonly string[]): { status: number; stdout: string; stderr: string } {
  try {
    return { status: 0, stdout: execFileSync(process.execPath, [returnlint, ...args], { cwd: root, encoding: "utf8", maxBuffer: 256 * 1024 * 1024, stdio: ["ignore", "pipe", "pipe"] }), stderr: "" };
  } catch (error) {
    const failed = error as { status: number | null; stdout: string; stderr: string };
    return { status: failed.status ?? -1, stdout: failed.stdout, stderr: failed.stderr };
  }
}

interface HookEntry {
  readonly matcher?: string;
  readonly hooks: readonly { readonly command: string }[];
}

/** The SubagentStop entry `init claude` added to the project's settings. */
function returnlintHook(root: string): HookEntry {
  const settings = readJson(path.join(root, ".claude", "settings.json")) as { hooks: { SubagentStop: HookEntry[] } };
  const entry = settings.hooks.SubagentStop.find((candidate) => candidate.hooks.some((hook) => hook.command.includes("returnlint")));
  if (entry === undefined) throw new Error("init claude added no SubagentStop hook");
  return entry;
}

function verdicts(root: string): Record<string, Record<string, unknown>> {
  const dir = path.join(root, ".returnlint", "verdicts");
  if (!existsSync(dir)) return {};
  return Object.fromEntries(readdirSync(dir).map((name) => [name, readJson(path.join(dir, name))]));
}

type Install = "installed" | "vendored";

/** The hook command `init claude` writes for each way of installing returnlint (docs/install.md). */
const HOOK_COMMAND: Record<Install, string> = {
  installed: 'node "${CLAUDE_PROJECT_DIR:-.}"/node_modules/returnlint/dist/returnlint.cjs hook claude',
  vendored: 'node "${CLAUDE_PROJECT_DIR:-.}"/.claude/hooks/returnlint.cjs hook claude',
};

describe.skipIf(bundle === undefined)(`${NAME}, cloned from ../shared/repos, end to end (skipped when this machine has no ../shared/repos/${NAME}.bundle)`, () => {
  let server: ModelServer;
  let home: string;
  let clone: string;
  let agents: RealAgent[];
  const registry = inject("registry");

  /**
   * A fresh working copy of the clone, set up as docs/install.md says: returnlint installed in
   * node_modules then `init` and `init claude`, or (a repository that is not a Node project, as
   * this one is) `init` and `init claude --vendor`, with no package.json written.
   */
  function adopted(install: Install = "installed"): string {
    const root = path.join(tempDir("adopted"), NAME);
    copyOf(clone, root);
    if (install === "installed") linkWorkspaceCli(root);
    expect(cli(root, ["init"]).status).toBe(0);
    const hooked = cli(root, ["init", "claude", ...(install === "vendored" ? ["--vendor"] : [])]);
    expect(hooked.status, hooked.stderr).toBe(0);
    return root;
  }

  beforeAll(async () => {
    server = await startModelServer();
    home = tempDir("claude-home");
    clone = path.join(tempDir("clone"), NAME);
    cloneRealRepository(bundle ?? "", clone, "agents");
    const root = adopted();
    const config = await loadReturnlintConfig({ cwd: root });
    agents = hookedAgents(root, returnlintHook(root).matcher ?? "", (agent) => commandForAgent(config, agent));
  }, 300_000);

  afterAll(async () => {
    await server.close();
    cleanUp();
  });

  const claude = (root: string, prompt = PARENT_PROMPT) => runClaude(root, prompt, { server, home, registry });

  it.each(["installed", "vendored"] as const)("init writes one config, and init claude a hook for the agents that return work (%s)", (install) => {
    const root = adopted(install);
    expect(returnlintHook(root).hooks.map((entry) => entry.command)).toEqual([HOOK_COMMAND[install]]);
    expect(existsSync(path.join(root, "package.json"))).toBe(install === "installed");
    // The agents it fires for are the repository's own, and there are several of each kind.
    expect(agents.length).toBeGreaterThanOrEqual(3);
    expect(new Set(agents.map((agent) => agent.command))).toEqual(new Set(["research", "plan", "implement"]));
  });

  it.each(["installed", "vendored"] as const)("the agents as their definitions say (metadata file written, bullets returned): never blocked (%s)", async (install) => {
    const root = adopted(install);
    const tasks = agents.map((agent, index) => taskFor(root, agent, index));
    server.play(goodRuns(root, agents, tasks));
    const run = await claude(root);
    expect(run.status, run.stderr).toBe(0);
    for (const agent of agents) expect(server.of(agent.name).map((request) => request.turn), agent.name).toEqual([`${agent.name} writes its work`, `${agent.name} returns bullets`]);
    const ours = run.hooks.filter((hook) => hook.event === "SubagentStop" && hook.stdout.includes("returnlint"));
    expect(ours).toEqual([]);
    const all = verdicts(root);
    for (const task of tasks) expect(all[`task-${String(task.number)}.json`], task.meta).toMatchObject({ ok: true, origin: "file", source: task.meta, decision: "pass", attempts: 1 });
  });

  it.each(["installed", "vendored"] as const)("an agent whose metadata names a report it never wrote is blocked once, told which file, and passes when it writes it (%s)", async (install) => {
    const root = adopted(install);
    const agent = agents.find((candidate) => candidate.command === "research");
    if (agent === undefined) throw new Error("the hook fires for no research agent");
    const task = taskFor(root, agent, 0);
    server.play(phantomThenFixed(root, agent, task));
    const run = await claude(root);
    expect(run.status, run.stderr).toBe(0);
    const subagent = server.of(agent.name);
    expect(subagent.map((request) => request.turn)).toEqual(["subagent writes only its metadata file", "subagent returns bullets", "subagent writes the artifact it was told is missing", "subagent returns bullets"]);
    expect(subagent[2]?.input).toContain(`returnlint: Your return in ${task.meta} failed validation for /${agent.command} (1 problem, attempt 1):`);
    expect(subagent[2]?.input).toContain(`- /artifacts/0/path: file "${task.artifact}" does not exist; write it, or fix the path.`);
    expect(verdicts(root)[`task-${String(task.number)}.json`]).toMatchObject({ ok: true, source: task.meta, attempts: 2, decision: "pass" });
  });

  it("leaves Claude Code's own agents alone", async () => {
    const root = adopted("vendored");
    server.play(builtInAgents());
    const run = await claude(root, "Use the built-in agents on task 259.");
    expect(run.status, run.stderr).toBe(0);
    for (const prompt of Object.values(BUILT_IN_PROMPTS)) expect(server.requests.filter((request) => request.input.includes(prompt))).toHaveLength(1);
    expect(run.hooks.filter((hook) => hook.event === "SubagentStop" && hook.stdout.includes("returnlint"))).toEqual([]);
    expect(existsSync(path.join(root, ".returnlint"))).toBe(false);
  });
});
