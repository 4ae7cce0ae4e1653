import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codexHookHash, codexHookKey } from "../../apps/cli/src/commands/codex-config.js";
import { codexAgentFile, codexBuiltInAgents, codexHooks, codexPhantomThenFixed, recordHookRuns, runCodex, writeCodexHome, CODEX_ROLE_PROMPTS } from "./codex.js";
import { jsonSnippet } from "./docs.js";
import { CLI, cleanUp, linkWorkspaceCli, readJson, tempDir, writeFiles } from "./hosts.js";
import { startModelServer, type ModelServer } from "./model-server.js";
import { PARENT_PROMPT, REPORT, RESEARCHER_PROMPT, WRITE_REPORT } from "./scenarios.js";

// The real Codex 0.169.0 (`codex exec`) against the scripted model, with the settings
// `returnlint init codex` writes, trusted as Codex's own /hooks review trusts them. What the hook
// did is read from what Codex sent the model next, the files on disk and the verdicts.

let server: ModelServer;

beforeAll(async () => {
  server = await startModelServer();
});

afterAll(async () => {
  await server.close();
  cleanUp();
});

const BIN = path.join(CLI, "dist", "returnlint.cjs");

/** A project with the docs' three agents as Codex roles and returnlint installed, set up by `returnlint init codex`. */
function project(options: { readonly agents?: boolean; readonly files?: Readonly<Record<string, unknown>>; readonly install?: (root: string) => void } = {}): string {
  const root = tempDir("codex");
  writeFiles(root, {
    ...(options.agents === false
      ? {}
      : {
          ".codex/agents/lean-research-agent.toml": codexAgentFile("lean-research-agent", RESEARCHER_PROMPT),
          ".codex/agents/planner.toml": codexAgentFile("planner", "You plan tasks."),
          ".codex/agents/implementer.toml": codexAgentFile("implementer", "You implement plans."),
        }),
    ...options.files,
  });
  (options.install ?? linkWorkspaceCli)(root);
  const init = spawnSync(process.execPath, [BIN, "init", "codex"], { cwd: root, encoding: "utf8" });
  expect(init.status, init.stderr).toBe(0);
  return root;
}

function verdicts(root: string): Record<string, Record<string, unknown>> {
  const dir = path.join(root, ".returnlint", "verdicts");
  if (!existsSync(dir)) return {};
  return Object.fromEntries(readdirSync(dir).map((name) => [name, readJson(path.join(dir, name))]));
}

/** `returnlint doctor --host codex` in the project, with Codex's home where the test keeps it. */
function doctor(root: string, home: string): { status: number | null; stdout: string } {
  const run = spawnSync(process.execPath, [BIN, "doctor", "--host", "codex"], { cwd: root, encoding: "utf8", env: { ...process.env, CODEX_HOME: home, HOME: home } });
  return { status: run.status, stdout: run.stdout };
}

describe("Codex 0.169.0 with returnlint hook codex", () => {
  it("runs the hook init codex writes once it is trusted: a phantom return is blocked, the reason reaches the subagent, it writes the report, the hook passes", async () => {
    const root = project();
    // The settings of docs/hosts.md are the ones init wrote and Codex runs.
    expect(readJson(path.join(root, ".codex", "hooks.json"))).toEqual(jsonSnippet("codex-hooks"));
    const home = tempDir("codex-home");
    writeCodexHome(home, server, [root]);

    // Codex names and hashes the hook as doctor does; until it is trusted, doctor fails it.
    const [listed, ...others] = await codexHooks(root, home);
    expect(others).toEqual([]);
    const entry = jsonSnippet("codex-hooks") as { hooks: { SubagentStop: { matcher: string; hooks: { command: string; timeout: number }[] }[] } };
    const hook = entry.hooks.SubagentStop[0];
    expect(listed).toMatchObject({ eventName: "subagentStop", trustStatus: "untrusted", key: codexHookKey(path.join(root, ".codex", "hooks.json"), 0, 0) });
    expect(listed?.currentHash).toBe(codexHookHash(hook?.matcher, { command: hook?.hooks[0]?.command ?? "", timeout: hook?.hooks[0]?.timeout ?? 0 }));
    const untrusted = doctor(root, home);
    expect(untrusted.stdout).toContain("✗ Codex has not trusted the returnlint hook: it skips it without a word");
    expect(untrusted.stdout.match(/^ {2}✗/gm)).toHaveLength(1);
    expect(untrusted.status).toBe(1);
    await codexHooks(root, home, true);
    expect(doctor(root, home)).toEqual({ status: 0, stdout: expect.stringContaining("✓ Codex trusts the returnlint hook as it is now") as unknown });
    expect(doctor(root, home).stdout).toContain("Every host checked can run returnlint.");

    server.play(codexPhantomThenFixed());
    const run = await runCodex(root, PARENT_PROMPT, home);
    expect(run.status, run.stderr).toBe(0);
    const subagent = server.of("lean-research-agent");
    expect(subagent.map((request) => request.turn)).toEqual(["subagent returns", "subagent writes the report it was told is missing", "subagent returns"]);
    // The block's reason is the subagent's next input, inside Codex's hook prompt.
    expect(subagent[1]?.input).toContain('<hook_prompt hook_run_id="subagent-stop:0:');
    expect(subagent[1]?.input).toContain("returnlint: Your final message's return failed validation for /research (1 problem, attempt 1):");
    expect(subagent[1]?.input).toContain(`\n- /artifacts/0/path: ${WRITE_REPORT}\n`);
    expect(readFileSync(path.join(root, REPORT), "utf8")).toContain("The lemmas are in place.");
    const all = Object.entries(verdicts(root));
    expect(all).toHaveLength(1);
    const [name, verdict] = all[0] ?? ["", {}];
    expect(verdict).toMatchObject({ ok: true, status: "completed", command: "research", agentType: "lean-research-agent", attempts: 2, decision: "pass", origin: "fenced" });
    expect(name).toBe(`lean-research-agent--${String(verdict.agentId)}.json`);
    // The parent got the corrected return.
    expect(server.of("main").at(-1)?.input).toContain(REPORT);
  });

  it("never blocks a good return", async () => {
    const root = project({ files: { [REPORT]: "# Research\n\nWritten before.\n" } });
    const home = tempDir("codex-home");
    writeCodexHome(home, server, [root]);
    await codexHooks(root, home, true);
    server.play(codexPhantomThenFixed());
    const run = await runCodex(root, PARENT_PROMPT, home);
    expect(run.status, run.stderr).toBe(0);
    expect(server.of("lean-research-agent").map((request) => request.turn)).toEqual(["subagent returns"]);
    expect(Object.values(verdicts(root))).toEqual([expect.objectContaining({ ok: true, attempts: 1, decision: "pass" })]);
  });

  it("leaves Codex's own default, worker and explorer alone: the hook runs for each (no matcher) and lets it stop", async () => {
    const log = path.join(tempDir("codex-log"), "hook-runs.jsonl");
    const root = project({ agents: false, install: (dir) => { recordHookRuns(dir, BIN, log); } });
    expect(readJson(path.join(root, ".codex", "hooks.json"))).toMatchObject({ hooks: { SubagentStop: [{ hooks: [{ command: expect.stringContaining("node_modules/returnlint/dist/returnlint.cjs hook codex") as unknown }] }] } });
    const home = tempDir("codex-home");
    writeCodexHome(home, server, [root]);
    await codexHooks(root, home, true);
    server.play(codexBuiltInAgents());
    const run = await runCodex(root, "Use Codex's own agents on task 259.", home);
    expect(run.status, run.stderr).toBe(0);
    for (const prompt of Object.values(CODEX_ROLE_PROMPTS)) expect(server.requests.filter((request) => request.input.includes(prompt))).toHaveLength(1);
    const runs = readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { agent: string; status: number; stdout: string });
    expect(runs.map((entry) => entry.agent).sort()).toEqual(["default", "explorer", "worker"]);
    for (const entry of runs) expect(entry).toMatchObject({ status: 0, stdout: "" });
    expect(existsSync(path.join(root, ".returnlint"))).toBe(false);
  });

  it("skips an untrusted hook without a word, which doctor catches", async () => {
    const root = project();
    const home = tempDir("codex-home");
    writeCodexHome(home, server, [root]);
    server.play(codexPhantomThenFixed());
    const run = await runCodex(root, PARENT_PROMPT, home);
    expect(run.status, run.stderr).toBe(0);
    // The phantom return went straight to the parent: no block, no verdict, no report.
    expect(server.of("lean-research-agent").map((request) => request.turn)).toEqual(["subagent returns"]);
    expect(verdicts(root)).toEqual({});
    expect(existsSync(path.join(root, REPORT))).toBe(false);
    expect(doctor(root, home)).toEqual({ status: 1, stdout: expect.stringContaining("✗ Codex has not trusted the returnlint hook") as unknown });
    // A project Codex does not trust loses its hooks the same way.
    const untrustedProject = tempDir("codex-home");
    writeCodexHome(untrustedProject, server, []);
    expect(await codexHooks(root, untrustedProject)).toEqual([]);
    expect(doctor(root, untrustedProject)).toEqual({ status: 1, stdout: expect.stringContaining("✗ Codex does not trust this project") as unknown });
  });
});
