import { createGitFileView, stripBom, type ExitCode, type FileView, type GitFileView, type LoadedConfig } from "@returnlint/core";
import { catalogue, explainRule, ruleListing, type ReadmeOf } from "./catalogue.js";
import { knownCommand } from "./commands.js";
import { formatterContext } from "./context.js";
import { claimedPaths, factsOf, type ReturnFacts } from "./facts.js";
import type { FormatterInput } from "./formatter-types.js";
import { reask } from "./reask.js";
import { reportObject, type ReportObject } from "./report-object.js";
import { openInsideRoot, openTaskSource, textSource, type ReturnSource } from "./source.js";
import { checkFound, fileViewOf, findReturn, loadReturnlintConfig, missingReturn, type FoundReturn, type SourceSays, type ValidateOptions, type ValidationReport } from "./validate.js";
import { exitCodeOfReport, passed } from "./verdict.js";

/** How sources are linted: what the caller knows of the delegation, the config, and the verdict's terms. */
export interface LintOptions extends ValidateOptions {
  /** The project root: artifact paths are relative to it, and only files inside it are read. */
  readonly root: string;
  /** `--max-warnings`: more warnings than this fail a return. */
  readonly maxWarnings?: number;
  /**
   * The return is checked when its subagent stops, before any postflight (the hooks, the MCP
   * server): rules do not look beside its file for what a postflight leaves.
   */
  readonly atStop?: boolean;
}

/** One source, linted: the report, the verdict, and the facts every output reads. */
export interface LintResult {
  readonly source: ReturnSource;
  readonly report: ValidationReport;
  readonly facts: ReturnFacts;
  /** The verdict: the rules' and `--max-warnings`'. */
  readonly ok: boolean;
  /** 0 passed, 1 failed, 2 a rule crashed (the verdict is incomplete). */
  readonly exitCode: ExitCode;
}

/**
 * Lints sources, one after another, with one config: the one way a return is judged. ESLint's
 * `lintFiles` → results is the model: every caller makes sources (`source.ts`) and reads results.
 */
export async function lint(sources: readonly ReturnSource[], options: LintOptions): Promise<LintResult[]> {
  // The options with their config made once, not per source (a spread then a property is V8's slow path).
  const withConfig = options.config === undefined ? { ...options, config: await loadReturnlintConfig(options) } : options;
  const results: LintResult[] = [];
  for (const source of sources) results.push(await lintSource(source, withConfig));
  return results;
}

/**
 * Rules run again, on complete answers, while a git view had to answer without something a rule
 * or the facts asked for: each round loads every path the last one missed, to its end. Two rounds
 * answer a rule whose paths do not depend on what it found; a rule that keeps asking for new paths
 * gets `unreadable` for those after the last round.
 */
const MAX_ROUNDS = 4;

/** A text holds no return when it is empty or prose: only then is a source's `otherwise` looked at. */
const HOLDS_NO_RETURN: ReadonlySet<string> = new Set(["empty", "noReturn"]);

/** One source, linted (see `lint`). */
export async function lintSource(source: ReturnSource, options: LintOptions): Promise<LintResult> {
  const config = options.config ?? (await loadReturnlintConfig(options));
  const found = foundIn(source);
  const elsewhere = source.kind === "text" && !found.parse.ok && HOLDS_NO_RETURN.has(found.parse.kind) ? source.otherwise?.() : undefined;
  if (elsewhere !== undefined) return lintSource(elsewhere, options.config === undefined ? { ...options, config } : options);
  // Plain fields, no spreads of the options: this is the hot path of scan and audit.
  const says: SourceSays = {
    fileName: source.kind === "text" ? undefined : source.name,
    task: source.task,
    returnFile: returnFileOf(source, options),
    now: source.kind === "git" ? new Date(source.time) : undefined,
  };
  const files = options.files ?? viewOf(source, options);
  const agent = options.agent === "" ? undefined : options.agent;
  let report: ValidationReport;
  let facts: ReturnFacts;
  if (isGitView(files)) {
    await files.prefetch(claimedPaths(found.parse.ok ? found.parse.value : undefined));
    for (let round = 1; ; round += 1) {
      report = await checkFound(found, options, config, files, says);
      facts = factsOf(report, agent, files);
      if (round === MAX_ROUNDS || !(await files.loadMissing())) break;
    }
  } else {
    report = await checkFound(found, options, config, files, says);
    facts = factsOf(report, agent, files);
  }
  const verdict = { report, ...(options.maxWarnings === undefined ? {} : { maxWarnings: options.maxWarnings }) };
  return { source, report, facts, ok: passed(verdict), exitCode: exitCodeOfReport(verdict) };
}

function foundIn(source: ReturnSource): FoundReturn {
  switch (source.kind) {
    case "text":
      return findReturn(stripBom(source.text), false);
    case "missing":
      return missingReturn(source.name, source.unreadable);
    case "file":
    case "git":
      return findReturn(stripBom(source.text), true);
  }
}

/** The return file below the root that rules look beside (postflight-marker): not at a subagent's stop, when nothing is cleaned up yet. */
function returnFileOf(source: ReturnSource, options: LintOptions): string | undefined {
  if (options.atStop === true) return undefined;
  return source.kind === "file" || source.kind === "git" ? source.path : undefined;
}

function viewOf(source: ReturnSource, options: LintOptions): FileView {
  if (source.kind === "git") {
    return createGitFileView({ cache: source.cache, commit: source.commit, tree: source.tree, root: options.root, mtimeMs: source.time });
  }
  const identity = source.kind === "missing" ? undefined : source.identity;
  return fileViewOf(options.root, identity === undefined ? [] : [identity]);
}

function isGitView(files: FileView): files is GitFileView {
  return "loadMissing" in files;
}

/** What a formatter is handed for one result (the CLI adds `color` and `quiet`). */
export function formatterInput(result: LintResult, options: { readonly cwd: string; readonly maxWarnings?: number; readonly quiet: boolean }): Omit<FormatterInput, "color"> {
  const { source, report, facts } = result;
  return {
    report,
    facts,
    source: source.name,
    cwd: options.cwd,
    ...(source.task === undefined ? {} : { task: source.task }),
    ...formatterContext(report),
    ...(options.maxWarnings === undefined ? {} : { maxWarnings: options.maxWarnings }),
    quiet: options.quiet,
  };
}

/**
 * The library's view of one checked return, for hosts that are neither a shell nor a
 * hook (the MCP server): the object `check --format json` prints, and the lines
 * `check --format reask` addresses to the subagent.
 */
export interface LintedReturn {
  readonly report: ReportObject;
  /** `--format reask`: one line per problem, or "The return is valid …; nothing to fix." */
  readonly reask: string;
  readonly result: LintResult;
}

/** What the MCP server's tools are given: the config loaded once, and the root. */
export interface LintReturnOptions extends Omit<LintOptions, "config"> {
  readonly config: LoadedConfig;
}

/** A return given as text (a subagent's final message, or the JSON alone). */
export function lintText(text: string, options: LintReturnOptions & { readonly source?: string }): Promise<LintedReturn> {
  return linted(textSource(text, options.source ?? "<text>"), options);
}

/**
 * A return in a file inside the root. A `.return-meta.json` is a metadata file, an
 * `.orchestrator-handoff.json` a handoff, a `.return-meta-multi*.json` a multi-task return; any
 * other file holds a console return. Checked as at the subagent's stop: before the postflight.
 */
export function lintFile(file: string, options: LintReturnOptions): Promise<LintedReturn> {
  return linted(openInsideRoot(file, { root: options.root }), options);
}

/** Task N's metadata file (`specs/{N}_{SLUG}/.return-meta.json`); a task folder without one is a finding, as in `check --task`. */
export function lintTask(task: string, options: LintReturnOptions): Promise<LintedReturn> {
  return linted(openTaskSource(task, { root: options.root }), { ...options, task });
}

async function linted(source: ReturnSource, options: LintReturnOptions): Promise<LintedReturn> {
  // A misspelt command would run the wrong preset: it is a usage error, with a "did you mean", as in `check --command`.
  const result = await lintSource(source, { atStop: true, ...options, command: knownCommand(options.config, options.command ?? undefined) ?? null });
  const input = { ...formatterInput(result, { cwd: options.root, quiet: false }), color: false };
  return {
    report: reportObject(result.report, result.source.name, { ok: result.ok, quiet: false, facts: result.facts, ...(result.source.task === undefined ? {} : { task: result.source.task }) }),
    reask: reask([input], { several: false }),
    result,
  };
}

/** Every rule, as `returnlint rules --format json` lists them. */
export async function listRules(config: LoadedConfig): Promise<ReturnType<typeof ruleListing>[]> {
  return (await catalogue(config)).map(ruleListing);
}

/** One rule's documentation, as `returnlint explain RULE` prints it (built-in rules' READMEs as `readmeOf` finds them). */
export async function describeRule(config: LoadedConfig, name: string, readmeOf?: ReadmeOf): Promise<string> {
  return explainRule(await catalogue(config), name, readmeOf);
}

