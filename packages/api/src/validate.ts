import path from "node:path";
import {
  DEFAULT_RULE_TIMEOUT_MS,
  ReturnlintError,
  createFileView,
  extractReturn,
  lineAndColumn,
  loadConfig,
  parseReturn,
  claimsOfReturn,
  rulesFor,
  runRulesEagerly,
  stripBom,
  type AnyRule,
  type Claims,
  type ConfiguredRule,
  type Contract,
  type Expected,
  type FileCheck,
  type PrecompiledValidators,
  type SchemaValidator,
  type FileView,
  type Importer,
  type Identity,
  type LoadedConfig,
  type ParseOutcome,
  type Report,
  type ResolvedRules,
  type ReturnOrigin,
} from "@returnlint/core";
import { commandOfReturn } from "./facts.js";
import { PRECOMPILED } from "./precompiled.js";
import { BUILTIN_PRESETS, BUILTIN_RULES, contractRules } from "./registry.js";

export type { Importer };

export interface ConfigOptions {
  /** Where config discovery starts (default: the current directory). */
  readonly cwd?: string;
  /** A config file to use instead of discovery. */
  readonly configFile?: string;
  /** A preset for every command, over the config's (`--preset`). */
  readonly preset?: string;
  /** How config, preset and rule modules are imported (default: Node's `import()`; returnlint's bin lends its loader's). */
  readonly importer?: Importer;
  /** Run none of the config's code: a JavaScript config is refused, and rules and presets that are modules are listed in `refused` (core's `dataOnly`). */
  readonly dataOnly?: boolean;
}

/** What the caller knows about the delegation (core's `Expected`): session id, agent, task, run start, … */
export interface ValidateOptions extends ConfigOptions, Expected {
  /**
   * The orchestrator command the return answers: research, plan, revise, implement, … Given, the
   * check is that command's postflight gate; not given, the command is the one the return names
   * (`commandOfReturn`), which never makes a gate of it.
   */
  readonly command?: string | null;
  /** The directory artifact paths are relative to (default: `cwd`). */
  readonly root?: string;
  /** A config loaded once with `loadReturnlintConfig`, to validate many returns without reloading it. */
  readonly config?: LoadedConfig;
  /** How long one rule may take, in milliseconds (default: $RETURNLINT_RULE_TIMEOUT_MS, else 10 s). */
  readonly ruleTimeoutMs?: number;
  /**
   * The file view artifacts are checked through (core's `createFileView(root)`; it replaces `root`).
   * Share one between the returns of one batch checked at one moment, as `scan` does, so that a
   * folder they share is looked at once; a view caches what it saw, so never keep one for later.
   */
  readonly files?: FileView;
  /** false: passes and notes are counted, not listed in the report's results (core's `listNotes`), for a caller that shows problems only. */
  readonly listNotes?: boolean;
}

export interface ValidationReport extends Report {
  /** The preset whose rules ran (for `auto`, the one the detected format chose). */
  readonly preset: string;
  /** Where the return was found in the input: bare JSON, a fenced block, a `<task_result>`, a metadata file, or nowhere. */
  readonly origin: ReturnOrigin;
  /** With the preset `auto`: why the return was taken to be in its format (`read from specs/…/.return-meta.json`). */
  readonly formatReason?: string;
  /** The return as the rules checked it (byte-order mark removed; found inside prose, when it was). */
  readonly text: string;
  /** The line of the input on which `text` starts: 1 unless the return was found inside prose. */
  readonly firstLine: number;
  /** The return, parsed once, here (undefined when it is not JSON): formatters, scan and the hook use it as it is. */
  readonly value: unknown;
  /** The rules configured for this return, in the order they ran (a rule that needs an object skips a return that is not one). */
  readonly rules: readonly AnyRule[];
  /** What the return claims, and where: its format's fields, or where its contract says. */
  readonly claims: Claims;
  /** The contract the return was checked under, when its command has one. */
  readonly contract?: Contract;
}

/** The precompiled validators keyed by the rule objects they belong to (core's PrecompiledValidators). */
let precompiled: PrecompiledValidators | undefined;

function precompiledValidators(): PrecompiledValidators | undefined {
  if (PRECOMPILED === undefined) return undefined;
  precompiled ??= {
    ...(PRECOMPILED.config === undefined ? {} : { config: PRECOMPILED.config }),
    rules: new Map(
      [...BUILTIN_RULES.keys()].flatMap((id): [string, SchemaValidator][] => {
        const validate = PRECOMPILED?.[`rule:${id}`];
        return validate === undefined ? [] : [[id, validate]];
      }),
    ),
  };
  return precompiled;
}

/** Loads and validates the configuration once (throws a ReturnlintError listing every problem). */
export function loadReturnlintConfig(options: ConfigOptions = {}): Promise<LoadedConfig> {
  const validators = precompiledValidators();
  return loadConfig({
    cwd: options.cwd ?? process.cwd(),
    builtinRules: BUILTIN_RULES,
    builtinPresets: BUILTIN_PRESETS,
    contractRules,
    moduleTimeoutMs: ruleTimeoutFromEnv(),
    ...(validators === undefined ? {} : { precompiled: validators }),
    ...(options.configFile === undefined ? {} : { configFile: options.configFile }),
    ...(options.preset === undefined ? {} : { preset: options.preset }),
    ...(options.importer === undefined ? {} : { importer: options.importer }),
    ...(options.dataOnly === true ? { dataOnly: true } : {}),
  });
}

/**
 * Validates one return, given as the text the subagent produced (it may sit inside prose). Resolves
 * with the report (`ok` is the verdict); rejects only for configuration problems. `lint` does the
 * same for any source, and works out the return's facts too.
 */
export async function validate(input: string, options: ValidateOptions = {}): Promise<ValidationReport> {
  const config = options.config ?? (await loadReturnlintConfig(options));
  const found = findReturn(stripBom(input), false);
  return checkFound(found, options, config, options.files ?? fileViewOf(options.root ?? options.cwd ?? process.cwd(), NO_RETURN_FILES), NOTHING_SAID);
}

/** A return found in its input: the text the rules read, where it was found, its one parse, and the line it starts on. */
export interface FoundReturn {
  readonly text: string;
  readonly origin: ReturnOrigin;
  readonly parse: ParseOutcome;
  readonly firstLine: number;
}

/**
 * What a source says of itself, besides its text: one object of one shape per return (every field
 * written, undefined where the source says nothing), so that the hot path reads plain fields.
 */
export interface SourceSays {
  /** The return file's name, when the return was read whole from one: its format is the one the name says. */
  readonly fileName: string | undefined;
  /** The task its folder is (the caller's `task` wins). */
  readonly task: string | undefined;
  /** Its path below the root, for the rules that look beside it. */
  readonly returnFile: string | undefined;
  /** When it was written (a commit's time): what time-dependent rules take as now, unless the caller says. */
  readonly now: Date | undefined;
}

const NOTHING_SAID: SourceSays = { fileName: undefined, task: undefined, returnFile: undefined, now: undefined };

/** Text from a channel was read from no return file: none to tell apart from the artifacts. */
const NO_RETURN_FILES: readonly Identity[] = [];

/**
 * The rules the config gives a found return, run over `files`: the one place returnlint runs rules.
 * The report itself when every rule settles at once (the built-in rules do), else a promise of it:
 * a caller validating many returns saves a promise and two turns of the microtask queue per return.
 */
export function checkFound(found: FoundReturn, options: ValidateOptions, config: LoadedConfig, files: FileView, says: SourceSays): ValidationReport | Promise<ValidationReport> {
  const { text, parse } = found;
  const value = parse.ok ? parse.value : undefined;
  const command = options.command ?? commandOfReturn(value);
  // Plain fields, no spreads: this is the hot path of every return (bench Case 4).
  const resolving = rulesFor(config, { command, value, preset: options.preset, source: says.fileName });
  // A promise only the first time a preset's built-in rules are imported; imported, rulesFor answers at once.
  if (resolving instanceof Promise) return resolving.then(() => checkFound(found, options, config, files, says));
  const claims = claimsOfReturn(value, resolving.contract);
  const running = runRulesEagerly({
    contract: resolving.contract,
    claims,
    text,
    parse,
    command,
    format: resolving.format,
    expected: expectedOf(options, says),
    rules: resolving.rules,
    files,
    ruleTimeoutMs: options.ruleTimeoutMs ?? ruleTimeoutOf(config),
    listNotes: options.listNotes !== false,
  });
  // Built-in rules settle at once: no await, no turn of the microtask queue.
  if (running instanceof Promise) return running.then((report) => validationOf(found, value, resolving, claims, report));
  return validationOf(found, value, resolving, claims, running);
}

/** The report of a found return's rules, with what the API says of the return besides. */
function validationOf(found: FoundReturn, value: unknown, resolved: ResolvedRules, claims: Claims, report: Report): ValidationReport {
  // Every field written out: a spread of the report would cost more than the rules that made it.
  const validation: Writable<ValidationReport> = {
    ok: report.ok,
    command: report.command,
    format: report.format,
    status: report.status,
    agent: report.agent,
    errorCount: report.errorCount,
    warningCount: report.warningCount,
    internalError: report.internalError,
    results: report.results,
    preset: resolved.preset,
    origin: found.origin,
    text: found.text,
    firstLine: found.firstLine,
    value,
    rules: rulesOf(resolved.rules),
    claims,
  };
  if (resolved.detection !== undefined) validation.formatReason = resolved.detection.reason;
  if (resolved.contract !== undefined) validation.contract = resolved.contract;
  if (report.omitted !== undefined) validation.omitted = report.omitted;
  return validation;
}

type Writable<T> = { -readonly [K in keyof T]: T[K] };

/** The rules of each of rulesFor's answers (one per config, command, preset and format) as reports list them: made once, shared by its reports. */
const ruleLists = new WeakMap<readonly ConfiguredRule[], readonly AnyRule[]>();

function rulesOf(configured: readonly ConfiguredRule[]): readonly AnyRule[] {
  let rules = ruleLists.get(configured);
  if (rules === undefined) {
    rules = Object.freeze(configured.map(ruleOf));
    ruleLists.set(configured, rules);
  }
  return rules;
}

function ruleOf({ rule }: { readonly rule: AnyRule }): AnyRule {
  return rule;
}

/** core's file view over `root`; over an absolute root, made only when a rule first looks at it. */
export function fileViewOf(root: string, returnFiles: readonly Identity[]): FileView {
  // A relative root is resolved against the cwd now, as the caller meant it.
  return path.isAbsolute(root) ? new FileViewOnUse(root, returnFiles) : createFileView(root, { returnFiles });
}

/**
 * core's file view, made when a rule first asks for the root or a file: a return whose rules look
 * at no file (artifacts off) pays for none. Over an absolute root only, which needs no cwd, so
 * the view is the same whenever it is made.
 */
class FileViewOnUse implements FileView {
  readonly #given: string;
  readonly #returnFiles: readonly Identity[];
  #view: FileView | undefined;

  constructor(given: string, returnFiles: readonly Identity[]) {
    this.#given = given;
    this.#returnFiles = returnFiles;
  }

  get root(): string {
    return this.#made().root;
  }

  check(file: string): FileCheck {
    return this.#made().check(file);
  }

  read(file: string, maxBytes: number): string | null {
    return this.#made().read(file, maxBytes);
  }

  list(folder: string): readonly string[] | null {
    return this.#made().list?.(folder) ?? null;
  }

  #made(): FileView {
    this.#view ??= createFileView(this.#given, { returnFiles: this.#returnFiles });
    return this.#view;
  }
}

/** What json-structure sees when the metadata file is not there, or may not be read (`unreadable`: why). */
export function missingReturn(file: string, unreadable?: string): FoundReturn {
  const parse = unreadable === undefined ? { kind: "missing" as const, reason: `no return metadata file at ${file}` } : { kind: "unreadable" as const, reason: unreadable };
  return { text: "", origin: "file", parse: { ok: false, ...parse, file, line: 1, column: 1 }, firstLine: 1 };
}

/** $RETURNLINT_RULE_TIMEOUT_MS, read once per loaded config: reading the environment costs more than a rule. */
const ruleTimeouts = new WeakMap<LoadedConfig, number>();

function ruleTimeoutOf(config: LoadedConfig): number {
  let timeout = ruleTimeouts.get(config);
  if (timeout === undefined) {
    timeout = ruleTimeoutFromEnv();
    ruleTimeouts.set(config, timeout);
  }
  return timeout;
}

function ruleTimeoutFromEnv(): number {
  const given = process.env.RETURNLINT_RULE_TIMEOUT_MS?.trim();
  if (given === undefined || given === "") return DEFAULT_RULE_TIMEOUT_MS;
  if (!/^\d+$/.test(given) || Number(given) < 1) {
    throw new ReturnlintError("USAGE", `RETURNLINT_RULE_TIMEOUT_MS must be a positive number of milliseconds; received "${given}".`);
  }
  return Number(given);
}

/** The caller's word on the delegation, each field written out (a keyed loop over the options costs more than the rules it feeds): a blank one is not given. */
function expectedOf(options: Expected, says: SourceSays): Expected {
  const expected: Writable<Expected> = {};
  if (given(options.sessionId)) expected.sessionId = options.sessionId;
  if (given(options.agent)) expected.agent = options.agent;
  const task = options.task ?? says.task;
  if (given(task)) expected.task = task;
  if (given(options.taskType)) expected.taskType = options.taskType;
  if (given(options.since)) expected.since = options.since;
  if (given(options.gitBase)) expected.gitBase = options.gitBase;
  if (given(options.transcriptPath)) expected.transcriptPath = options.transcriptPath;
  if (given(options.transcriptAgentId)) expected.transcriptAgentId = options.transcriptAgentId;
  const returnFile = options.returnFile ?? says.returnFile;
  if (given(returnFile)) expected.returnFile = returnFile;
  if (given(options.staleAfterSeconds)) expected.staleAfterSeconds = options.staleAfterSeconds;
  const now = options.now ?? says.now;
  if (given(now)) expected.now = now;
  return expected;
}

function given<T>(value: T | undefined): value is T {
  return value !== undefined && (value as unknown) !== "";
}

/**
 * The return inside the input, parsed once. A return file's content (`whole`) is the return as it
 * is; text from a channel may hold it inside prose, and bare JSON (the common case) skips the search.
 */
export function findReturn(input: string, whole: boolean): FoundReturn {
  const direct = parseReturn(input);
  if (whole) return { text: input, origin: "file", parse: direct, firstLine: 1 };
  if (direct.ok) return { text: input, origin: "bare", parse: direct, firstLine: 1 };
  const { text, origin, parsed } = extractReturn(input);
  if (text === input) return { text, origin, parse: direct, firstLine: 1 };
  // A return found inside prose (a fenced block, a <task_result>) starts further down the input.
  const start = input.indexOf(text);
  return { text, origin, parse: parseReturn(text, parsed), firstLine: start <= 0 ? 1 : lineAndColumn(input, start).line };
}
