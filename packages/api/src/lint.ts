import path from "node:path";
import { formatOfFileName, METADATA_FILE, relativeInside, ReturnlintError, type LoadedConfig } from "@returnlint/core";
import { catalogue, explainRule, ruleListing, type ReadmeOf } from "./catalogue.js";
import { knownCommand } from "./commands.js";
import { formatterContext } from "./context.js";
import { reask } from "./reask.js";
import { reportObject } from "./report-object.js";
import { MetadataFile, openTask } from "./tasks.js";
import { validate, type ValidateOptions } from "./validate.js";
import { passed } from "./verdict.js";

/**
 * The library's view of one checked return, for hosts that are neither a shell nor a
 * hook (the MCP server): the object `check --format json` prints, and the lines
 * `check --format reask` addresses to the subagent.
 */
export interface LintedReturn {
  readonly report: ReturnType<typeof reportObject>;
  /** `--format reask`: one line per problem, or "The return is valid …; nothing to fix." */
  readonly reask: string;
}

export interface LintOptions extends Omit<ValidateOptions, "config" | "source" | "missingFile" | "fromFile" | "returnFiles"> {
  /** The config, loaded once with `loadReturnlintConfig`. */
  readonly config: LoadedConfig;
  /** The project root: artifact paths are relative to it, and only files inside it are read. */
  readonly root: string;
}

/** A return given as text (a subagent's final message, or the JSON alone). */
export function lintText(text: string, options: LintOptions & { readonly source?: string }): Promise<LintedReturn> {
  return lint(text, { ...options, source: options.source ?? "<text>", fromFile: false });
}

/**
 * A return in a file inside the root, read through real folders only (a link on the way
 * is refused, as `check --consume` refuses it). A `.return-meta.json` is a metadata file, an
 * `.orchestrator-handoff.json` a handoff, a `.return-meta-multi*.json` a multi-task return; any
 * other file holds a console return. The marker rule does not look beside it: a subagent checks
 * its own return before the postflight.
 */
export async function lintFile(file: string, options: LintOptions): Promise<LintedReturn> {
  const relative = relativeInside(options.root, path.resolve(options.root, file));
  if (relative === undefined || relative === "") {
    throw new ReturnlintError("USAGE", `${file} is outside the project root (${options.root}); returnlint reads returns only inside it.`);
  }
  const metadataFile = path.basename(relative) === METADATA_FILE;
  // A file whose name says its format (.return-meta.json, .orchestrator-handoff.json) holds that return as it is.
  const fromFile = formatOfFileName(path.basename(relative)) !== undefined;
  let held: MetadataFile;
  try {
    held = MetadataFile.open(options.root, relative.split(path.sep), relative);
  } catch (error) {
    if (!(error instanceof ReturnlintError) || error.code !== "RETURN_NOT_FOUND") throw error;
    // A metadata file the agent did not write is a finding; any other missing file is a wrong path.
    if (metadataFile) return lint("", { ...options, source: relative, fromFile: true, missingFile: true });
    throw new ReturnlintError("INPUT_UNREADABLE", `Cannot read ${relative}: there is no such file in the project root.`);
  }
  held.close();
  return lint(held.text, { ...options, source: relative, fromFile, returnFiles: [held.identity] });
}

/** Task N's metadata file (`specs/{N}_{SLUG}/.return-meta.json`); a task folder without one is a finding, as in `check --task`. */
export async function lintTask(task: string, options: LintOptions): Promise<LintedReturn> {
  const found = openTask(options.root, task);
  if ("missing" in found) {
    return lint("", { ...options, task, source: path.relative(options.root, found.missing), fromFile: true, missingFile: true });
  }
  found.close();
  return lint(found.text, { ...options, task, source: path.relative(options.root, found.source), fromFile: true, returnFiles: [found.identity] });
}

async function lint(text: string, options: LintOptions & Pick<ValidateOptions, "fromFile" | "missingFile" | "returnFiles"> & { readonly source: string }): Promise<LintedReturn> {
  // A misspelt command would run the wrong preset: it is a usage error, with a "did you mean", as in `check --command`.
  const report = await validate(text, { ...options, command: knownCommand(options.config, options.command ?? undefined) });
  const input = {
    report,
    source: options.source,
    cwd: options.root,
    ...(options.task === undefined ? {} : { task: options.task }),
    ...formatterContext(report),
    color: false,
    quiet: false,
  };
  return {
    report: reportObject(report, options.source, { ok: passed(input), quiet: false, ...(options.task === undefined ? {} : { task: options.task }) }),
    reask: reask([input], { several: false }),
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
