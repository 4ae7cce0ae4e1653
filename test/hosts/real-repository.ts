import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { taskOfFolder } from "@returnlint/core";
import { git } from "@returnlint/testing";
import type { Block, Scenario, Turn } from "./model-server.js";

// A real repository of the family returnlint serves, cloned at test time (@returnlint/testing's
// cloneRealRepository; never copied into the project), and its own agents played by the
// scripted model as their definitions say: a subagent writes its report and its metadata file
// with the Write tool, then ends with a few bullets, not JSON.

/** A second working copy of a clone, at the same commit (cheap: it shares the objects). */
export function copyOf(clone: string, dir: string): void {
  git(path.dirname(dir), ["clone", "-q", "--shared", "--no-checkout", clone, dir]);
  git(dir, ["-c", "advice.detachedHead=false", "checkout", "-q", git(clone, ["rev-parse", "HEAD"])]);
}

export interface RealAgent {
  readonly name: string;
  /** A line only this agent's definition holds: how the model server tells its requests apart. */
  readonly marker: string;
  /** The command its returns answer, from the success status the project's format gives it. */
  readonly command: string;
}

/** The success status of each command in the metadata-file format (the projects' return-metadata-file.md). */
const SUCCESS: Readonly<Record<string, string>> = { research: "researched", plan: "planned", revise: "planned", implement: "implemented" };
/** Where each command's artifact goes in a task folder, and its type, as the definitions' examples write them. */
const ARTIFACT: Readonly<Record<string, { readonly folder: string; readonly type: string; readonly file: string }>> = {
  research: { folder: "reports", type: "report", file: "research-001.md" },
  plan: { folder: "plans", type: "plan", file: "implementation-001.md" },
  revise: { folder: "plans", type: "plan", file: "implementation-002.md" },
  implement: { folder: "summaries", type: "summary", file: "implementation-summary-20260316.md" },
};

/**
 * The agents the hook `returnlint init claude` wrote fires for (its matcher), each with the command
 * the project's config maps it to (`print-config`'s agents, else the name rule), and the first
 * heading of its definition as its marker. Nothing here knows the repository's agent names.
 */
export function hookedAgents(root: string, matcher: string, commandOf: (agent: string) => string | null): RealAgent[] {
  const dir = path.join(root, ".claude", "agents");
  const names = matcher.split("|");
  const agents = readdirSync(dir)
    .filter((file) => file.endsWith(".md") && names.includes(file.slice(0, -3)))
    .map((file) => {
      const name = file.slice(0, -3);
      const body = readFileSync(path.join(dir, file), "utf8").replace(/^---\n[\s\S]*?\n---\n/, "");
      const marker = body.split("\n").find((line) => line.startsWith("# "));
      const command = commandOf(name);
      if (marker === undefined || command === null) throw new Error(`${file}: no heading to tell its requests by, or no command (${String(command)})`);
      return { name, marker, command };
    });
  const markers = new Set(agents.map((agent) => agent.marker));
  if (markers.size !== agents.length) throw new Error(`two agent definitions share a first heading: ${agents.map((agent) => agent.marker).join(", ")}`);
  return agents;
}

export interface Task {
  readonly number: number;
  readonly slug: string;
  readonly dir: string;
  readonly meta: string;
  readonly artifact: string;
}

/** A task for `agent` numbered past every task the repository has (its folders are never touched). */
export function taskFor(root: string, agent: RealAgent, index: number): Task {
  const numbers = readdirSync(path.join(root, "specs")).flatMap((name) => taskOfFolder(name) ?? []);
  const number = Math.max(0, ...numbers.map(Number)) + 100 + index;
  const slug = `returnlint_${agent.command}_${agent.name.replaceAll("-", "_")}`;
  const dir = `specs/${String(number)}_${slug}`;
  const artifact = ARTIFACT[agent.command] ?? { folder: "reports", type: "report", file: "report-001.md" };
  return { number, slug, dir, meta: `${dir}/.return-meta.json`, artifact: `${dir}/${artifact.folder}/${artifact.file}` };
}

const SESSION = "sess_1773878520_a3f2b1";

/** The delegation prompt the project's skills send (Stage 4: the delegation context with `metadata_file_path`). */
export function delegationPrompt(agent: RealAgent, task: Task): string {
  const context = {
    session_id: SESSION,
    delegation_depth: 1,
    delegation_path: ["orchestrator", agent.command, agent.name],
    timeout: 3600,
    task_context: { task_number: task.number, task_name: task.slug, description: `Checked by the returnlint hosts suite (${agent.name})`, language: "general" },
    metadata_file_path: task.meta,
  };
  return `Execute ${agent.command} for task ${String(task.number)}.\n\nDelegation context:\n${JSON.stringify(context, null, 2)}`;
}

/** The metadata file as the definitions' "Write Metadata File" stage shows it. */
export function metadataFile(agent: RealAgent, task: Task): string {
  const type = ARTIFACT[agent.command]?.type ?? "report";
  const value = {
    status: SUCCESS[agent.command] ?? "completed",
    artifacts: [{ type, path: task.artifact, summary: `${type} for task ${String(task.number)}` }],
    next_steps: `Run the next command on task ${String(task.number)}`,
    // The implementation agents' definitions: completion_data, with its completion_summary, before the metadata is written.
    ...(agent.command === "implement" ? { completion_data: { completion_summary: `Implemented task ${String(task.number)}; the summary lists the changes.`, claudemd_suggestions: "none" } } : {}),
    metadata: { session_id: SESSION, agent_type: agent.name, duration_seconds: 42, delegation_depth: 1, delegation_path: ["orchestrator", agent.command, agent.name] },
  };
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** The brief text summary the definitions ask for ("3-6 bullet points, NOT JSON"). */
export function bullets(agent: RealAgent, task: Task): string {
  return [`- ${agent.command} done for task ${String(task.number)}`, `- Wrote ${task.artifact}`, `- Metadata written for the orchestrator's postflight`].join("\n");
}

const text = (value: string): Block => ({ text: value });

function write(root: string, file: string, content: string): Block {
  return { tool: "Write", input: { file_path: path.join(root, file), content } };
}

function delegate(agent: RealAgent, prompt: string): Block {
  return { tool: "Agent", input: { description: `Run ${agent.name}`, prompt, subagent_type: agent.name, run_in_background: false } };
}

export const PARENT_PROMPT = "Run each agent on its task.";

/** Every agent at once: each writes its artifact and its metadata file, then ends with bullets. */
export function goodRuns(root: string, agents: readonly RealAgent[], tasks: readonly Task[]): Scenario {
  return {
    name: "the repository's agents, as their definitions say",
    agents: Object.fromEntries(agents.map((agent) => [agent.name, agent.marker])),
    turns: [
      { name: "parent delegates to every agent", agent: "main", when: PARENT_PROMPT, times: 1, reply: agents.map((agent, index) => delegate(agent, delegationPrompt(agent, tasks[index] as Task))) },
      ...agents.flatMap((agent, index): Turn[] => {
        const task = tasks[index] as Task;
        return [
          { name: `${agent.name} writes its work`, agent: agent.name, when: `task ${String(task.number)}.`, times: 1, reply: [write(root, task.artifact, `# ${agent.command}\n\nDone.\n`), write(root, task.meta, metadataFile(agent, task))] },
          { name: `${agent.name} returns bullets`, agent: agent.name, reply: [text(bullets(agent, task))] },
        ];
      }),
      { name: "parent reads the results", agent: "main", reply: [text("Every agent has returned.")] },
    ],
  };
}

/**
 * One agent claims an artifact it never wrote: it writes only its metadata file and returns
 * bullets; told by the hook, it writes the artifact and returns again.
 */
export function phantomThenFixed(root: string, agent: RealAgent, task: Task): Scenario {
  return {
    name: `${agent.name}: phantom work, blocked, fixed`,
    agents: { [agent.name]: agent.marker },
    turns: [
      { name: "parent delegates", agent: "main", when: PARENT_PROMPT, times: 1, reply: [delegate(agent, delegationPrompt(agent, task))] },
      { name: "subagent writes only its metadata file", agent: agent.name, when: `task ${String(task.number)}.`, times: 1, reply: [write(root, task.meta, metadataFile(agent, task))] },
      { name: "subagent writes the artifact it was told is missing", agent: agent.name, when: `file "${task.artifact}" does not exist`, times: 1, reply: [write(root, task.artifact, `# ${agent.command}\n\nWritten after the hook asked.\n`)] },
      { name: "subagent returns bullets", agent: agent.name, reply: [text(bullets(agent, task))] },
      { name: "parent reads the result", agent: "main", reply: [text("The agent has returned.")] },
    ],
  };
}
