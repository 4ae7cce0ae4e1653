import { spawn } from "node:child_process";
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { binOf, jsonLines, quietEnv, run, type Finished } from "./hosts.js";
import type { Block, ModelServer, Scenario, Turn } from "./model-server.js";
import { consoleReturn, PARENT_PROMPT, REPORT, RESEARCH_TASK, RESEARCHER_PROMPT, WRITE_REPORT } from "./scenarios.js";

// The real Codex (`codex exec`), offline: a CODEX_HOME of the test's own whose only model
// provider is the scripted model (Responses API, wire-responses.ts), and its trust records.

export interface CodexRun extends Finished {
  /** `codex exec --json`'s events (thread.started, item.completed, turn.completed, …). */
  readonly events: readonly Record<string, unknown>[];
}

/** A Codex agent role as users write it in `.codex/agents/NAME.toml`. */
export function codexAgentFile(name: string, instructions: string): string {
  return `name = "${name}"\ndescription = "${name} for the returnlint hosts suite"\ndeveloper_instructions = """\n${instructions}\n"""\n`;
}

/**
 * CODEX_HOME's config.toml: the scripted model as the only provider, and the project trusted as
 * Codex's own prompt records it (`[projects."DIR"] trust_level`). The hook is not trusted here.
 */
export function writeCodexHome(home: string, server: ModelServer, trustedProjects: readonly string[]): void {
  mkdirSync(home, { recursive: true });
  const lines = [
    'model = "scripted"',
    'model_provider = "scripted"',
    "[model_providers.scripted]",
    'name = "scripted"',
    `base_url = "${server.url}/v1"`,
    'wire_api = "responses"',
    'env_key = "SCRIPTED_API_KEY"',
    ...trustedProjects.flatMap((root) => [`[projects.${JSON.stringify(root)}]`, 'trust_level = "trusted"']),
  ];
  writeFileSync(path.join(home, "config.toml"), `${lines.join("\n")}\n`);
}

function codexEnv(home: string): Record<string, string> {
  return quietEnv({ HOME: home, CODEX_HOME: home, SCRIPTED_API_KEY: "dummy", RUST_LOG: "error" });
}

/** Runs `codex exec` in `root` with the prompt, bounded. */
export async function runCodex(root: string, prompt: string, home: string, args: readonly string[] = []): Promise<CodexRun> {
  const finished = await run(binOf("codex"), ["exec", "--skip-git-repo-check", "--json", ...args, prompt], { cwd: root, env: codexEnv(home), timeoutMs: 90_000 });
  return { ...finished, events: jsonLines(finished.stdout) };
}

/** A hook as Codex's `hooks/list` describes it. */
export interface ListedHook {
  readonly key: string;
  readonly eventName: string;
  readonly matcher: string | null;
  readonly command: string;
  readonly currentHash: string;
  readonly trustStatus: string;
}

/**
 * Asks the real Codex, through `codex app-server` (JSON-RPC on standard input and output), for the
 * hooks of `root` and their trust; with `trust`, trusts each one the way Codex's own /hooks
 * review does (`config/batchWrite` of `hooks.state."KEY".trusted_hash`, the hash Codex reported).
 */
export async function codexHooks(root: string, home: string, trust = false): Promise<ListedHook[]> {
  const child = spawn(binOf("codex"), ["app-server"], { cwd: root, env: codexEnv(home), stdio: ["pipe", "pipe", "pipe"], detached: true });
  const answers = new Map<number, (message: Record<string, unknown>) => void>();
  let buffered = "";
  child.stdout.on("data", (chunk: Buffer) => {
    buffered += chunk.toString();
    for (let end = buffered.indexOf("\n"); end !== -1; end = buffered.indexOf("\n")) {
      const [message] = jsonLines(buffered.slice(0, end));
      buffered = buffered.slice(end + 1);
      const id = message?.id;
      if (typeof id === "number") answers.get(id)?.(message ?? {});
    }
  });
  let sequence = 0;
  const call = (method: string, params: unknown) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      sequence += 1;
      const timer = setTimeout(() => { reject(new Error(`codex app-server did not answer ${method} within 20 s`)); }, 20_000);
      answers.set(sequence, (message) => {
        clearTimeout(timer);
        if (message.error !== undefined) reject(new Error(`codex app-server: ${method}: ${JSON.stringify(message.error)}`));
        else resolve((message.result ?? {}) as Record<string, unknown>);
      });
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: sequence, method, params })}\n`);
    });
  try {
    await call("initialize", { clientInfo: { name: "returnlint-hosts-suite", version: "1" }, capabilities: { experimentalApi: true } });
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "initialized" })}\n`);
    const list = (await call("hooks/list", { cwds: [root] })) as { data?: { hooks?: ListedHook[] }[] };
    const hooks = (list.data ?? []).flatMap((entry) => entry.hooks ?? []);
    if (trust) {
      const edits = hooks.map((hook) => ({ keyPath: `hooks.state.${JSON.stringify(hook.key)}`, value: { trusted_hash: hook.currentHash }, mergeStrategy: "upsert" }));
      if (edits.length > 0) await call("config/batchWrite", { edits });
    }
    return hooks;
  } finally {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
}

/**
 * Puts a recorder in front of the project's installed returnlint: each hook run appends the
 * agent it was for and what the hook answered to `log`, then answers as returnlint did. A
 * scenario where the hook must stay silent can thus tell a silent hook from one that never ran.
 */
export function recordHookRuns(root: string, cli: string, log: string): void {
  const bin = path.join(root, "node_modules", "returnlint", "dist", "returnlint.cjs");
  mkdirSync(path.dirname(bin), { recursive: true });
  writeFileSync(
    bin,
    `const { spawnSync } = require("node:child_process");
const { appendFileSync, readFileSync } = require("node:fs");
const input = readFileSync(0);
const run = spawnSync(process.execPath, [${JSON.stringify(cli)}, ...process.argv.slice(2)], { input });
appendFileSync(${JSON.stringify(log)}, JSON.stringify({ agent: JSON.parse(input.toString()).agent_type, status: run.status, stdout: run.stdout.toString() }) + "\\n");
process.stdout.write(run.stdout);
process.stderr.write(run.stderr);
process.exit(run.status ?? 1);
`,
  );
  appendFileSync(log, "");
}

// Scenarios. The parent delegates with spawn_agent and collects the return with wait_agent; the
// subagent works with exec_command and ends with its return as its final message.

const spawnAgent = (agentType: string | undefined, message: string): Block => ({ tool: "spawn_agent", input: { ...(agentType === undefined ? {} : { agent_type: agentType }), message } });
const text = (value: string): Block => ({ text: value });

/** The agent ids a spawn_agent output (`{"agent_id":"…","nickname":…}`) names. */
function spawnedIds(input: string): string[] {
  return [...input.matchAll(/"agent_id":"([^"]+)"/g)].map((match) => match[1] ?? "");
}

/** One wait_agent per subagent: a wait on several ends when the first of them does. */
const parentWaits: Turn = {
  name: "parent waits for its subagents",
  agent: "main",
  when: '"agent_id":',
  reply: (request) => spawnedIds(request.input).map((id): Block => ({ tool: "wait_agent", input: { targets: [id], timeout_ms: 60_000 } })),
};
const parentDone: Turn = { name: "parent reads the result", agent: "main", reply: [text("Task 259 is researched.")] };

/** A shell command writing `content` to `file` under the project (exec_command's `cmd`). */
function writeFile(file: string, content: string): Block {
  return { tool: "exec_command", input: { cmd: `mkdir -p '${path.dirname(file)}' && printf '%s' '${content}' > '${file}'`, yield_time_ms: 5000 } };
}

/** The subagent claims a report it did not write; blocked, it writes it and returns again. */
export function codexPhantomThenFixed(agent = "lean-research-agent"): Scenario {
  return {
    name: "Codex: phantom return, blocked, fixed",
    agents: { [agent]: RESEARCHER_PROMPT },
    turns: [
      { name: "parent delegates", agent: "main", when: PARENT_PROMPT, times: 1, reply: [spawnAgent(agent, RESEARCH_TASK)] },
      parentWaits,
      parentDone,
      { name: "subagent writes the report it was told is missing", agent, when: WRITE_REPORT, reply: [writeFile(REPORT, "# Research\n\nThe lemmas are in place.\n")] },
      { name: "subagent returns", agent, reply: [text(consoleReturn(REPORT, agent))] },
    ],
  };
}

export const CODEX_ROLE_PROMPTS = { default: "Summarise task 259 in prose.", worker: "Tidy the notes of task 259.", explorer: "Find where task 259 is handled." } as const;

/** The parent runs Codex's own roles (default by naming none), which answer in prose. */
export function codexBuiltInAgents(): Scenario {
  const roles = Object.entries(CODEX_ROLE_PROMPTS);
  return {
    name: "Codex: its own roles",
    turns: [
      { name: "parent runs default, worker and explorer", agent: "main", when: "Use Codex's own agents", times: 1, reply: roles.map(([role, prompt]) => spawnAgent(role === "default" ? undefined : role, prompt)) },
      ...roles.map(([role, prompt]): Turn => ({ name: `${role} answers in prose`, agent: "main", when: prompt, reply: [text(`${role}: here is what I found, in prose.`)] })),
      parentWaits,
      { name: "parent reads the answers", agent: "main", reply: [text("All three answered.")] },
    ],
  };
}
