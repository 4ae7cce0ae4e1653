import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { binOf, jsonLines, quietEnv, run, type Finished } from "./hosts.js";
import type { Block, ModelServer, Scenario, Turn } from "./model-server.js";
import { consoleReturn, PARENT_PROMPT, REPORT, RESEARCH_TASK, RESEARCHER_PROMPT, WRITE_REPORT } from "./scenarios.js";

// The real GitHub Copilot CLI, `copilot -p`, offline against the scripted model (OpenAI Chat
// Completions, streamed: the model server's "openai" API), and the scenarios it plays.

/** A hook Copilot CLI ran, from its own session log (`session-state/<id>/events.jsonl`). */
export interface HookRun {
  readonly event: string;
  /** The agent whose stop it was (agentType, or agent_type in Claude Code's shape); undefined for the main agent. */
  readonly agent: string | undefined;
  readonly success: boolean;
  /** The answer Copilot CLI read from the hook's standard output, when it read one. */
  readonly output: unknown;
}

export interface CopilotRun extends Finished {
  /** What `--output-format json` printed, one event a line. */
  readonly events: readonly Record<string, unknown>[];
  /** The sentences Copilot CLI showed as hook warnings (a hook that exited 2). */
  readonly warnings: readonly string[];
}

/**
 * Runs the real Copilot CLI headless in `root` (`copilot -p PROMPT --allow-all-tools --no-ask-user
 * --output-format json`, and --trust-folder unless `trusted` is false), offline, talking only to the
 * scripted model. `home` holds the unpacked CLI (shared between runs: about 235 MB); `copilotHome` its
 * settings, trusted folders and session logs.
 */
export async function runCopilot(
  root: string,
  prompt: string,
  options: { readonly server: ModelServer; readonly home: string; readonly copilotHome: string; readonly trustFolder?: boolean },
): Promise<CopilotRun> {
  mkdirSync(options.copilotHome, { recursive: true });
  const env = quietEnv({
    HOME: options.home,
    XDG_CONFIG_HOME: path.join(options.home, ".config"),
    XDG_CACHE_HOME: path.join(options.home, ".cache"),
    XDG_STATE_HOME: path.join(options.home, ".local", "state"),
    COPILOT_HOME: options.copilotHome,
    COPILOT_OFFLINE: "true",
    COPILOT_PROVIDER_BASE_URL: `${options.server.url}/v1`,
    COPILOT_PROVIDER_API_KEY: "dummy",
    COPILOT_MODEL: "gpt-4.1",
    COPILOT_AUTO_UPDATE: "false",
    // Neither the machine's trust nor its GitHub login may decide a scenario.
    COPILOT_ALLOW_ALL: undefined,
    COPILOT_GITHUB_TOKEN: undefined,
    GH_TOKEN: undefined,
    GITHUB_TOKEN: undefined,
  });
  const args = ["-p", prompt, ...(options.trustFolder === false ? [] : ["--trust-folder"]), "--allow-all-tools", "--no-ask-user", "--output-format", "json"];
  const finished = await run(binOf("copilot"), args, { cwd: root, env, timeoutMs: 90_000 });
  const events = jsonLines(finished.stdout);
  const warnings = events.flatMap((event) => {
    const data = event.data as { warningType?: unknown; message?: unknown } | undefined;
    return event.type === "session.warning" && data?.warningType === "hook" && typeof data.message === "string" ? [data.message] : [];
  });
  return { ...finished, events, warnings };
}

/** Every hook Copilot CLI ran in sessions under `copilotHome`, as its session logs record them. */
export function hookRuns(copilotHome: string): HookRun[] {
  const sessions = path.join(copilotHome, "session-state");
  if (!existsSync(sessions)) return [];
  return readdirSync(sessions).flatMap((session) => {
    const log = path.join(sessions, session, "events.jsonl");
    if (!existsSync(log)) return [];
    const started = new Map<string, { event: string; agent: string | undefined }>();
    return jsonLines(readFileSync(log, "utf8")).flatMap((entry) => {
      const data = entry.data as { hookInvocationId?: string; hookType?: string; input?: Record<string, unknown>; success?: boolean; output?: unknown };
      if (entry.type === "hook.start") {
        const agent = data.input?.agentType ?? data.input?.agent_type;
        started.set(String(data.hookInvocationId), { event: String(data.hookType), agent: typeof agent === "string" ? agent : undefined });
        return [];
      }
      const start = entry.type === "hook.end" ? started.get(String(data.hookInvocationId)) : undefined;
      return start === undefined ? [] : [{ ...start, success: data.success === true, output: data.output }];
    });
  });
}

/** A custom agent as users write them in `.github/agents/NAME.agent.md`. */
export function copilotAgentFile(name: string, prompt: string): string {
  return `---\nname: ${name}\ndescription: ${name} for the returnlint hosts suite\ntools: ["read", "edit", "search", "shell"]\n---\n${prompt}\n`;
}

const text = (value: string): Block => ({ text: value });

/** Copilot CLI's subagent tool: `task`, with the agent's name in `agent_type`. */
function task(agent: string, prompt: string): Block {
  return { tool: "task", input: { description: `Run ${agent}`, name: agent, prompt, agent_type: agent } };
}

/** Copilot CLI's `bash` tool writing a file (its `create` tool makes no folder). */
function write(root: string, file: string, content: string): Block {
  const target = path.join(root, file);
  return { tool: "bash", input: { command: `mkdir -p '${path.dirname(target)}' && printf '%s' '${content}' > '${target}'`, description: "Write the report" } };
}

const parentDone: Turn = { name: "parent reads the result", agent: "main", reply: [text("Task 259 is researched.")] };

/** The subagent claims a report it has not written; blocked, it writes it and returns again. */
export function copilotPhantomThenFixed(root: string, agent = "lean-research-agent"): Scenario {
  return {
    name: "Copilot CLI: phantom return, blocked, fixed",
    agents: { [agent]: RESEARCHER_PROMPT },
    turns: [
      { name: "parent delegates", agent: "main", when: PARENT_PROMPT, times: 1, reply: [task(agent, RESEARCH_TASK)] },
      { name: "subagent writes the report it was told is missing", agent, when: WRITE_REPORT, reply: [write(root, REPORT, "# Research\n\nThe lemmas are in place.\n")] },
      { name: "subagent returns", agent, reply: [text(consoleReturn(REPORT, agent))] },
      parentDone,
    ],
  };
}

/** The subagent returns the same phantom every time it is asked. */
export function copilotAlwaysPhantom(agent = "lean-research-agent"): Scenario {
  return {
    name: "Copilot CLI: the same phantom every time",
    agents: { [agent]: RESEARCHER_PROMPT },
    turns: [
      { name: "parent delegates", agent: "main", when: PARENT_PROMPT, times: 1, reply: [task(agent, RESEARCH_TASK)] },
      { name: "subagent returns a phantom", agent, reply: [text(consoleReturn(REPORT, agent))] },
      parentDone,
    ],
  };
}

/** Copilot CLI's own agents, as its `task` tool offers them in 1.0.102: they answer in prose. */
export const COPILOT_BUILT_INS = { explore: "Find where task 259 is handled.", task: "Run the tests of task 259.", "general-purpose": "Summarise task 259.", research: "Research prior art for task 259.", "code-review": "Review the change for task 259." } as const;

/** The parent runs Copilot CLI's own agents, which answer in prose: the hook must let them be. */
export function copilotBuiltIns(): Scenario {
  return {
    name: "Copilot CLI: built-in agents",
    turns: [
      { name: "parent runs the built-in agents", agent: "main", when: "Use the built-in agents", times: 1, reply: Object.entries(COPILOT_BUILT_INS).map(([agent, prompt]) => task(agent, prompt)) },
      ...Object.entries(COPILOT_BUILT_INS).map(([agent, prompt]): Turn => ({ name: `${agent} answers in prose`, agent: "main", when: prompt, reply: [text(`${agent}: here is what I found, in prose.`)] })),
      { name: "parent reads the answers", agent: "main", reply: [text("All of them answered.")] },
    ],
  };
}
