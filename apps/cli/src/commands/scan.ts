import { statSync } from "node:fs";
import path from "node:path";
import { createFileView, EXIT, mapOrdered, relativeInside, ReturnlintError, SPECS_DIR } from "@returnlint/core";
import { knownCommand, maxInputBytes, reportObject, type ReportObject } from "@returnlint/api";
import { configOptions, integerOption, parseCommandLine } from "../args.js";
import { writeOutput } from "../atomic.js";
import { formatterFor } from "../formatters/index.js";
import { pairOutputs } from "../formatters/output.js";
import { loadReturnlintConfig } from "../host.js";
import { checkFound, type Outcome } from "../scan/check-one.js";
import type { Found, FoundSource, Unreadable } from "../scan/find.js";
import { findAhead } from "../scan/find-ahead.js";
import { Output } from "../scan/output.js";
import { Progress } from "../scan/progress.js";
import { scanReport } from "../scan/reports.js";
import { Summary } from "../scan/summary.js";
import { emitVerdicts, telemetryEnabled } from "@returnlint/telemetry";
import { colorWanted } from "../terminal.js";
import type { CommandIo } from "./io.js";
import { returnlintVersion } from "../version.js";

// `returnlint scan`: the options, and the loop that checks (scan/check-one.ts), prints and counts each return the walk finds (scan/find.ts).

const DEFAULT_CONCURRENCY = 16;

export const SCAN_HELP = `Usage: returnlint scan [DIR] [options]

Validates every .return-meta.json and .orchestrator-handoff.json below DIR
(default: specs/, archived tasks in specs/archive/ included), and every
multi-task return (.return-meta-multi.json, .return-meta-multi-sess_<id>.json),
and prints the failing returns and a summary: returns by status, failures by
rule, phantom work, passed, failed, and warned (returns with a warning, such as
a .postflight-pending marker left beside a finished return; --format json
lists them).

Phantom work is a success status while the work it claims is not there inside
the root: no artifact named, or one missing or empty (a batch: no completed
task). An archived, absolute, outside or folder artifact is reported as such.

Unless --command names one, each return's command is the one it names: its
status (researched, planned, implemented), else its delegation path.

What was delegated:
  --command NAME       check every return as an answer to NAME (a postflight
                       gate: an in_progress return fails); a command returnlint
                       knows, or one the config lists under "commands"
  --root DIR           the project root artifact paths are relative to
                       (default: .)

Configuration:
  -c, --config FILE    use FILE instead of looking for returnlint.config.*
                       upwards
  --preset NAME        v5, v7, metadata-file, handoff, multi-task, strict, auto,
                       or a returnlint-preset-* package

Output:
  -f, --format NAME    stylish (default); json: one JSON array, one report
                       per return; for CI: sarif (one run, for GitHub code
                       scanning), junit or github (annotations); repeat it
                       for several reports of one scan
  -o, --output FILE    write the --format at the same position to FILE (the
                       first -o takes the first -f, …); formats without a file
                       print to standard output
  --max-warnings N     a return with more than N warnings fails
  --concurrency N      how many returns are checked at once (default: ${String(DEFAULT_CONCURRENCY)})
  -q, --quiet          report failing returns only
  --color, --no-color  force colours on or off (default: on a terminal, unless
                       NO_COLOR is set; FORCE_COLOR=1 turns them on)
  -h, --help           show this help

A progress line is drawn on standard error when it is a terminal.
Symlinked directories are not followed.

Exit codes: 0 every return passed, 1 at least one failed validation,
            2 usage, configuration or internal error, or a file that cannot
            be read.

Examples:
  returnlint scan
  returnlint scan specs --format json | jq '.[] | select(.ok | not) | .source'
  returnlint scan ~/project/specs --root ~/project --command implement
  returnlint scan -f github -f sarif -o returnlint.sarif   # in GitHub Actions
`;

const OPTIONS = {
  command: { type: "string" },
  root: { type: "string" },
  config: { type: "string", short: "c" },
  preset: { type: "string" },
  format: { type: "string", short: "f", multiple: true },
  output: { type: "string", short: "o", multiple: true },
  concurrency: { type: "string" },
  "max-warnings": { type: "string" },
  quiet: { type: "boolean", short: "q" },
  color: { type: "boolean" },
  "no-color": { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

const FORMATS = ["stylish", "json", "sarif", "junit", "github"] as const;

export async function scan(argv: readonly string[], io: CommandIo): Promise<number> {
  const { values, positionals } = parseCommandLine("scan", argv, OPTIONS);
  if (values.help === true) {
    io.stdout(SCAN_HELP);
    return EXIT.passed;
  }
  if (positionals.length > 1) {
    throw new ReturnlintError("USAGE", `returnlint scan takes one directory; received ${String(positionals.length)}. Run "returnlint scan --help" for the options.`);
  }
  const outputs = pairOutputs(values.format ?? [], values.output ?? [], io.cwd, (format) => {
    if (!(FORMATS as readonly string[]).includes(format)) {
      throw new ReturnlintError("USAGE", `Unknown format "${format}" for "returnlint scan"; available: ${FORMATS.join(", ")}.`);
    }
  });
  const concurrency = integerOption("concurrency", values.concurrency) ?? DEFAULT_CONCURRENCY;
  if (concurrency < 1) throw new ReturnlintError("USAGE", "--concurrency must be at least 1.");
  const quiet = values.quiet === true;
  const maxWarnings = integerOption("max-warnings", values["max-warnings"]);
  const dir = path.resolve(io.cwd, positionals[0] ?? SPECS_DIR);
  const shownDir = display(io.cwd, dir);
  requireDirectory(dir, shownDir, positionals[0] === undefined);

  const color = colorWanted(values, io.env, io.color);
  const config = await loadReturnlintConfig(configOptions(io.cwd, values));
  const root = path.resolve(io.cwd, values.root ?? ".");
  const command = knownCommand(config, values.command);
  const files = createFileView(root);
  // The verdicts as OpenTelemetry events, kept only when they will be sent.
  const verdicts: ReportObject[] | undefined = telemetryEnabled(io.env) ? [] : undefined;
  // Passes and notes are made only for an output that can show them: the table shows problems alone.
  const listNotes = verdicts !== undefined || outputs.some(({ format }) => format !== "stylish");

  const context = { cwd: io.cwd, root, config, command, preset: values.preset, files, listNotes, ...(maxWarnings === undefined ? {} : { maxWarnings }) };
  const checkOne = (found: FoundSource | Unreadable): Promise<Outcome> => checkFound(found, context);

  const out = new Output(io);
  const progress = new Progress(io, shownDir, io.stderrIsTTY === true && !quiet);
  const summary = new Summary();
  const walkProblems: string[] = [];
  // The view is told what the walk's folders held: a name not in its folder (a postflight marker, usually) needs no lookup.
  function* returnsIn(batch: readonly Found[]): Generator<FoundSource | Unreadable> {
    for (const found of batch) {
      if ("listed" in found) files.listed(found.listed, found.names);
      else if ("reason" in found) walkProblems.push(`Cannot read directory ${display(io.cwd, found.where)}: ${found.reason}.`);
      else yield found;
    }
  }
  const reportOptions = { cwd: io.cwd, dir: shownDir, quiet, color, ...(maxWarnings === undefined ? {} : { maxWarnings }) };
  const reports = outputs.map(({ format, file }) => ({
    file,
    report: scanReport(format, formatterFor(format), file === undefined ? reportOptions : { ...reportOptions, color: false }),
    written: [] as string[],
  }));

  const record = (outcome: Outcome): void => {
    summary.add(outcome);
    if (verdicts !== undefined && !("unreadable" in outcome)) {
      const { ok, report, facts, source } = outcome;
      verdicts.push(reportObject(report, source.name, { ok, quiet: false, facts, ...(source.task === undefined ? {} : { task: source.task }) }));
    }
    if ("unreadable" in outcome) {
      progress.clear();
      io.stderr(`returnlint: ${outcome.unreadable}\n`);
    }
    for (const { file, report, written } of reports) {
      const text = report.add(outcome);
      if (text === "") continue;
      if (file !== undefined) {
        written.push(text);
        continue;
      }
      progress.clear();
      out.write(text);
      // Someone watching the progress line sees each failure as it is found.
      if (progress.enabled) out.flush();
    }
    progress.tick(summary);
  };
  for await (const batch of findAhead({ dir, cwd: io.cwd, root, maxBytes: inputLimit() })) {
    for await (const outcome of mapOrdered(returnsIn(batch), concurrency, checkOne)) record(outcome);
  }
  const ends = await Promise.all(reports.map(async (entry) => ({ ...entry, last: await entry.report.end(summary) })));
  for (const { file, written, last } of ends) if (file !== undefined) writeOutput(file, written.join("") + last);
  progress.finish(summary);
  for (const problem of walkProblems) io.stderr(`returnlint: ${problem}\n`);
  for (const { file, last } of ends) if (file === undefined) out.write(last);
  out.flush();
  if (verdicts !== undefined) {
    const warn = (line: string) => {
      io.stderr(`${line}\n`);
    };
    await emitVerdicts(verdicts, { env: io.env, command: "scan", host: "cli", root, version: returnlintVersion(), warn });
  }
  return walkProblems.length > 0 ? EXIT.error : summary.exitCode;
}

/** RETURNLINT_MAX_INPUT_BYTES, read once for the whole scan; undefined when it is wrong, which each file's read then says, as `check` does. */
function inputLimit(): number | undefined {
  try {
    return maxInputBytes();
  } catch {
    return undefined;
  }
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

function display(cwd: string, file: string): string {
  const relative = relativeInside(cwd, file);
  return relative === undefined ? file : relative === "" ? "." : relative;
}
