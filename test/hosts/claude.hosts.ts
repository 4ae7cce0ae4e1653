import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { agentFile, runClaude } from "./claude.js";
import { jsonSnippet } from "./docs.js";
import { CLI, cleanUp, linkWorkspaceCli, quietEnv, readJson, run as runProgram, tempDir, writeFiles } from "./hosts.js";
import { startModelServer, type ModelServer } from "./model-server.js";
import {
  alwaysPhantom,
  BUILT_IN_PROMPTS,
  builtInAgents,
  headlessPhantomThenFixed,
  metadataFileReturn,
  PARENT_PROMPT,
  phantomThenFixed,
  REPORT,
  RESEARCH_TASK,
  RESEARCHER_PROMPT,
  TASK_DIR,
  WRITE_REPORT,
} from "./scenarios.js";

// The real Claude Code, headless, against the scripted model: what the hook does is read
// from what Claude Code sent the model next, the files on disk and the verdicts.

let server: ModelServer;
let home: string;
const registry = inject("registry");

beforeAll(async () => {
  server = await startModelServer();
  home = tempDir("claude-home");
});

afterAll(async () => {
  await server.close();
  cleanUp();
});

/** The settings of docs/hosts.md, with the matcher swapped when a test says so. */
function docsSettings(matcher?: string): Record<string, unknown> {
  const settings = jsonSnippet("claude-settings") as { hooks: { SubagentStop: { matcher?: string }[] } };
  if (matcher !== undefined) for (const entry of settings.hooks.SubagentStop) entry.matcher = matcher;
  return settings;
}

/** A project with the docs' three agents, the given settings and config, and returnlint installed. */
function project(settings: unknown, files: Readonly<Record<string, unknown>> = {}): string {
  const root = tempDir("claude");
  writeFiles(root, {
    ".claude/settings.json": settings,
    ".claude/agents/lean-research-agent.md": agentFile("lean-research-agent", RESEARCHER_PROMPT),
    ".claude/agents/planner.md": agentFile("planner", "You plan tasks."),
    ".claude/agents/implementer.md": agentFile("implementer", "You implement plans."),
    ...files,
  });
  linkWorkspaceCli(root);
  return root;
}

function verdicts(root: string): Record<string, Record<string, unknown>> {
  const dir = path.join(root, ".returnlint", "verdicts");
  if (!existsSync(dir)) return {};
  return Object.fromEntries(readdirSync(dir).map((name) => [name, readJson(path.join(dir, name))]));
}

/** The one verdict a run left, by its file name. */
function onlyVerdict(root: string): [string, Record<string, unknown>] {
  const all = Object.entries(verdicts(root));
  expect(all).toHaveLength(1);
  return all[0] as [string, Record<string, unknown>];
}

const claude = (root: string, prompt = PARENT_PROMPT, args: readonly string[] = []) => runClaude(root, prompt, { server, home, registry, args });

/** `returnlint doctor --host claude` in the project, as a user runs it when nothing happens. */
const doctor = (root: string) => runProgram(process.execPath, [path.join(CLI, "dist", "returnlint.cjs"), "doctor", "--host", "claude"], { cwd: root, env: quietEnv({ HOME: home }), timeoutMs: 30_000 });

describe("Claude Code 2.1.330 with returnlint hook claude", () => {
  it("blocks a phantom return, the reason reaches the subagent, it writes the report, the hook passes (the docs' settings)", async () => {
    const root = project(docsSettings());
    server.play(phantomThenFixed(root));
    const run = await claude(root);
    expect(run.status, run.stderr).toBe(0);

    const subagent = server.of("lean-research-agent");
    expect(subagent.map((request) => request.turn)).toEqual(["subagent returns", "subagent writes the report it was told is missing", "subagent returns"]);
    // The block reason is the subagent's next input, word for word as the hook wrote it.
    expect(subagent[1]?.input).toContain("Stop hook feedback:");
    expect(subagent[1]?.input).toContain("returnlint: Your final message's return failed validation for /research (1 problem, attempt 1):");
    expect(subagent[1]?.input).toContain(`\n- /artifacts/0/path: ${WRITE_REPORT}\n`);
    expect(readFileSync(path.join(root, REPORT), "utf8")).toContain("The lemmas are in place.");

    const [name, verdict] = onlyVerdict(root);
    expect(name).toMatch(/^lean-research-agent--a[0-9a-f]+\.json$/);
    expect(verdict).toMatchObject({ ok: true, status: "completed", command: "research", agentType: "lean-research-agent", attempts: 2, decision: "pass", origin: "fenced" });
    expect(name).toBe(`lean-research-agent--${String(verdict.agentId)}.json`);
    // The parent got the corrected return.
    expect(server.of("main").at(-1)?.input).toContain(REPORT);
    expect(run.hooks.filter((hook) => hook.event === "SubagentStop").map((hook) => hook.exitCode)).toEqual([0, 0]);
  });

  it("fires with the docs' pattern matcher, and not with a list of name parts (Claude Code reads it as exact names)", async () => {
    const pattern = String(jsonSnippet("claude-matcher-pattern").matcher);
    const withPattern = project(docsSettings(pattern));
    server.play(phantomThenFixed(withPattern));
    await claude(withPattern);
    expect(server.of("lean-research-agent")).toHaveLength(3);
    expect(onlyVerdict(withPattern)[1]).toMatchObject({ ok: true, attempts: 2 });
    const fine = await doctor(withPattern);
    expect(fine.stdout).toContain("  ✓ the hook runs for implementer (/implement), lean-research-agent (/research) and planner (/plan)\n");
    expect(fine.status, fine.stdout).toBe(0);

    const withNames = project(docsSettings("research|plan|implement|revis"));
    server.play(phantomThenFixed(withNames));
    const run = await claude(withNames);
    // The hook never ran: the phantom return went straight to the parent.
    expect(run.hooks.filter((hook) => hook.event === "SubagentStop")).toEqual([]);
    expect(server.of("lean-research-agent")).toHaveLength(1);
    expect(existsSync(path.join(withNames, REPORT))).toBe(false);
    expect(verdicts(withNames)).toEqual({});
    // What the user runs when nothing happened: doctor names the agents the matcher leaves out.
    const told = await doctor(withNames);
    expect(told.stdout).toContain('  ✗ no SubagentStop matcher takes implementer (/implement), lean-research-agent (/research) and planner (/plan): they stop unchecked; run "returnlint init claude" to rebuild the matcher\n');
    expect(told.status).toBe(1);
  });

  it("--max-blocks 1, run from node_modules/.bin as the docs show: blocks once, then lets the next failing attempt stop and records it", async () => {
    // docs/hosts.md's "What a stop costs": the project's own bin, found through CLAUDE_PROJECT_DIR
    // (test/hook-command.test.ts runs the npx half).
    const command = String(jsonSnippet("claude-hook-direct").command);
    const root = project({ hooks: { SubagentStop: [{ matcher: "lean-research-agent", hooks: [{ type: "command", command: command.replaceAll("hook claude", "hook claude --max-blocks 1"), timeout: 30 }] }] } });
    // The project's bin notes each run, and whether npm started it (npx sets npm_command=exec).
    const runs = path.join(root, "bin-runs.txt");
    const bin = path.join(root, "node_modules", ".bin", "returnlint");
    rmSync(bin);
    writeFileSync(bin, `#!/bin/sh\necho "\${npm_command:-direct}" >> '${runs}'\nexec '${process.execPath}' '${path.join(CLI, "dist", "returnlint.cjs")}' "$@"\n`, { mode: 0o755 });
    server.play(alwaysPhantom({ varying: true }));
    await claude(root);
    expect(readFileSync(runs, "utf8")).toBe("direct\ndirect\n");
    expect(server.of("lean-research-agent")).toHaveLength(2);
    expect(onlyVerdict(root)[1]).toMatchObject({ ok: false, attempts: 2, decision: "allow", allowedBecause: "max-blocks", errors: [`Artifact does not exist: ${TASK_DIR}/reports/research-002.md`] });
  });

  it("stops sending the same feedback twice", async () => {
    const root = project(docsSettings());
    server.play(alwaysPhantom({ varying: false }));
    await claude(root);
    expect(server.of("lean-research-agent")).toHaveLength(2);
    expect(onlyVerdict(root)[1]).toMatchObject({ ok: false, attempts: 2, decision: "allow", allowedBecause: "repeated-feedback" });
  });

  it("checks a headless run with the docs' Stop hook", async () => {
    const root = project(jsonSnippet("claude-stop-settings"));
    server.play(headlessPhantomThenFixed(root));
    const run = await claude(root, RESEARCH_TASK);
    expect(run.status, run.stderr).toBe(0);
    const main = server.of("main");
    expect(main.map((request) => request.turn)).toEqual(["agent returns", "agent writes the report it was told is missing", "agent returns"]);
    expect(main[1]?.input).toContain(WRITE_REPORT);
    const [name, verdict] = onlyVerdict(root);
    expect(verdict).toMatchObject({ ok: true, agentType: "lean-research-agent", agentId: null, attempts: 2, decision: "pass" });
    expect(name).toBe(`lean-research-agent--${String(verdict.sessionId)}.json`);
  });

  it("leaves Claude Code's own agents (Plan, Explore, general-purpose) unchecked, with no matcher at all", async () => {
    const root = project({ hooks: { SubagentStop: [{ hooks: [{ type: "command", command: "npx --no-install returnlint hook claude", timeout: 30 }] }] } });
    server.play(builtInAgents());
    const run = await claude(root, "Use the built-in agents on task 259.");
    expect(run.status, run.stderr).toBe(0);
    for (const prompt of Object.values(BUILT_IN_PROMPTS)) expect(server.requests.filter((request) => request.input.includes(prompt))).toHaveLength(1);
    const stops = run.hooks.filter((hook) => hook.event === "SubagentStop");
    expect(stops).toHaveLength(3);
    for (const stop of stops) expect(stop).toMatchObject({ exitCode: 0, stdout: "" });
    expect(existsSync(path.join(root, ".returnlint"))).toBe(false);
  });

  it("validates the metadata file the subagent wrote with the Write tool", async () => {
    const root = project(docsSettings(), { "returnlint.config.json": jsonSnippet("returnlint-config-agents") });
    server.play(metadataFileReturn(root));
    await claude(root);
    const subagent = server.of("lean-research-agent");
    expect(subagent.map((request) => request.turn)).toEqual([
      "subagent writes its metadata file",
      "subagent ends with a summary naming the task",
      "subagent writes the missing report",
      "subagent ends with a summary naming the task",
    ]);
    expect(subagent[2]?.input).toContain(`returnlint: Your return in ${TASK_DIR}/.return-meta.json failed validation for /research`);
    const [name, verdict] = onlyVerdict(root);
    expect(name).toBe("task-259.json");
    expect(verdict).toMatchObject({ ok: true, status: "researched", task: "259", origin: "file", source: `${TASK_DIR}/.return-meta.json`, attempts: 2, decision: "pass" });
  });

  it("--fail-closed with a broken config: the ledger stops the loop after one block, not Claude Code's limit", async () => {
    const root = project(
      { hooks: { SubagentStop: [{ matcher: "lean-research-agent", hooks: [{ type: "command", command: "npx --no-install returnlint hook claude --fail-closed", timeout: 30 }] }] } },
      { "returnlint.config.json": { rules: { "status-enun": "error" } } },
    );
    server.play(alwaysPhantom({ varying: false }));
    const run = await claude(root);
    const subagent = server.of("lean-research-agent");
    expect(subagent).toHaveLength(2);
    expect(subagent[1]?.input).toContain('rules.status-enun: unknown rule "status-enun"');
    expect(run.hooks.filter((hook) => hook.event === "SubagentStop").map((hook) => hook.exitCode)).toEqual([2, 0]);
    expect(onlyVerdict(root)[1]).toMatchObject({ ok: false, attempts: 2, decision: "allow", allowedBecause: "repeated-feedback" });
    expect(readJson(path.join(root, ".returnlint", "ledger.json"))).toMatchObject({ version: 1 });
  });
});
