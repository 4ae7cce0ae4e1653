import { existsSync } from "node:fs";
import path from "node:path";
import { commandInName, FileRefusedError, formatOfFileName, METADATA_FILE, presetFor, relativeInside, RESULTS_OMITTED, readRegularFile, RETURN_FILE_MENTION, ReturnlintError, SPECS_DIR, taskNamedIn, type LoadedConfig } from "@returnlint/core";
import { lintSource } from "./lint.js";
import { reaskLine } from "./reask.js";
import { reportObject, type ReportObject } from "./report-object.js";
import { openNamedTask, openWrittenReturn, type ReturnSource, type TextSource } from "./source.js";
import type { ValidationReport } from "./validate.js";

// A subagent's return as hosts hand it over: which command it answers, where it is, what is wrong with it.
// Shared by `returnlint hook claude` and @returnlint/opencode.

/**
 * The subagents the hosts ship, by their exact names: Claude Code's (`Plan`, `Explore`,
 * `general-purpose`, …), OpenCode's (`general`, `explore`, …) and Copilot CLI's (`task`,
 * `research`, …). They answer in prose by design, so the name rule never maps them; the config's
 * `agents` map still can.
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
  // Codex's roles, as `spawn_agent` names them (`default` when it names none).
  "default",
  "worker",
  "explorer",
  // Copilot CLI's.
  "task",
  "code-review",
  "research",
  "security-review",
  // Cursor's, as its subagentStop payloads name them.
  "generalPurpose",
  "shell",
  "browser-use",
  "computerUse",
  "cursor-guide",
  "best-of-n-runner",
  // Gemini CLI's
  "codebase_investigator",
  "cli_help",
  "generalist",
  "browser_agent",
]);

/**
 * The command whose rules apply to a subagent's returns: the config's `agents`
 * entry (by full name, or by the part after a plugin's `plugin:` prefix), else
 * the command its name contains (never for a host's built-in agent), else null
 * (an agent returnlint knows nothing about).
 */
export function commandForAgent(config: LoadedConfig | undefined, agent: string | undefined): string | null {
  if (agent === undefined) return null;
  const mapped = mappedCommand(config, agent);
  if (mapped !== undefined) return mapped;
  if (BUILT_IN_AGENTS.has(agent)) return null;
  return commandInName(agent);
}

/** The command the config's `agents` map gives an agent, by its full name or by the part after a plugin's `plugin:` prefix. */
function mappedCommand(config: LoadedConfig | undefined, agent: string): string | undefined {
  const agents = config?.config.agents ?? {};
  // "constructor" or "__proto__" is an agent's name, not Object.prototype's.
  const mappedTo = (name: string) => (Object.hasOwn(agents, name) ? agents[name] : undefined);
  return mappedTo(agent) ?? mappedTo(agent.slice(agent.lastIndexOf(":") + 1));
}

/**
 * What in an agent's instructions asks for a return returnlint checks: the name of a file returns
 * are written to (`.return-meta.json`, a handoff, a multi-task file), or a JSON return shown by
 * its `"status"` key.
 */
const ASKS_FOR_A_RETURN = new RegExp(`${RETURN_FILE_MENTION}|${String.raw`"status"\s*:`}`);

/** Whether instructions (an agent's definition, the prompt it was delegated with) ask for a return returnlint checks. */
export function asksForReturn(text: string): boolean {
  return ASKS_FOR_A_RETURN.test(text);
}

/** An agent definition is a page of instructions; anything larger is not one. */
export const MAX_DEFINITION_BYTES = 1024 * 1024;

/** The agent names whose definition may be looked up in a host's folder, as `.claude/agents/NAME.md` (no plugin prefix, no path). */
const DEFINITION_NAME = /^[\w.-]+$/;

/**
 * A project agent's definition (the instructions it runs with): the first of `files` (relative to
 * `root`, each with `{name}` for the agent's name) that is there, or undefined when none is or the
 * name cannot be a file's. One that is there but is no regular file (a FIFO, a link to a device,
 * something too large) is a sentence (ReturnlintError), never opened for reading.
 */
export function agentDefinition(root: string, agent: string | undefined, files: readonly string[]): string | undefined {
  if (agent === undefined || !DEFINITION_NAME.test(agent) || agent.startsWith(".")) return undefined;
  for (const file of files) {
    const absolute = path.join(root, file.replace("{name}", agent));
    try {
      return readRegularFile(absolute, { maxBytes: MAX_DEFINITION_BYTES }).bytes.toString("utf8");
    } catch (error) {
      if (!(error instanceof FileRefusedError)) throw error;
      if (error.kind !== "missing") throw new ReturnlintError("INPUT_UNREADABLE", `Cannot read the agent definition ${absolute}: ${error.reason}.`);
    }
  }
  return undefined;
}

/**
 * Whether a subagent owes a return returnlint checks, from the evidence: the config's `agents`
 * map names it; it wrote a return file during this run; its definition, its prompt or its final
 * message asks for one or shows one (`asksForReturn`: a return file's name, a JSON return's
 * `"status"`); or its definition is not in the project's folder, and its name is all there is to
 * go by. An agent whose own definition asks for something else (a last line such as
 * `REPORT_CREATED: path`) and whose message shows no return owes none: like the hosts' built-in
 * agents, it is left alone.
 */
export function owesReturn(input: { readonly config: LoadedConfig | undefined; readonly agent?: string; readonly run: SubagentRun; readonly message?: string }): boolean {
  const { config, agent, run } = input;
  if (agent !== undefined && mappedCommand(config, agent) !== undefined) return true;
  if (run.definition === undefined) return true;
  // What is at hand first: the run's writes and prompt are its transcript, read only when these do not tell.
  if ([run.definition, input.message].some((text) => text !== undefined && asksForReturn(text))) return true;
  if (run.wrote.some((file) => formatOfFileName(path.basename(file)) !== undefined)) return true;
  return run.prompt !== undefined && asksForReturn(run.prompt);
}

/**
 * What a host knows of a subagent's run besides its final message (Claude Code: from the
 * subagent's own transcript and its definition).
 */
export interface SubagentRun {
  /** The files the subagent wrote with its tools during this run, absolute, the last written last. */
  readonly wrote: readonly string[];
  /** The prompt it was delegated with. */
  readonly prompt?: string;
  /** Its definition (the instructions it runs with). */
  readonly definition?: string;
}

/** Where the layout puts a task's metadata file, as a finding names it when no task is known. */
const METADATA_FILE_LAYOUT = `${SPECS_DIR}/{N}_{SLUG}/${METADATA_FILE}`;

/**
 * The return a stopping subagent left, from the evidence in this order:
 *
 * 1. the metadata file it wrote during this run (`run.wrote`), unless the command's preset says
 *    returns are console returns (v5, v7);
 * 2. its final message, when that holds a return (JSON, bare or fenced; broken JSON too, so that
 *    the rules say where it broke); the steps below are taken only when it holds none;
 * 3. another return file it wrote (a handoff, a multi-task file);
 * 4. the metadata file its final message names (with a path; or, when it was expected to write
 *    one, any file of the task's folder, as subagents name the report they wrote);
 * 5. when it was expected to write a metadata file (the preset is `metadata-file`, or its prompt
 *    or definition names the file): the task its prompt names, else the layout's name for it;
 *    what is not there is the missing-return finding;
 * 6. the final message: prose, which the rules say holds no return.
 *
 * A return file that is there but cannot be read the safe way (a task folder that is a link, a
 * file too large) is the subagent's finding: the return is refused, and says why.
 */
export function returnOfMessage(input: {
  readonly message: string;
  readonly root: string;
  readonly command: string | null;
  readonly config: LoadedConfig;
  readonly preset?: string;
  readonly run?: SubagentRun;
}): ReturnSource {
  const { message, root, run } = input;
  const preset = presetFor(input.config, input.command, input.preset);
  const consoleReturns = preset === "v5" || preset === "v7";
  // What the run shows it wrote (its transcript): asked for only by the steps that need it.
  const written = () => (run?.wrote ?? []).filter((file) => formatOfFileName(path.basename(file)) !== undefined && relativeInside(root, file) !== undefined);
  const metadataFile = consoleReturns ? undefined : written().findLast((file) => path.basename(file) === METADATA_FILE);
  if (metadataFile !== undefined) return openWrittenReturn(metadataFile, { root });
  // Steps 3 to 5, taken only when the message holds no return (`lint` tells, parsing it once).
  const otherwise = (): ReturnSource | undefined => {
    // Another return file only while it is there: a handoff may be written and consumed in one run.
    const returnFile = written().findLast((file) => existsSync(file));
    if (returnFile !== undefined) return openWrittenReturn(returnFile, { root });
    const expectsFile = preset === "metadata-file" || (!consoleReturns && [run?.definition, run?.prompt].some((text) => text?.includes(METADATA_FILE) === true));
    const named = taskNamedIn(message, { folder: expectsFile }) ?? (expectsFile && run?.prompt !== undefined ? taskNamedIn(run.prompt, { folder: true }) : undefined);
    if (named !== undefined) return openNamedTask(named.task, named.folder, { root });
    return expectsFile ? { kind: "missing", name: METADATA_FILE_LAYOUT } : undefined;
  };
  // Written out: `{ ...textSource(message), otherwise }` (a spread, then a property) takes V8's slow
  // path, about 1 µs, and makes an object that every later read of the source pays for (about 5 µs a
  // return through lintSource: more than half of what an in-process adapter added to validate()).
  const source: TextSource = { kind: "text", text: message, name: "message", otherwise };
  return source;
}

/** A problem of a checked return, as a host shows it: the transcript's lines, and the line addressed to the subagent. */
export interface Problem {
  readonly message: string;
  readonly detail?: string;
  readonly recommendation?: string;
  /** The problem addressed to the subagent (`--format reask`'s line): `/pointer: what to change.` */
  readonly reask: string;
}

/** The verdict on a subagent's return, as hosts act on it. */
export interface CheckedReturn {
  readonly ok: boolean;
  readonly status: string | null;
  readonly origin: ValidationReport["origin"];
  /** The metadata file, relative to the root, or "message". */
  readonly source: string;
  /** The return file is not there (or may not be read): the subagent wrote none where it should have. */
  readonly missing: boolean;
  readonly task: string | null;
  /** The failures the rules list (see core's `MAX_LISTED_PER_RULE`), in the order reported. */
  readonly problems: readonly Problem[];
  /** How many failures there are, listed or not. */
  readonly problemCount: number;
  readonly warningCount: number;
  /** A rule crashed: the verdict cannot be trusted. */
  readonly internalError: boolean;
  /** Phantom work (the library's `ReturnFacts`): a success status while the work it claims is not there. */
  readonly phantom: boolean;
  /** The report object (`check --format json`'s), absent when the return could not be checked. */
  readonly report?: ReportObject;
}

/** Lints a subagent's return at its stop (before any postflight) and says what a host needs to act on it. */
export async function checkReturn(
  source: ReturnSource,
  context: {
    readonly root: string;
    readonly command: string;
    readonly config: LoadedConfig;
    readonly agent?: string;
    readonly transcriptPath?: string;
    readonly transcriptAgentId?: string;
  },
): Promise<CheckedReturn> {
  const result = await lintSource(source, {
    config: context.config,
    cwd: context.root,
    root: context.root,
    command: context.command,
    atStop: true,
    ...(context.agent === undefined ? {} : { agent: context.agent }),
    ...(context.transcriptPath === undefined ? {} : { transcriptPath: context.transcriptPath }),
    ...(context.transcriptAgentId === undefined ? {} : { transcriptAgentId: context.transcriptAgentId }),
  });
  const { report } = result;
  // The failures past the runner's limits are in problemCount; the line that sums them up is not a problem of its own.
  const problems = report.results
    .filter((finding) => finding.level === "fail" && finding.messageId !== RESULTS_OMITTED)
    .map((finding) => {
      const { message, detail, recommendation } = finding;
      const reask = reaskLine(finding, report.value, report.agent);
      return { message, ...(detail === undefined ? {} : { detail }), ...(recommendation === undefined ? {} : { recommendation }), reask };
    });
  return {
    ok: result.ok,
    status: report.status,
    origin: report.origin,
    // The source the return was found in: the message, or the metadata file it named.
    source: result.source.name,
    missing: result.source.kind === "missing",
    task: result.source.task ?? null,
    problems,
    problemCount: Math.max(report.errorCount, problems.length),
    warningCount: report.warningCount,
    internalError: report.internalError,
    phantom: result.facts.phantom !== undefined,
    report: reportObject(report, result.source.name, { ok: result.ok, quiet: false, facts: result.facts, ...(result.source.task === undefined ? {} : { task: result.source.task }) }),
  };
}

/** The most problems a block reason lists: the subagent fixes these first, and the rest come back next time. */
const MAX_LISTED_PROBLEMS = 20;

/**
 * Each problem numbered, with the transcript's `Error:` and `Recommendation:` lines beneath it; at
 * most MAX_LISTED_PROBLEMS, then how many more of `count` (every problem, listed or not) there are.
 */
export function problemLines(problems: readonly Problem[], count = problems.length): string[] {
  return listed(problems, count, (problem, index) => [
    `${String(index + 1)}. ${problem.message}`,
    ...(problem.detail === undefined ? [] : problem.detail.split("\n").map((line) => `   ${line}`)),
    ...(problem.recommendation === undefined ? [] : [`   Recommendation: ${problem.recommendation}`]),
  ]);
}

/** Each problem as the subagent is asked to fix it (`--format reask`'s line); at most MAX_LISTED_PROBLEMS, then how many more of `count` there are. */
export function problemReaskLines(problems: readonly Problem[], count = problems.length): string[] {
  return listed(problems, count, (problem) => [`- ${problem.reask}`]);
}

function listed(problems: readonly Problem[], count: number, linesOf: (problem: Problem, index: number) => string[]): string[] {
  const shown = problems.slice(0, MAX_LISTED_PROBLEMS);
  const more = Math.max(count, problems.length) - shown.length;
  const lines = shown.flatMap(linesOf);
  if (more > 0) lines.push(`… and ${String(more)} more ${more === 1 ? "problem" : "problems"} (run returnlint check on the return to see more of them)`);
  return lines;
}
