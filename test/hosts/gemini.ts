import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { binOf, CLI, jsonLines, quietEnv, run, tempDir, writeFiles, type Finished } from "./hosts.js";
import type { Block, ModelServer, Scenario, Turn } from "./model-server.js";
import { consoleReturn, PARENT_PROMPT, REPORT, RESEARCH_TASK, RESEARCHER_PROMPT } from "./scenarios.js";

// Gemini CLI 0.61.0, headless (`gemini -p … --output-format stream-json`), against the scripted
// model (wire-gemini.ts). Its parent delegates with `invoke_agent {agent_name, prompt}`; a
// subagent ends by calling `complete_task {result}`; the hook runs after the parent's invoke_agent.

export const RESEARCHER = "lean-research-agent";

export interface GeminiRun extends Finished {
  /** The stream-json events: init, message, tool_use, tool_result, result. */
  readonly events: readonly Record<string, unknown>[];
}

/**
 * A home for Gemini CLI (`~/.gemini/`): the API key's auth, no update checks or usage statistics;
 * the folders it trusts (`trustedFolders.json`, as its trust dialog writes it); the project agents
 * acknowledged, each by its file's sha256 (`acknowledgments/agents.json`, as its "Acknowledge and
 * Enable" writes it).
 */
export function geminiHome(options: { readonly trusted?: readonly string[]; readonly acknowledged?: { readonly root: string; readonly agents: readonly string[] } } = {}): string {
  const home = tempDir("gemini-home");
  const files: Record<string, unknown> = {
    ".gemini/settings.json": {
      security: { auth: { selectedType: "gemini-api-key" } },
      general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
      privacy: { usageStatisticsEnabled: false },
    },
  };
  if (options.trusted !== undefined) files[".gemini/trustedFolders.json"] = Object.fromEntries(options.trusted.map((folder) => [folder, "TRUST_FOLDER"]));
  if (options.acknowledged !== undefined) files[".gemini/acknowledgments/agents.json"] = acknowledgments(options.acknowledged.root, options.acknowledged.agents);
  writeFiles(home, files);
  return home;
}

/** What Gemini CLI records when the user acknowledges the project's agents: per project, each agent's file hash. */
export function acknowledgments(root: string, agents: readonly string[]): Record<string, Record<string, string>> {
  const hash = (agent: string) => createHash("sha256").update(readFileSync(path.join(root, ".gemini", "agents", `${agent}.md`))).digest("hex");
  return { [root]: Object.fromEntries(agents.map((agent) => [agent, hash(agent)])) };
}

/** A subagent definition as users write them in `.gemini/agents/NAME.md` (Gemini CLI checks the frontmatter strictly: `tools` is a list). */
export function geminiAgentFile(name: string, prompt: string): string {
  return `---\nname: ${name}\ndescription: ${name} for the returnlint hosts suite\ntools: [read_file, write_file]\n---\n${prompt}\n`;
}

/**
 * Runs the real Gemini CLI headless in `root`, talking only to the scripted model, with a home of
 * its own. The workspace is trusted through GEMINI_CLI_TRUST_WORKSPACE unless `env` says otherwise
 * (undefined removes it). GEMINI_CLI_NO_RELAUNCH spares the second node process Gemini CLI starts
 * for a larger heap.
 */
export async function runGemini(root: string, prompt: string, options: { readonly server: ModelServer; readonly home: string; readonly env?: Readonly<Record<string, string | undefined>> }): Promise<GeminiRun> {
  const env = quietEnv({
    HOME: options.home,
    GEMINI_CLI_HOME: undefined,
    GOOGLE_GEMINI_BASE_URL: options.server.url,
    GEMINI_API_KEY: "dummy",
    GOOGLE_API_KEY: undefined,
    GOOGLE_CLOUD_PROJECT: undefined,
    GEMINI_CLI_TRUST_WORKSPACE: "true",
    GEMINI_CLI_NO_RELAUNCH: "true",
    ...options.env,
  });
  const finished = await run(binOf("gemini"), ["-p", prompt, "--approval-mode", "yolo", "--output-format", "stream-json"], { cwd: root, env, timeoutMs: 90_000 });
  return { ...finished, events: jsonLines(finished.stdout) };
}

/** This checkout's built CLI run in `root` (`returnlint init gemini`, `returnlint doctor`), with `env` over the machine's. */
export async function returnlintIn(root: string, args: readonly string[], env: Readonly<Record<string, string | undefined>> = {}): Promise<Finished> {
  return await run(process.execPath, [path.join(CLI, "dist", "returnlint.cjs"), ...args], { cwd: root, env: quietEnv(env), timeoutMs: 30_000 });
}

// The scenarios

const text = (value: string): Block => ({ text: value });

/** Gemini CLI's subagent tool. */
function invokeAgent(agent: string, prompt: string): Block {
  return { tool: "invoke_agent", input: { agent_name: agent, prompt } };
}

/** How a Gemini CLI subagent ends: its return is the `result` it passes. */
function completeTask(result: unknown): Block {
  return { tool: "complete_task", input: { result } };
}

function writeFile(root: string, file: string, content: string): Block {
  return { tool: "write_file", input: { file_path: path.join(root, file), content } };
}

/** What the block's reason starts with, as the parent reads it in place of the return. */
export const PARENT_REASON = `returnlint: the subagent ${RESEARCHER} stopped, and its return failed validation for /research (1 problem). Its work is not done as it says:`;
/** Gemini CLI's header before a subagent's result, in what the parent reads. */
export const FINISHED = `Subagent '${RESEARCHER}' finished.`;

/** The parent calls the researcher again, telling it what returnlint found: the numbered problem lines of the reason. */
function reinvokeWithReason(request: { readonly input: string }): readonly Block[] {
  const problems = request.input.match(/^\d+\. .*$/gm) ?? [];
  return [invokeAgent(RESEARCHER, `${RESEARCH_TASK}\nYour last return failed validation:\n${problems.join("\n")}`)];
}

const parentDone: Turn = { name: "parent reads the result", agent: "main", reply: [text("Task 259 is researched.")] };

/**
 * The subagent claims a report it did not write; the hook replaces its return with the reason;
 * the parent, reading it, runs the subagent again with the problem; it writes the report; the
 * return passes and reaches the parent.
 */
export function geminiPhantomThenFixed(root: string): Scenario {
  return {
    name: "Gemini CLI: phantom return, the parent told, re-invoked, fixed",
    agents: { [RESEARCHER]: RESEARCHER_PROMPT },
    turns: [
      { name: "parent delegates", agent: "main", when: PARENT_PROMPT, times: 1, reply: [invokeAgent(RESEARCHER, RESEARCH_TASK)] },
      { name: "parent runs it again with returnlint's reason", agent: "main", when: PARENT_REASON, times: 1, reply: reinvokeWithReason },
      parentDone,
      { name: "subagent writes the report it was told is missing", agent: RESEARCHER, when: `Artifact does not exist: ${REPORT}`, reply: [writeFile(root, REPORT, "# Research\n\nThe lemmas are in place.\n")] },
      { name: "subagent returns", agent: RESEARCHER, reply: [completeTask(consoleReturn(REPORT))] },
    ],
  };
}

/** The parent re-invokes the subagent each time it is told the return failed; the subagent returns the same phantom every time. */
export function geminiAlwaysPhantom(): Scenario {
  return {
    name: "Gemini CLI: the same phantom every time",
    agents: { [RESEARCHER]: RESEARCHER_PROMPT },
    turns: [
      { name: "parent delegates", agent: "main", when: PARENT_PROMPT, times: 1, reply: [invokeAgent(RESEARCHER, RESEARCH_TASK)] },
      { name: "parent runs it again with returnlint's reason", agent: "main", when: PARENT_REASON, times: 5, reply: reinvokeWithReason },
      parentDone,
      { name: "subagent returns a phantom", agent: RESEARCHER, reply: [completeTask(consoleReturn(REPORT))] },
    ],
  };
}

export const GENERALIST_PROMPT = "Summarise task 259 in prose.";
export const USE_GENERALIST = "Summarise task 259 with the generalist agent, then research it with the research subagent.";

/**
 * Gemini CLI's own generalist agent answers in prose (its complete_task takes `{response}`), then
 * the researcher writes its report before it returns: the hook leaves the one alone and passes the other.
 */
export function geminiGeneralistThenGoodReturn(root: string): Scenario {
  return {
    name: "Gemini CLI: the generalist, then a good return",
    agents: { [RESEARCHER]: RESEARCHER_PROMPT },
    turns: [
      { name: "parent asks the generalist", agent: "main", when: USE_GENERALIST, times: 1, reply: [invokeAgent("generalist", GENERALIST_PROMPT)] },
      // The generalist's system prompt is the parent's own: its query tells it apart.
      { name: "generalist answers in prose", agent: "main", when: GENERALIST_PROMPT, times: 1, reply: [completeTask({ response: "Task 259 asks for a completeness proof; the lemmas exist, in prose." })] },
      { name: "parent delegates the research", agent: "main", when: "Subagent 'generalist' finished.", times: 1, reply: [invokeAgent(RESEARCHER, RESEARCH_TASK)] },
      parentDone,
      { name: "subagent writes its report", agent: RESEARCHER, when: RESEARCH_TASK, times: 1, reply: [writeFile(root, REPORT, "# Research\n\nWritten before returning.\n")] },
      { name: "subagent returns", agent: RESEARCHER, reply: [completeTask(consoleReturn(REPORT))] },
    ],
  };
}
