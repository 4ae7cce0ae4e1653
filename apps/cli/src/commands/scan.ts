import { opendirSync, readdirSync, statSync, type Dir, type Dirent } from "node:fs";
import path from "node:path";
import { ReturnlintError, createFileView, formatOfFileName, relativeInside, isObject, isReturnlintError, isSuccessLike, stripBom, type FileView, type Result } from "@returnlint/core";
import { knownCommand } from "@returnlint/api";
import { configOptions, integerOption, parseCommandLine } from "../args.js";
import { validate, type ValidationReport } from "@returnlint/api";
import { loadReturnlintConfig } from "../host.js";
import { reportObject } from "@returnlint/api";
import { readReturnFile } from "@returnlint/api";
import { colorWanted } from "../terminal.js";
import type { CommandIo } from "./io.js";

const DEFAULT_CONCURRENCY = 16;

export const SCAN_HELP = `Usage: returnlint scan [DIR] [options]

Validates every .return-meta.json and .orchestrator-handoff.json below DIR
(default: specs/, archived tasks in specs/archive/ included) and prints the
failing returns and a summary: returns by status, failures by rule, phantom
work (a success status with no artifact that exists), passed and failed. The
command of each return is inferred from its status (researched → research,
planned → plan, implemented → implement) unless --command names one.

What was delegated:
  --command NAME       check every return as an answer to NAME (a postflight
                       gate: an in_progress return fails); a command returnlint
                       knows, or one the config lists under "commands"
  --root DIR           the project root artifact paths are relative to (default: .)

Configuration:
  -c, --config FILE    use FILE instead of looking for returnlint.config.* upwards
  --preset NAME        v5, v7, metadata-file, handoff, auto, or a returnlint-preset-* package

Output:
  -f, --format NAME    stylish (default) or json: one JSON array, one report per return
  --concurrency N      how many returns are checked at once (default: ${String(DEFAULT_CONCURRENCY)})
  -q, --quiet          report failing returns only
  --color, --no-color  force colours on or off (default: on a terminal, unless
                       NO_COLOR is set; FORCE_COLOR=1 turns them on)
  -h, --help           show this help

A progress line is drawn on standard error when it is a terminal.
Symlinked directories are not followed.

Exit codes: 0 every return passed, 1 at least one failed validation,
            2 usage, configuration or internal error, or a file that cannot be read.

Examples:
  returnlint scan
  returnlint scan specs --root . --format json | jq '.[] | select(.ok | not) | .source'
  returnlint scan ~/project/specs --root ~/project --command implement
`;

const OPTIONS = {
  command: { type: "string" },
  root: { type: "string" },
  config: { type: "string", short: "c" },
  preset: { type: "string" },
  format: { type: "string", short: "f" },
  concurrency: { type: "string" },
  quiet: { type: "boolean", short: "q" },
  color: { type: "boolean" },
  "no-color": { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

const RETURN_FILE = ".return-meta.json";
const HANDOFF_FILE = ".orchestrator-handoff.json";
const FORMATS = ["stylish", "json"] as const;
/** The command whose contextual success status a metadata file reports. */
const COMMAND_OF_STATUS: Readonly<Record<string, string>> = { researched: "research", planned: "plan", implemented: "implement" };
const PROGRESS_INTERVAL_MS = 100;
/** Output is written in pieces of about this size: one write per return would be one syscall per return. */
const FLUSH_AT = 64 * 1024;

type Outcome =
  | { readonly source: string; readonly report: ValidationReport; readonly phantom: boolean }
  | { readonly source: string; readonly unreadable: string };

export async function scan(argv: readonly string[], io: CommandIo): Promise<number> {
  const { values, positionals } = parseCommandLine("scan", argv, OPTIONS);
  if (values.help === true) {
    io.stdout(SCAN_HELP);
    return 0;
  }
  if (positionals.length > 1) {
    throw new ReturnlintError("USAGE", `returnlint scan takes one directory; received ${String(positionals.length)}. Run "returnlint scan --help" for the options.`);
  }
  const format = values.format ?? "stylish";
  if (!(FORMATS as readonly string[]).includes(format)) {
    throw new ReturnlintError("USAGE", `Unknown format "${format}" for "returnlint scan"; available: ${FORMATS.join(", ")}.`);
  }
  const concurrency = integerOption("concurrency", values.concurrency) ?? DEFAULT_CONCURRENCY;
  if (concurrency < 1) throw new ReturnlintError("USAGE", "--concurrency must be at least 1.");
  const quiet = values.quiet === true;
  const dir = path.resolve(io.cwd, positionals[0] ?? "specs");
  const shownDir = display(io.cwd, dir);
  requireDirectory(dir, shownDir, positionals[0] === undefined);

  const color = colorWanted(values, io.env, io.color);
  const config = await loadReturnlintConfig(configOptions(io.cwd, values));
  const root = path.resolve(io.cwd, values.root ?? ".");
  const command = knownCommand(config, values.command);
  // One view for the whole scan, one moment: the folders above the task folders are looked at once.
  const files = createFileView(root);

  const checkOne = async (file: string): Promise<Outcome> => {
    const source = display(io.cwd, file);
    let text: string;
    try {
      text = stripBom(readReturnFile(file, { followSymlink: false }).text);
    } catch (error) {
      return { source, unreadable: isReturnlintError(error) ? error.message : `Cannot read ${file}: ${String(error)}.` };
    }
    const report = await validate(text, {
      cwd: io.cwd,
      files,
      config,
      ...(command === null ? { commandOf: inferCommand } : { command }),
      fromFile: true,
      source,
      ...(values.preset === undefined ? {} : { preset: values.preset }),
    });
    // A handoff lists no artifacts of its own: the metadata file beside it carries them.
    return { source, report, phantom: report.format !== "handoff" && claimsPhantomWork(report.value, files) };
  };

  const out = new Output(io);
  const progress = new Progress(io, shownDir, io.stderrIsTTY === true && !quiet);
  const summary = new Summary();
  const walkProblems: string[] = [];
  const returnFiles = walkReturnFiles(dir, (where, reason) => walkProblems.push(`Cannot read directory ${display(io.cwd, where)}: ${reason}.`));
  const json = format === "json";
  if (json) out.write("[");

  let printed = 0;
  for await (const outcome of mapOrdered(returnFiles, concurrency, checkOne)) {
    summary.add(outcome);
    if ("unreadable" in outcome) {
      progress.clear();
      io.stderr(`returnlint: ${outcome.unreadable}\n`);
    } else if (json) {
      if (!quiet || !outcome.report.ok) {
        const printedReport = JSON.stringify(reportObject(outcome.report, outcome.source, { ok: outcome.report.ok, quiet }));
        out.write(`${printed++ === 0 ? "\n" : ",\n"}${printedReport}`);
      }
    } else if (!outcome.report.ok) {
      progress.clear();
      out.write(failureLine(outcome.report, outcome.source, color));
      // Someone watching the progress line sees each failure as it is found.
      if (progress.enabled) out.flush();
    }
    progress.tick(summary);
  }
  if (json) out.write(printed === 0 ? "]\n" : "\n]\n");
  out.flush();
  progress.finish(summary);
  for (const problem of walkProblems) io.stderr(`returnlint: ${problem}\n`);
  if (!json) io.stdout(summary.render(shownDir, quiet, color));

  if (summary.unreadable > 0 || walkProblems.length > 0 || summary.internalErrors > 0) return 2;
  return summary.failed > 0 ? 1 : 0;
}

/** A metadata file's status names the command it answers; anything else is checked with no command. */
function inferCommand(value: unknown): string | null {
  const status = isObject(value) ? value.status : undefined;
  return typeof status === "string" && Object.hasOwn(COMMAND_OF_STATUS, status) ? (COMMAND_OF_STATUS[status] ?? null) : null;
}

/**
 * Phantom work, as the words say: a status that claims success (researched, planned,
 * implemented, completed, or a word like done) and not one artifact that exists,
 * whether the list is empty, left out, or names only files that are not there.
 */
function claimsPhantomWork(value: unknown, files: FileView): boolean {
  if (!isObject(value) || typeof value.status !== "string" || !isSuccessLike(value.status)) return false;
  const artifacts: unknown[] = Array.isArray(value.artifacts) ? (value.artifacts as unknown[]) : [];
  return !artifacts.some((artifact) => {
    const named = typeof artifact === "string" ? artifact : isObject(artifact) ? artifact.path : undefined;
    return typeof named === "string" && files.check(named).ok;
  });
}

function requireDirectory(dir: string, shown: string, isDefault: boolean): void {
  const hint = isDefault ? " Run returnlint scan from the project root, or pass the directory that holds the task folders." : "";
  try {
    if (statSync(dir).isDirectory()) return;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === "ENOENT" ? "no such directory" : code === "EACCES" ? "permission denied" : String(code);
    throw new ReturnlintError("USAGE", `Cannot scan ${shown}: ${reason}.${hint}`);
  }
  throw new ReturnlintError("USAGE", `Cannot scan ${shown}: it is not a directory. Use "returnlint check" for one file.`);
}

/**
 * Every return file (`.return-meta.json`, `.orchestrator-handoff.json`) below `dir`, depth first. Symlinks (to directories
 * or files) are never followed, so a link loop cannot trap the walk. The
 * directory that grows with the project, `dir` itself (one folder per task), is
 * streamed entry by entry; the folders below it are small and are each listed
 * in one call, which costs a third of the CPU of a directory handle (Node 20).
 * The calls are synchronous on purpose: a directory read is a few microseconds,
 * a round trip through libuv's thread pool tens of them, and the walk only
 * advances as fast as the checks consume it.
 */
export function* walkReturnFiles(dir: string, onProblem: (dir: string, reason: string) => void): Generator<string> {
  let handle: Dir;
  try {
    handle = opendirSync(dir, { bufferSize: 256 });
  } catch (error) {
    onProblem(dir, reasonOf(error));
    return;
  }
  try {
    for (let entry = handle.readSync(); entry !== null; entry = handle.readSync()) yield* visit(dir, entry, onProblem);
  } catch (error) {
    onProblem(dir, reasonOf(error));
  } finally {
    handle.closeSync();
  }
}

function* visit(parent: string, entry: Dirent, onProblem: (dir: string, reason: string) => void): Generator<string> {
  const child = path.join(parent, entry.name);
  if (entry.isFile()) {
    if (formatOfFileName(entry.name) !== undefined) yield child;
    return;
  }
  if (!entry.isDirectory()) return;
  let entries: Dirent[];
  try {
    entries = readdirSync(child, { withFileTypes: true });
  } catch (error) {
    onProblem(child, reasonOf(error));
    return;
  }
  for (const grandchild of entries) yield* visit(child, grandchild, onProblem);
}

/**
 * Applies `fn` to every item with at most `limit` calls in flight and yields the
 * results in the order of the items, so that output does not depend on timing.
 * `fn` must not reject.
 */
export async function* mapOrdered<T, R>(items: Iterable<T>, limit: number, fn: (item: T) => Promise<R>): AsyncGenerator<R> {
  const iterator = items[Symbol.iterator]();
  const pending: Promise<R>[] = [];
  let done = false;
  for (;;) {
    while (!done && pending.length < limit) {
      const next = iterator.next();
      if (next.done === true) done = true;
      else pending.push(fn(next.value));
    }
    const head = pending.shift();
    if (head === undefined) return;
    yield await head;
  }
}

function reasonOf(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "EACCES") return "permission denied";
  if (code === "ENOENT") return "it disappeared during the scan";
  return error instanceof Error ? error.message : String(error);
}

function display(cwd: string, file: string): string {
  const relative = relativeInside(cwd, file);
  return relative === undefined ? file : relative === "" ? "." : relative;
}

function firstFailure(report: ValidationReport): Result | undefined {
  return report.results.find((result) => result.level === "fail");
}

const RED = (color: boolean, text: string) => (color ? `\u001b[31m${text}\u001b[39m` : text);
const GREEN = (color: boolean, text: string) => (color ? `\u001b[32m${text}\u001b[39m` : text);
const CYAN = (color: boolean, text: string) => (color ? `\u001b[36m${text}\u001b[39m` : text);

function failureLine(report: ValidationReport, source: string, color: boolean): string {
  const first = firstFailure(report);
  const more = report.errorCount > 1 ? `, ${String(report.errorCount - 1)} more ${report.errorCount === 2 ? "failure" : "failures"}` : "";
  return `${RED(color, "[FAIL]")} ${source}: ${first?.message ?? "failed"} (${first?.ruleId ?? "unknown rule"}${more})\n`;
}

class Summary {
  total = 0;
  passed = 0;
  failed = 0;
  unreadable = 0;
  internalErrors = 0;
  phantomWork = 0;
  readonly byStatus = new Map<string, number>();
  readonly failuresByRule = new Map<string, number>();

  add(outcome: Outcome): void {
    this.total += 1;
    if ("unreadable" in outcome) {
      this.unreadable += 1;
      return;
    }
    const { report } = outcome;
    if (outcome.phantom) this.phantomWork += 1;
    if (report.ok) this.passed += 1;
    else this.failed += 1;
    if (report.internalError) this.internalErrors += 1;
    const status = report.status ?? "(no status)";
    this.byStatus.set(status, (this.byStatus.get(status) ?? 0) + 1);
    for (const result of report.results) {
      if (result.level === "fail") this.failuresByRule.set(result.ruleId, (this.failuresByRule.get(result.ruleId) ?? 0) + 1);
    }
  }

  render(dir: string, quiet: boolean, color: boolean): string {
    const verdict =
      this.total === 0
        ? `${CYAN(color, "[INFO]")} No ${RETURN_FILE} or ${HANDOFF_FILE} files below ${dir}\n`
        : this.failed === 0 && this.unreadable === 0
          ? `${GREEN(color, "[PASS]")} All ${count(this.total, "return")} below ${dir} passed\n`
          : `${RED(color, "[FAIL]")} ${String(this.failed)} of ${count(this.total, "return")} below ${dir} failed validation${this.unreadable > 0 ? `; ${String(this.unreadable)} could not be read` : ""}\n`;
    if (quiet || this.total === 0) return verdict;
    const rows: [string, string][] = [["status", "returns"], ...sortedRows(this.byStatus)];
    const ruleRows: [string, string][] = [["rule", "failures"], ...sortedRows(this.failuresByRule)];
    if (ruleRows.length === 1) ruleRows.push(["(none)", "0"]);
    const totals: [string, string][] = [
      ["phantom work", String(this.phantomWork)],
      ["passed", String(this.passed)],
      ["failed", String(this.failed)],
    ];
    if (this.unreadable > 0) totals.push(["unreadable", String(this.unreadable)]);
    const width = Math.max(...[...rows, ...ruleRows, ...totals].map(([label]) => label.length)) + 2;
    const numbers = Math.max(...[...rows, ...ruleRows, ...totals].map(([, value]) => value.length), 8);
    const table = (lines: [string, string][]) => lines.map(([label, value]) => `  ${label.padEnd(width)}${value.padStart(numbers)}\n`).join("");
    return `\n${table(rows)}\n${table(ruleRows)}\n${table(totals)}\n${verdict}`;
  }
}

/** Most frequent first, then by name, so that two runs print the same table. */
function sortedRows(counts: ReadonlyMap<string, number>): [string, string][] {
  return [...counts]
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0))
    .map(([label, value]) => [label, String(value)]);
}

function count(n: number, word: string): string {
  return `${String(n)} ${word}${n === 1 ? "" : "s"}`;
}

/** Buffers standard output so that a large scan is written in large pieces. */
class Output {
  private buffer = "";
  constructor(private readonly io: CommandIo) {}

  write(text: string): void {
    this.buffer += text;
    if (this.buffer.length >= FLUSH_AT) this.flush();
  }

  flush(): void {
    if (this.buffer === "") return;
    this.io.stdout(this.buffer);
    this.buffer = "";
  }
}

/** One line on standard error, redrawn in place; only on a terminal. */
class Progress {
  private shown = false;
  private last = 0;
  private readonly started = performance.now();
  constructor(
    private readonly io: CommandIo,
    private readonly dir: string,
    readonly enabled: boolean,
  ) {}

  tick(summary: Summary): void {
    if (!this.enabled) return;
    const now = performance.now();
    if (now - this.last < PROGRESS_INTERVAL_MS) return;
    this.last = now;
    this.io.stderr(`\r\u001b[KScanning ${this.dir}: ${count(summary.total, "return")} checked, ${String(summary.failed)} failed`);
    this.shown = true;
  }

  clear(): void {
    if (!this.shown) return;
    this.io.stderr("\r\u001b[K");
    this.shown = false;
  }

  finish(summary: Summary): void {
    if (!this.enabled) return;
    const seconds = ((performance.now() - this.started) / 1000).toFixed(2);
    this.io.stderr(`\r\u001b[KScanned ${count(summary.total, "return")} below ${this.dir} in ${seconds} s: ${String(summary.passed)} passed, ${String(summary.failed)} failed\n`);
  }
}
