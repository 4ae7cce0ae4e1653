import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { agentFile, runClaude } from "./claude.js";
import { AGENT, BLOCKED, filesUnder, NEVER_RUN, NOTES, recordFixture, STRICT_CONFIG, TEST_COMMAND, testFiles, testsThenClaim, type HostTools } from "./claims.js";
import { codexAgentFile, codexHooks, runCodex, writeCodexHome } from "./codex.js";
import { copilotAgentFile, runCopilot } from "./copilot.js";
import { CLI, cleanUp, linkWorkspaceCli, quietEnv, readJson, tempDir, writeFiles } from "./hosts.js";
import { startModelServer, type Block, type ModelServer, type Turn } from "./model-server.js";
import { PARENT_PROMPT, RESEARCHER_PROMPT } from "./scenarios.js";

// Issue 35's acceptance: the real Claude Code, Codex and Copilot CLI, each with the hook `returnlint
// init HOST` writes and the strict preset, against the scripted model. A subagent runs node's test
// runner on the project's one test and returns saying "All tests pass" (tests_passed: true) and
// that it ran commands. The hook hands the host's transcript to the claims rules; what they did is
// read from what the host sent the model next and the verdicts. With
// RETURNLINT_RECORD_TRANSCRIPTS=1 the failing runs' transcripts become the reader's fixtures.

let server: ModelServer;
const registry = inject("registry");

beforeAll(async () => {
  server = await startModelServer();
});

afterAll(async () => {
  await server.close();
  cleanUp();
});

const BIN = path.join(CLI, "dist", "returnlint.cjs");

/** A project with the research agent, its tests (red or green), the strict preset, returnlint installed and `init HOST` run. */
function project(host: "claude" | "codex" | "copilot", green: boolean, files: Readonly<Record<string, unknown>> = {}): string {
  const root = tempDir(`claims-${host}`);
  const agent = {
    claude: { ".claude/agents/lean-research-agent.md": agentFile(AGENT, RESEARCHER_PROMPT) },
    codex: { ".codex/agents/lean-research-agent.toml": codexAgentFile(AGENT, RESEARCHER_PROMPT) },
    copilot: { ".github/agents/lean-research-agent.agent.md": copilotAgentFile(AGENT, RESEARCHER_PROMPT) },
  }[host];
  writeFiles(root, { ...agent, ...testFiles(green), ...STRICT_CONFIG, ...files });
  linkWorkspaceCli(root);
  const init = spawnSync(process.execPath, [BIN, "init", host], { cwd: root, encoding: "utf8", env: quietEnv() });
  expect(init.status, init.stderr).toBe(0);
  return root;
}

function verdicts(root: string): Record<string, unknown>[] {
  const dir = path.join(root, ".returnlint", "verdicts");
  if (!existsSync(dir)) return [];
  return readdirSync(dir).map((name) => readJson(path.join(dir, name)));
}

const shellWrite = (root: string, file: string, content: string) => `mkdir -p '${path.dirname(path.join(root, file))}' && printf '%s' '${content}' > '${path.join(root, file)}'`;

const claudeTools = (root: string): HostTools => ({
  delegate: (agent, prompt) => ({ tool: "Agent", input: { description: `Run ${agent}`, prompt, subagent_type: agent, run_in_background: false } }),
  shell: (command) => ({ tool: "Bash", input: { command, description: "Run it" } }),
  write: (file, content) => ({ tool: "Write", input: { file_path: path.join(root, file), content } }),
});

const codexTools = (root: string): HostTools => ({
  delegate: (agent, message) => ({ tool: "spawn_agent", input: { agent_type: agent, message } }),
  shell: (cmd) => ({ tool: "exec_command", input: { cmd, yield_time_ms: 10_000 } }),
  write: (file, content) => ({ tool: "exec_command", input: { cmd: shellWrite(root, file, content), yield_time_ms: 5000 } }),
});

const copilotTools = (root: string): HostTools => ({
  delegate: (agent, prompt) => ({ tool: "task", input: { description: `Run ${agent}`, name: agent, prompt, agent_type: agent } }),
  shell: (command) => ({ tool: "bash", input: { command, description: "Run it" } }),
  write: (file, content) => ({ tool: "bash", input: { command: shellWrite(root, file, content), description: "Write the notes" } }),
});

/** Codex's parent collects its subagent with wait_agent. */
const codexWaits: Turn = {
  name: "parent waits for its subagent",
  agent: "main",
  when: '"agent_id":',
  reply: (request) => [...request.input.matchAll(/"agent_id":"([^"]+)"/g)].map((match): Block => ({ tool: "wait_agent", input: { targets: [match[1] ?? ""], timeout_ms: 60_000 } })),
};

/** Runs one host on its project until the parent is done; returns what the subagent was told after its first return. */
const HOSTS = {
  claude: {
    title: "Claude Code 2.1.330",
    tools: claudeTools,
    parentTurns: [] as Turn[],
    async run(root: string): Promise<string> {
      const home = tempDir("claims-claude-home");
      const finished = await runClaude(root, PARENT_PROMPT, { server, home, registry, args: ["--allowedTools", "Bash"] });
      expect(finished.status, finished.stderr).toBe(0);
      const [subagent, parent] = [filesUnder(home, ".jsonl").find((file) => file.includes(`${path.sep}subagents${path.sep}`)), filesUnder(home, ".jsonl").find((file) => !file.includes(`${path.sep}subagents${path.sep}`))];
      return [subagent, parent].join("\n");
    },
  },
  codex: {
    title: "Codex 0.169.0",
    tools: codexTools,
    parentTurns: [codexWaits],
    async run(root: string): Promise<string> {
      const home = tempDir("claims-codex-home");
      writeCodexHome(home, server, [root]);
      await codexHooks(root, home, true);
      const finished = await runCodex(root, PARENT_PROMPT, home);
      expect(finished.status, finished.stderr).toBe(0);
      // The subagent's rollout names its parent thread in its session_meta.
      const rollouts = filesUnder(path.join(home, "sessions"), ".jsonl");
      const isSubagent = (file: string) => readFileSync(file, "utf8").split("\n", 1)[0]?.includes('"parent_thread_id"') === true;
      return [rollouts.find(isSubagent), rollouts.find((file) => !isSubagent(file))].join("\n");
    },
  },
  copilot: {
    title: "Copilot CLI 1.0.102",
    tools: copilotTools,
    parentTurns: [] as Turn[],
    async run(root: string): Promise<string> {
      const home = tempDir("claims-copilot-home");
      const state = tempDir("claims-copilot-state");
      const finished = await runCopilot(root, PARENT_PROMPT, { server, home, copilotHome: state });
      expect(finished.status, finished.stderr).toBe(0);
      const [log] = filesUnder(state, "events.jsonl");
      return [log, log].join("\n");
    },
  },
} as const;

const RECORDED_AS = { claude: "claude-2.1.330", codex: "codex-0.169.0", copilot: "copilot-1.0.102" } as const;

for (const [host, spec] of Object.entries(HOSTS) as [keyof typeof HOSTS, (typeof HOSTS)[keyof typeof HOSTS]][]) {
  describe(`${spec.title}: claims against the transcript (strict preset)`, () => {
    it("blocks a subagent whose test run failed and that says all tests pass, quoting the runner's failing line, and a claimed command that never ran", async () => {
      const root = project(host, false);
      server.play(testsThenClaim(spec.tools(root), [TEST_COMMAND, NEVER_RUN], spec.parentTurns));
      const transcripts = (await spec.run(root)).split("\n");
      const subagent = server.of(AGENT);
      expect(subagent.map((request) => request.turn)).toEqual(["subagent runs the tests", "subagent writes its notes", "subagent returns", "subagent says what really happened"]);
      const told = subagent.find((request) => request.input.includes(BLOCKED))?.input ?? "";
      // The runner's own closing line, with the transcript line it is on.
      expect(told).toMatch(/- \/tests_passed: your last test run failed \(transcript line \d+, node --test: # fail 1\); fix the failures and run it again, or report that it fails/);
      expect(told).toContain(`- /commands_run/1: you say you ran \`${NEVER_RUN}\`, but your transcript shows no such command; run it, or remove it from the commands you report`);
      expect(told).toMatch(/- \/commands_run\/0: `node --test test\/` exited 1 \(transcript line \d+: /);
      // Told the truth, the subagent's partial return passes.
      expect(verdicts(root)).toEqual([expect.objectContaining({ ok: true, status: "partial", attempts: 2, decision: "pass" })]);
      const [subagentTranscript, parentTranscript] = transcripts;
      if (subagentTranscript !== undefined && subagentTranscript !== "") recordFixture(subagentTranscript, RECORDED_AS[host], host === "copilot" ? "events.jsonl" : "subagent.jsonl");
      if (host !== "copilot" && parentTranscript !== undefined && parentTranscript !== "") recordFixture(parentTranscript, RECORDED_AS[host], "parent.jsonl");
    });

    it("passes a subagent whose tests ran green and that says so", async () => {
      const root = project(host, true);
      server.play(testsThenClaim(spec.tools(root), [TEST_COMMAND], spec.parentTurns));
      await spec.run(root);
      expect(server.of(AGENT).map((request) => request.turn)).toEqual(["subagent runs the tests", "subagent writes its notes", "subagent returns"]);
      expect(verdicts(root)).toEqual([expect.objectContaining({ ok: true, status: "completed", attempts: 1, decision: "pass", errors: [] })]);
    });
  });
}

describe("Claude Code 2.1.330: a file said to be created", () => {
  it("reports a \"created\" file that was there before the run (its Write said it updated it)", async () => {
    const root = project("claude", true, { [NOTES]: "# Notes\n\nFrom an earlier run.\n" });
    // Claude Code's Write changes a file that is there only once it was read.
    server.play(testsThenClaim(claudeTools(root), [TEST_COMMAND], [], { tool: "Read", input: { file_path: path.join(root, NOTES) } }));
    await HOSTS.claude.run(root);
    const told = server.of(AGENT).find((request) => request.input.includes(BLOCKED))?.input ?? "";
    expect(told).toMatch(new RegExp(`- /artifacts/0/path: ${NOTES.replace(/\//g, "\\/")} was there before your run \\(transcript line \\d+: Write updated it\\); report it as modified, not created`));
    expect(verdicts(root)).toEqual([expect.objectContaining({ ok: true, status: "partial", attempts: 2 })]);
  });
});
