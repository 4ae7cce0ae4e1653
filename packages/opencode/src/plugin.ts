import path from "node:path";
import { checkReturn, commandForAgent, loadReturnlintConfig, locateReturn, problemLines, type CheckedReturn } from "returnlint";

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

export interface ReturnlintHooks {
  "tool.execute.before": (input: ToolCall, output: { args: unknown }) => Promise<void>;
  "tool.execute.after": (input: ToolCall, output: ToolResult) => Promise<void>;
}

/**
 * Validates what a `task` subagent returns and appends a `<validation>` block to the
 * tool output the parent agent reads: on failure, the problems and the `task_id` to
 * resume the subagent with. Agents that map to no command (explore, general) are left alone.
 */
export async function ReturnlintPlugin(input: PluginInput, options: ReturnlintPluginOptions = {}): Promise<ReturnlintHooks> {
  const root = path.resolve(input.directory);
  // `args` reaches tool.execute.after only in newer OpenCode versions: remember it from before.
  const argsByCall = new Map<string, unknown>();
  return Promise.resolve({
    "tool.execute.before": (call, output) => {
      if (call.tool === "task") argsByCall.set(call.callID, output.args);
      return Promise.resolve();
    },
    "tool.execute.after": async (call, result) => {
      if (call.tool !== "task") return;
      const args = call.args ?? argsByCall.get(call.callID);
      argsByCall.delete(call.callID);
      const block = await validationBlock(root, options, args, result);
      if (block !== undefined) result.output = `${result.output}\n\n${block}`;
    },
  });
}

async function validationBlock(root: string, options: ReturnlintPluginOptions, args: unknown, result: ToolResult): Promise<string | undefined> {
  const agent = stringField(args, "subagent_type");
  const task = taskOf(result);
  // A background task's first output, or a failed one, carries no return yet.
  if (task.state !== "completed") return undefined;
  try {
    const config = await loadReturnlintConfig({ cwd: root, ...(options.config === undefined ? {} : { configFile: path.resolve(root, options.config) }) });
    const command = commandForAgent(config, agent);
    if (command === null) return undefined;
    const located = locateReturn({ message: result.output, root, command, config });
    const checked = await checkReturn(located, { root, command, config, ...(agent === undefined ? {} : { agent }) });
    return render(checked, { agent: agent ?? "the subagent", command, taskId: task.id, resumeFlag: task.needsResumeFlag });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return `<validation tool="returnlint" ok="unknown">\nreturnlint could not validate this return: ${message}\n</validation>`;
  }
}

interface TaskInfo {
  readonly id: string | undefined;
  readonly state: "completed" | "running" | "error";
  /** OpenCode's `<task>` output generation asks for `resume: true` to continue an idle task session. */
  readonly needsResumeFlag: boolean;
}

/**
 * The task's session id and state, from the two output generations of OpenCode's task
 * tool (packages/opencode/src/tool/task.ts): `task_id: ses_… (for resuming …)` followed
 * by `<task_result>`, or `<task id="ses_…" state="completed">` around it.
 */
function taskOf(result: ToolResult): TaskInfo {
  const element = /<task id="([^"]+)" state="(\w+)">/.exec(result.output);
  if (element !== null) {
    const state = element[2] === "completed" || element[2] === "running" ? element[2] : "error";
    return { id: element[1], state, needsResumeFlag: true };
  }
  const line = /^task_id: (\S+)/m.exec(result.output);
  const id = line?.[1] ?? stringField(result.metadata, "sessionId");
  return { id, state: result.output.includes("<task_result>") ? "completed" : "error", needsResumeFlag: false };
}

function render(checked: CheckedReturn, context: { readonly agent: string; readonly command: string; readonly taskId: string | undefined; readonly resumeFlag: boolean }): string {
  const where = checked.origin === "file" ? ` (${checked.source})` : "";
  if (checked.ok) {
    return `<validation tool="returnlint" ok="true">\nThe ${context.agent} return${where} passed validation for /${context.command}: status ${checked.status ?? "none"}.\n</validation>`;
  }
  const count = checked.problems.length;
  const resume =
    context.taskId === undefined
      ? "Send the subagent back to fix them"
      : `Resume the subagent with the task tool (task_id: "${context.taskId}"${context.resumeFlag ? ", resume: true" : ""}, subagent_type: "${context.agent}")`;
  return [
    `<validation tool="returnlint" ok="false">`,
    `The ${context.agent} return${where} failed validation for /${context.command} (${String(count)} ${count === 1 ? "problem" : "problems"}):`,
    ...problemLines(checked.problems),
    `Do not act on this result. ${resume}, give it the problems above, and check its new return.`,
    `</validation>`,
  ].join("\n");
}

function stringField(value: unknown, key: string): string | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const field = (value as Record<string, unknown>)[key];
  return typeof field === "string" && field !== "" ? field : undefined;
}
