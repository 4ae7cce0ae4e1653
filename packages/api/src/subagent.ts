import path from "node:path";
import { commandInName, isReturnlintError, METADATA_FILE, SPECS_DIR, taskNamedIn, type LoadedConfig } from "@returnlint/core";
import { validate, type ValidationReport } from "./validate.js";
import { reaskLine } from "./reask.js";
import { passed } from "./verdict.js";
import { readTaskReturn } from "./tasks.js";

// A subagent's return as hosts hand it over: which command it answers, where it is, what is wrong with it.
// Shared by `returnlint hook claude` and @returnlint/opencode.

/**
 * The subagents the hosts ship, by their exact names: Claude Code's (`Plan`, `Explore`,
 * `general-purpose`, …) and OpenCode's (`general`, `explore`, …). They answer in prose by
 * design, so the name rule never maps them; the config's `agents` map still can.
 */
export const BUILT_IN_AGENTS: ReadonlySet<string> = new Set([
  "Plan",
  "Explore",
  "general-purpose",
  "statusline-setup",
  "output-style-setup",
  "claude",
  "fork",
  "general",
  "explore",
  "plan",
  "build",
]);

/**
 * The command whose rules apply to a subagent's returns: the config's `agents`
 * entry (by full name, or by the part after a plugin's `plugin:` prefix), else
 * the command its name contains (never for a host's built-in agent), else null
 * (an agent returnlint knows nothing about).
 */
export function commandForAgent(config: LoadedConfig | undefined, agent: string | undefined): string | null {
  if (agent === undefined) return null;
  const agents = config?.config.agents ?? {};
  // "constructor" or "__proto__" is an agent's name, not Object.prototype's.
  const mappedTo = (name: string) => (Object.hasOwn(agents, name) ? agents[name] : undefined);
  const mapped = mappedTo(agent) ?? mappedTo(agent.slice(agent.lastIndexOf(":") + 1));
  if (mapped !== undefined) return mapped;
  if (BUILT_IN_AGENTS.has(agent)) return null;
  return commandInName(agent);
}

/** Where a subagent's return is, after looking at its final message. */
export type Located =
  /** The message; when it holds no return and names a task's metadata file (`orTask`), that file. */
  | { readonly kind: "message"; readonly text: string; readonly orTask?: NamedTask }
  | { readonly kind: "file"; readonly text: string; readonly file: string; readonly task: string }
  | { readonly kind: "unreadable"; readonly file: string; readonly task: string; readonly reason: string; readonly missing: boolean };

/** A task named in a message: `specs/{task}_{slug}/`. */
export interface NamedTask {
  readonly task: string;
  readonly slug: string;
}

/**
 * The metadata file is the return when the command's preset is `metadata-file` and the
 * message names the task's file or folder (the seeds' subagents end with a prose summary
 * that names the report they wrote), or when the message names a metadata file and holds
 * no return of its own. Whether it holds one is for `validate`'s one parse to say:
 * `checkReturn` checks the message first and turns to `orTask` only when it found no return.
 */
export function locateReturn(input: {
  readonly message: string;
  readonly root: string;
  readonly command: string | null;
  readonly config: LoadedConfig;
  readonly preset?: string;
}): Located {
  const { message, root } = input;
  const command = input.command === null ? undefined : input.config.config.commands?.[input.command];
  const preset = input.preset ?? command?.preset ?? input.config.config.preset;
  const expectsFile = preset === "metadata-file";
  const named = taskNamedIn(message, { folder: expectsFile });
  if (named === undefined) return { kind: "message", text: message };
  return expectsFile ? readNamedTask(root, named) : { kind: "message", text: message, orTask: named };
}

/** The metadata file of a task a message names, read through real folders inside the project only (a task folder that is a link is refused). */
function readNamedTask(root: string, { task, slug }: NamedTask): Located {
  try {
    const { text, source } = readTaskReturn(root, task, slug);
    return { kind: "file", text, file: source, task };
  } catch (error) {
    if (!isReturnlintError(error)) throw error;
    const file = path.join(root, SPECS_DIR, `${task}_${slug}`, METADATA_FILE);
    return { kind: "unreadable", file, task, reason: error.message, missing: error.code === "RETURN_NOT_FOUND" };
  }
}

export interface Problem {
  readonly message: string;
  readonly detail?: string;
  readonly recommendation?: string;
  /** The problem addressed to the subagent (`--format reask`'s line): `/pointer: what to change.` */
  readonly reask: string;
}

/** The verdict on a located return: from the rules, or from a metadata file that is not there. */
export interface CheckedReturn {
  readonly ok: boolean;
  readonly status: string | null;
  readonly origin: ValidationReport["origin"];
  /** The metadata file, relative to the root, or "message". */
  readonly source: string;
  readonly task: string | null;
  readonly problems: readonly Problem[];
  readonly warningCount: number;
  /** A rule crashed: the verdict cannot be trusted. */
  readonly internalError: boolean;
}

export async function checkReturn(
  located: Located,
  context: { readonly root: string; readonly command: string; readonly config: LoadedConfig; readonly agent?: string; readonly transcriptPath?: string },
): Promise<CheckedReturn> {
  const source = located.kind === "message" ? "message" : path.relative(context.root, located.file);
  const task = located.kind === "message" ? null : located.task;
  if (located.kind === "unreadable") {
    const problem = located.missing
      ? {
          message: `Return metadata file is missing: ${source}`,
          detail: `Error: ${located.reason}`,
          recommendation: `Write ${source} (status, artifacts, metadata) before you stop`,
          reask: `(the whole return): you wrote no return metadata file; write ${source} (status, artifacts, metadata) before you stop.`,
        }
      : {
          // There but not readable the safe way (a task folder that is a link, a file too large): say why.
          message: `Return metadata file cannot be read: ${source}`,
          detail: `Error: ${located.reason}`,
          recommendation: `Write ${source} as a regular file in a real task folder before you stop`,
          reask: `(the whole return): ${located.reason} Write ${source} as a regular file in a real task folder before you stop.`,
        };
    return { ok: false, status: null, origin: "file", source, task, problems: [problem], warningCount: 0, internalError: false };
  }
  const report = await validate(located.text, {
    config: context.config,
    cwd: context.root,
    root: context.root,
    command: context.command,
    fromFile: located.kind === "file",
    ...(context.agent === undefined ? {} : { agent: context.agent }),
    ...(context.transcriptPath === undefined ? {} : { transcriptPath: context.transcriptPath }),
    ...(task === null ? {} : { task }),
  });
  // No return in the message (validate found none to parse), and it names a metadata file: that file is the return.
  if (located.kind === "message" && located.orTask !== undefined && report.value === undefined) {
    return checkReturn(readNamedTask(context.root, located.orTask), context);
  }
  const problems = report.results
    .filter((result) => result.level === "fail")
    .map((result) => {
      const { message, detail, recommendation } = result;
      const reask = reaskLine(result, report.value, report.agent);
      return { message, ...(detail === undefined ? {} : { detail }), ...(recommendation === undefined ? {} : { recommendation }), reask };
    });
  return {
    ok: passed({ report }),
    status: report.status,
    origin: report.origin,
    source,
    task,
    problems,
    warningCount: report.warningCount,
    internalError: report.internalError,
  };
}

/** The most problems a block reason lists: the subagent fixes these first, and the rest come back next time. */
const MAX_LISTED_PROBLEMS = 20;

/** Each problem numbered, with the seeds' `Error:` and `Recommendation:` lines beneath it; at most MAX_LISTED_PROBLEMS. */
export function problemLines(problems: readonly Problem[]): string[] {
  return listed(problems, (problem, index) => [
    `${String(index + 1)}. ${problem.message}`,
    ...(problem.detail === undefined ? [] : problem.detail.split("\n").map((line) => `   ${line}`)),
    ...(problem.recommendation === undefined ? [] : [`   Recommendation: ${problem.recommendation}`]),
  ]);
}

/** Each problem as the subagent is asked to fix it (`--format reask`'s line); at most MAX_LISTED_PROBLEMS. */
export function reaskLines(problems: readonly Problem[]): string[] {
  return listed(problems, (problem) => [`- ${problem.reask}`]);
}

function listed(problems: readonly Problem[], linesOf: (problem: Problem, index: number) => string[]): string[] {
  const more = problems.length - MAX_LISTED_PROBLEMS;
  const lines = (more > 0 ? problems.slice(0, MAX_LISTED_PROBLEMS) : problems).flatMap(linesOf);
  if (more > 0) lines.push(`… and ${String(more)} more ${more === 1 ? "problem" : "problems"} (run returnlint check on the return to see them all)`);
  return lines;
}
