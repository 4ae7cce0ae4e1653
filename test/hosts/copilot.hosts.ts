import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COPILOT_BUILT_INS, copilotAgentFile, copilotAlwaysPhantom, copilotBuiltIns, copilotPhantomThenFixed, hookRuns, runCopilot } from "./copilot.js";
import { jsonSnippet } from "./docs.js";
import { CLI, cleanUp, linkWorkspaceCli, quietEnv, readJson, tempDir, writeFiles } from "./hosts.js";
import { startModelServer, type ModelServer } from "./model-server.js";
import { PARENT_PROMPT, REPORT, RESEARCHER_PROMPT, WRITE_REPORT } from "./scenarios.js";

// The real GitHub Copilot CLI 1.0.102, `copilot -p`, offline against the scripted model, with the
// hooks `returnlint init copilot` writes. What the hook did is read from what Copilot CLI sent the
// model next, the files on disk, the verdicts, and Copilot CLI's own session log of the hooks it ran.

let server: ModelServer;
/** One home for every run: Copilot CLI unpacks itself there (about 235 MB) on its first run. */
let home: string;

beforeAll(async () => {
  server = await startModelServer();
  home = tempDir("copilot-home");
});

afterAll(async () => {
  await server.close();
  cleanUp();
});

/** `returnlint` as this checkout builds it, in `root`. */
function returnlint(root: string, args: readonly string[], env: Record<string, string | undefined> = {}) {
  return spawnSync(process.execPath, [path.join(CLI, "dist", "returnlint.cjs"), ...args], { cwd: root, env: quietEnv(env), encoding: "utf8", timeout: 60_000 });
}

/** A project with the research agent (and returnlint installed unless `installed` is false), set up by `returnlint init copilot ...args`. */
function project(options: { readonly installed?: boolean; readonly args?: readonly string[]; readonly files?: Readonly<Record<string, unknown>> } = {}): string {
  const root = tempDir("copilot");
  writeFiles(root, { ".github/agents/lean-research-agent.agent.md": copilotAgentFile("lean-research-agent", RESEARCHER_PROMPT), ...options.files });
  if (options.installed !== false) linkWorkspaceCli(root);
  const init = returnlint(root, ["init", "copilot", ...(options.args ?? [])]);
  expect(init.status, init.stderr).toBe(0);
  return root;
}

function verdicts(root: string): Record<string, Record<string, unknown>> {
  const dir = path.join(root, ".returnlint", "verdicts");
  if (!existsSync(dir)) return {};
  return Object.fromEntries(readdirSync(dir).map((name) => [name, readJson(path.join(dir, name))]));
}

function onlyVerdict(root: string): [string, Record<string, unknown>] {
  const all = Object.entries(verdicts(root));
  expect(all).toHaveLength(1);
  return all[0] as [string, Record<string, unknown>];
}

/** A Copilot CLI home of its own (trusted folders, session logs), for one test. */
const copilotHome = () => tempDir("copilot-state");
const copilot = (root: string, state: string, prompt = PARENT_PROMPT, trustFolder = true) => runCopilot(root, prompt, { server, home, copilotHome: state, trustFolder });
const subagentStops = (state: string) => hookRuns(state).filter((hook) => hook.event === "subagentStop");

describe("Copilot CLI 1.0.102 with returnlint hook copilot", () => {
  it("blocks a phantom return, the reason is the subagent's next prompt, it writes the report, the hook passes (init copilot's file, the docs')", async () => {
    const root = project();
    expect(readJson(path.join(root, ".github", "hooks", "returnlint.json"))).toEqual(jsonSnippet("copilot-hooks"));
    const state = copilotHome();
    server.play(copilotPhantomThenFixed(root));
    const run = await copilot(root, state);
    expect(run.status, run.stderr).toBe(0);

    const subagent = server.of("lean-research-agent");
    expect(subagent.map((request) => request.turn)).toEqual(["subagent returns", "subagent writes the report it was told is missing", "subagent returns"]);
    // The block's reason is the subagent's next user message, word for word as the hook wrote it.
    expect(subagent[1]?.input).toContain("returnlint: Your final message's return failed validation for /research (1 problem, attempt 1):");
    expect(subagent[1]?.input).toContain(`\n- /artifacts/0/path: ${WRITE_REPORT}\n`);
    expect(readFileSync(path.join(root, REPORT), "utf8")).toContain("The lemmas are in place.");

    const [name, verdict] = onlyVerdict(root);
    expect(verdict).toMatchObject({ ok: true, status: "completed", command: "research", agentType: "lean-research-agent", attempts: 2, decision: "pass", origin: "fenced" });
    expect(name).toBe(`lean-research-agent--${String(verdict.agentId)}.json`);
    expect(server.of("main").at(-1)?.input).toContain(REPORT);
    // Copilot CLI ran the hook at each of the subagent's two stops, and read the block from the first.
    expect(subagentStops(state).map((hook) => [hook.agent, hook.success, hook.output])).toEqual([
      ["lean-research-agent", true, expect.objectContaining({ decision: "block" })],
      ["lean-research-agent", true, undefined],
    ]);
  });

  it("never blocks a good return (the vendored copy of init copilot --vendor, in a project without returnlint installed)", async () => {
    const root = project({ installed: false, args: ["--vendor"], files: { [REPORT]: "# Research\n\nWritten before.\n" } });
    expect(existsSync(path.join(root, ".github", "hooks", "returnlint.cjs"))).toBe(true);
    const state = copilotHome();
    server.play(copilotPhantomThenFixed(root));
    const run = await copilot(root, state);
    expect(run.status, run.stderr).toBe(0);
    expect(server.of("lean-research-agent").map((request) => request.turn)).toEqual(["subagent returns"]);
    expect(onlyVerdict(root)[1]).toMatchObject({ ok: true, attempts: 1, decision: "pass" });
    expect(subagentStops(state).map((hook) => [hook.agent, hook.success])).toEqual([["lean-research-agent", true]]);
  });

  it("leaves Copilot CLI's own agents alone: each answers once, in prose, and nothing is written", async () => {
    const root = project();
    const state = copilotHome();
    server.play(copilotBuiltIns());
    const run = await copilot(root, state, "Use the built-in agents on task 259.");
    expect(run.status, run.stderr).toBe(0);
    for (const prompt of Object.values(COPILOT_BUILT_INS)) expect(server.requests.filter((request) => request.input.includes(prompt))).toHaveLength(1);
    // The hook ran at every one of their stops and let each through.
    const stops = subagentStops(state);
    expect(stops.map((hook) => hook.agent).sort()).toEqual(Object.keys(COPILOT_BUILT_INS).sort());
    for (const stop of stops) expect(stop).toMatchObject({ success: true, output: undefined });
    expect(existsSync(path.join(root, ".returnlint"))).toBe(false);
  });

  it("gives up after the same feedback twice (Copilot CLI has no limit of its own), and the user sees why as a hook warning", async () => {
    const root = project();
    const state = copilotHome();
    server.play(copilotAlwaysPhantom());
    const run = await copilot(root, state);
    expect(run.status, run.stderr).toBe(0);
    expect(server.of("lean-research-agent")).toHaveLength(2);
    const [name, verdict] = onlyVerdict(root);
    expect(verdict).toMatchObject({ ok: false, attempts: 2, decision: "allow", allowedBecause: "repeated-feedback" });
    expect(run.warnings).toEqual([
      `returnlint hook: gave up after 2 attempts: the problems are the same as the ones last sent back (repeated-feedback): the return of lean-research-agent still fails (1 problem); the verdict in .returnlint/verdicts/${name} records it`,
    ]);
  });

  it("runs Claude Code's hook (init claude) where the project has one, once per stop: init copilot adds none, and attempts are counted once", async () => {
    const root = tempDir("copilot-claude");
    writeFiles(root, { ".claude/agents/lean-research-agent.md": `---\nname: lean-research-agent\ndescription: Researches a task\n---\n${RESEARCHER_PROMPT}\n` });
    linkWorkspaceCli(root);
    expect(returnlint(root, ["init", "claude"]).status).toBe(0);
    const init = returnlint(root, ["init", "copilot"]);
    expect(init.stdout).toContain("Copilot CLI already runs returnlint when a subagent stops: .claude/settings.json (SubagentStop)");
    expect(existsSync(path.join(root, ".github"))).toBe(false);
    const state = copilotHome();
    server.play(copilotPhantomThenFixed(root));
    const run = await copilot(root, state);
    expect(run.status, run.stderr).toBe(0);
    const subagent = server.of("lean-research-agent");
    expect(subagent.map((request) => request.turn)).toEqual(["subagent returns", "subagent writes the report it was told is missing", "subagent returns"]);
    expect(subagent[1]?.input).toContain(`\n- /artifacts/0/path: ${WRITE_REPORT}\n`);
    expect(onlyVerdict(root)[1]).toMatchObject({ ok: true, attempts: 2, decision: "pass" });
    // Copilot CLI sent Claude Code's SubagentStop (it also runs Stop inside the subagent, which init claude does not register).
    expect(hookRuns(state).map((hook) => [hook.event, hook.agent])).toEqual([
      ["subagentStop", "lean-research-agent"],
      ["subagentStop", "lean-research-agent"],
    ]);
  });

  it("an untrusted folder: Copilot CLI skips the hook without a word and doctor says so; once trusted as Copilot CLI records it, the hook runs and doctor passes", async () => {
    const root = project();
    const state = copilotHome();
    const doctorEnv = { HOME: home, COPILOT_HOME: state, COPILOT_ALLOW_ALL: undefined };
    server.play(copilotAlwaysPhantom());
    const untrusted = await copilot(root, state, PARENT_PROMPT, false);
    expect(untrusted.status, untrusted.stderr).toBe(0);
    // The phantom went straight to the parent: no hook ran, nothing was written, nothing was said.
    expect(server.of("lean-research-agent")).toHaveLength(1);
    expect(hookRuns(state)).toEqual([]);
    expect(verdicts(root)).toEqual({});
    expect(untrusted.warnings).toEqual([]);
    const doctor = returnlint(root, ["doctor", "--host", "copilot"], doctorEnv);
    expect(doctor.stdout).toContain(`✗ Copilot CLI does not trust ${root}`);
    expect(doctor.status).toBe(1);

    // What Copilot CLI writes when a user lets it remember the folder.
    const config = path.join(state, "config.json");
    const written = readFileSync(config, "utf8");
    writeFileSync(config, written.replace(/\{/, `{\n  "trustedFolders": [${JSON.stringify(root)}],`));
    expect(returnlint(root, ["doctor", "--host", "copilot"], doctorEnv).status).toBe(0);
    server.play(copilotPhantomThenFixed(root));
    const trusted = await copilot(root, state, PARENT_PROMPT, false);
    expect(trusted.status, trusted.stderr).toBe(0);
    expect(server.of("lean-research-agent")).toHaveLength(3);
    expect(onlyVerdict(root)[1]).toMatchObject({ ok: true, attempts: 2, decision: "pass" });
  });
});
