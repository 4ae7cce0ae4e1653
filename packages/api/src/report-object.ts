import type { FormatName, Result, ReturnOrigin } from "@returnlint/core";
import type { ArtifactFact, ReturnFacts } from "./facts.js";
import type { ValidationReport } from "./validate.js";

/**
 * The report object: what `check --format json` prints for a return, what every
 * item of `scan --format json` is, and the report `lintText`/`lintFile`/`lintTask` (the MCP
 * server) hand back. One shape, built in one place (`reportObject`). A type, not an interface:
 * hosts hand it on as a plain JSON object (the MCP server's `structuredContent`).
 */
export type ReportObject = {
  /** The verdict the exit code gives (`passed`): more warnings than --max-warnings fail a return too. */
  readonly ok: boolean;
  readonly command: string | null;
  readonly format: FormatName;
  readonly status: string | null;
  readonly errorCount: number;
  readonly warningCount: number;
  /** The file the return came from, relative to the cwd when it is below it, or "<stdin>". */
  readonly source: string;
  readonly agent: string;
  readonly preset: string;
  readonly origin: ReturnOrigin;
  /** The task number, when the return was addressed by task (`check --task N`) or its file is in a task folder. */
  readonly task?: string;
  /** Phantom work: a success status while the work it claims is not there inside the root (the library's `ReturnFacts`). */
  readonly phantom: boolean;
  /** Why it is phantom work, when it is. */
  readonly phantomReason?: string;
  /** Each artifact the return claims, with what became of it: exists, empty, missing, near-miss, archived, absolute, outside-root, folder, invalid. */
  readonly artifacts: readonly ArtifactFact[];
  /** How many more artifacts the return claims than `artifacts` lists. */
  readonly unlistedArtifacts?: number;
  /** The rules' results, as far as the runner lists them; with `--quiet`, the failures only. */
  readonly results: readonly Result[];
  /** How many results the rules reported past the runner's limits: counted in errorCount and warningCount, summed up per rule by a `resultsOmitted` result, not listed. */
  readonly omittedResults?: number;
};

/** The report object of one return, the verdict first. `ok` is the caller's verdict (`passed`, with its --max-warnings); `quiet` keeps the failures only. */
export function reportObject(
  report: ValidationReport,
  source: string,
  options: { readonly ok: boolean; readonly quiet: boolean; readonly facts: ReturnFacts; readonly task?: string },
): ReportObject {
  const { facts } = options;
  // Written field by field in the order printed, no spreads: `scan --format json` makes one per return.
  const object: Writable<ReportObject> = {
    ok: options.ok,
    command: report.command,
    format: report.format,
    status: report.status,
    errorCount: report.errorCount,
    warningCount: report.warningCount,
    source,
    agent: report.agent,
    preset: report.preset,
    origin: report.origin,
  } as Writable<ReportObject>;
  if (options.task !== undefined) object.task = options.task;
  object.phantom = facts.phantom !== undefined;
  if (facts.phantom !== undefined) object.phantomReason = facts.phantom;
  object.artifacts = facts.artifacts;
  if (facts.unlisted !== 0) object.unlistedArtifacts = facts.unlisted;
  object.results = options.quiet ? report.results.filter(isFailure) : report.results;
  if (report.omitted !== undefined) object.omittedResults = report.omitted;
  return object;
}

function isFailure(result: Result): boolean {
  return result.level === "fail";
}

type Writable<T> = { -readonly [K in keyof T]: T[K] };
