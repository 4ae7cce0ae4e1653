import path from "node:path";
import { agentDefinition, checkReturn, commandForAgent, loadReturnlintConfig, owesReturn, problemLines, returnOfMessage, type CheckedReturn } from "@returnlint/api";

// The shapes below are the parts of @opencode-ai/plugin's published types that this plugin
// uses (dist/index.d.ts: `Plugin = (input: PluginInput, options?: PluginOptions) => Promise<Hooks>`,
// `Hooks["tool.execute.before" | "tool.execute.after"]`). Declared structurally so that the
// plugin does not pull OpenCode's SDK into a project's dependencies.

/** `PluginInput`: the project directory is what artifact paths and the returnlint config are relative to. */
export interface PluginInput {
  readonly directory: string;
}

/** `PluginOptions`, from `"plugin": [["@returnlint/opencode", { … }]]` in opencode.json. */
export interface ReturnlintPluginOptions {
  /** A returnlint config file, relative to the project directory (default: discovered from it). */
  readonly config?: string;
}

/** The input of `tool.execute.before` and `tool.execute.after` (`args` on the latter in newer versions only). */
export interface ToolCall {
  readonly tool: string;
  readonly sessionID: string;
  readonly callID: string;
  readonly args?: unknown;
}

/** The output of `tool.execute.after`: what the parent agent will read. */
export interface ToolResult {
  title: string;
  output: string;
  metadata: unknown;
}

/** The parts of `chat.message`'s output that the plugin reads: a new message's parts, text parts editable. */
export interface ChatMessage {
  parts: { type: string; text?: string; synthetic?: boolean }[];
}

export interface ReturnlintHooks {
  "tool.execute.before": (input: ToolCall, output: { args: unknown }) => Promise<void>;
  "tool.execute.after": (input: ToolCall, output: ToolResult) => Promise<void>;
  "chat.message": (input: { sessionID: string }, output: ChatMessage) => Promise<void>;
}

/**
 * Validates what a `task` subagent returns and appends a `<validation>` block to what
 * the parent agent reads: on failure, the problems and the `task_id` to resume the
 * subagent with. A foreground task's return is in the task tool's output; a background
 * task's (`background: true`) arrives later as a message OpenCode adds to the parent's
 * session, which `chat.message` sees. Agents that map to no command (explore, general)
 * are left alone.
 */
export async function ReturnlintPlugin(input: PluginInput, options: ReturnlintPluginOptions = {}): Promise<ReturnlintHooks> {
  const root = path.resolve(input.directory);
  // `args` reaches tool.execute.after only in newer OpenCode versions: remember it from before.
  const argsByCall = new Map<string, unknown>();
  // Background tasks still running, by their session id: whose return to expect.
  const running = new Map<string, unknown>();
  return Promise.resolve({
    "tool.execute.before": (call, output) => {
      if (call.tool === "task") argsByCall.set(call.callID, output.args);
      return Promise.resolve();
    },
    "tool.execute.after": async (call, result) => {
      if (call.tool !== "task") return;
      const args = call.args ?? argsByCall.get(call.callID);
      argsByCall.delete(call.callID);
      const task = taskOf(result.output, result.metadata);
      if (task.state === "running" && task.id !== undefined) running.set(task.id, args);
      const block = await validationBlock(root, options, args, task);
      if (block !== undefined) result.output = `${result.output}\n\n${block}`;
    },
    "chat.message": async (_message, output) => {
      for (const part of output.parts) {
        if (part.type !== "text" || part.text === undefined) continue;
        const task = taskOf(part.text, undefined);
        if (task.id === undefined || !running.has(task.id) || task.state === "running") continue;
        const args = running.get(task.id);
        running.delete(task.id);
        const block = await validationBlock(root, options, args, task);
        if (block !== undefined) part.text = `${part.text}\n\n${block}`;
      }
    },
  });
}

/** Where OpenCode reads a project agent's definition (its `agent/` folder, or `agents/`). */
const AGENT_DEFINITIONS = [".opencode/agent/{name}.md", ".opencode/agents/{name}.md"];

async function validationBlock(root: string, options: ReturnlintPluginOptions, args: unknown, task: TaskInfo): Promise<string | undefined> {
  const agent = stringField(args, "subagent_type");
  // A background task's first output, or a failed one, carries no return yet.
  if (task.state !== "completed") return undefined;
  try {
    const config = await loadReturnlintConfig({ cwd: root, ...(options.config === undefined ? {} : { configFile: path.resolve(root, options.config) }) });
    const command = commandForAgent(config, agent);
    if (command === null) return undefined;
    // An agent whose own definition asks for another kind of return is left alone, as by the hosts' hooks.
    const definition = agentDefinition(root, agent, AGENT_DEFINITIONS);
    const prompt = stringField(args, "prompt");
    const run = { wrote: [], ...(definition === undefined ? {} : { definition }), ...(prompt === undefined ? {} : { prompt }) };
    if (!owesReturn({ config, ...(agent === undefined ? {} : { agent }), run, message: task.result })) return undefined;
    const source = returnOfMessage({ message: task.result, root, command, config, run });
    const checked = await checkReturn(source, { root, command, config, ...(agent === undefined ? {} : { agent }) });
    return render(checked, { agent: agent ?? "the subagent", command, taskId: task.id, background: task.background });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return `<validation tool="returnlint" ok="unknown">\nreturnlint could not validate this return: ${message}\n</validation>`;
  }
}

interface TaskInfo {
  readonly id: string | undefined;
  readonly state: "completed" | "running" | "error";
  /** The text that holds the subagent's return. */
  readonly result: string;
  /** The result of a background task, delivered to the parent as a message of its own. */
  readonly background: boolean;
}

/**
 * The task's session id, state and result, from the two output generations of OpenCode's
 * task tool: `task_id: ses_… (for resuming …)` followed by `<task_result>`, or (1.x)
 * `<task id="ses_…" state="completed|running|error">`, with a `<summary>` for background tasks.
 */
function taskOf(text: string, metadata: unknown): TaskInfo {
  const element = /<task id="([^"]+)" state="(\w+)">/.exec(text);
  if (element !== null) {
    const state = element[2] === "completed" || element[2] === "running" ? element[2] : "error";
    return { id: element[1], state, result: text.slice(element.index), background: /<summary>Background task/.test(text) };
  }
  const line = /^task_id: (\S+)/m.exec(text);
  const id = line?.[1] ?? stringField(metadata, "sessionId");
  return { id, state: text.includes("<task_result>") ? "completed" : "error", result: text, background: false };
}

function render(checked: CheckedReturn, context: { readonly agent: string; readonly command: string; readonly taskId: string | undefined; readonly background: boolean }): string {
  const where = checked.origin === "file" ? ` (${checked.source})` : "";
  if (checked.ok) {
    return `<validation tool="returnlint" ok="true">\nThe ${context.agent} return${where} passed validation for /${context.command}: status ${checked.status ?? "none"}.\n</validation>`;
  }
  const count = checked.problemCount;
  const resume =
    context.taskId === undefined
      ? "Send the subagent back to fix them"
      : `Resume the subagent with the task tool (task_id: "${context.taskId}", subagent_type: "${context.agent}"${context.background ? ", background: true" : ""})`;
  return [
    `<validation tool="returnlint" ok="false">`,
    `The ${context.agent} return${where} failed validation for /${context.command} (${String(count)} ${count === 1 ? "problem" : "problems"}):`,
    ...problemLines(checked.problems, count),
    `Do not act on this result. ${resume}, give it the problems above, and check its new return.`,
    `</validation>`,
  ].join("\n");
}

function stringField(value: unknown, key: string): string | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const field = (value as Record<string, unknown>)[key];
  return typeof field === "string" && field !== "" ? field : undefined;
}
