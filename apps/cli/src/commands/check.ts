import path from "node:path";
import { ReturnlintError, exitCodeOf, isReturnlintError } from "@returnlint/core";
import { configOptions, integerOption, parseCommandLine } from "../args.js";
import { loadReturnlintConfig, validate, type ValidationReport } from "../api.js";
import { appendErrorLog } from "../error-log.js";
import { formatterContext } from "../formatters/context.js";
import { emitOutputs, planOutputs } from "../formatters/output.js";
import { readReturnFile, readStdin, type ReturnInput } from "../input.js";
import { MetadataFile, openTaskReturn, parseTaskList, taskTypeFromState } from "../tasks.js";
import type { CommandIo } from "./io.js";

export const CHECK_HELP = `Usage: returnlint check [FILE | -] [options]

Validates one subagent return: that it is JSON, that the format's fields are
there, that the status is one the command allows, that the session id is the
delegated one, and that every artifact it claims exists and is not empty.

Input:
  FILE, -              the return to check; "-" or no FILE reads standard input
  --task N             check specs/N_*/.return-meta.json under --root (padded or not);
                       a range or list ("343-345", "337, 343-345, 350") checks each

What was delegated:
  --command NAME       the orchestrator command: research, plan, revise, implement, …
  --session-id ID      the session id that was delegated (default: $RETURNLINT_SESSION_ID)
  --agent NAME         the subagent's name, for messages (default: the return's agent_type)
  --root DIR           the project root artifact paths are relative to (default: .)
  --task-type TYPE     the task's type; "meta" requires completion_data.claudemd_suggestions
                       (default: the task's entry in specs/state.json)
  --stale-after TIME   an in_progress return started longer ago than TIME (30m, 2h, 1d)
                       fails as stale
  --since TIME         when the run started (ISO 8601): evidence of fresh artifacts
  --git-base REV       the revision the run started from: evidence of changed artifacts
  --transcript FILE    the subagent's transcript (Claude Code JSONL): evidence of writes

Actions (the only ways check writes to disk):
  --log-errors FILE    append each failing validation to an errors.json
  --consume            delete the metadata file after it passed (postflight cleanup);
                       a failing one is never deleted, nor one that changed while
                       it was checked; of several at once, one consumes it

Configuration:
  --config FILE        use FILE instead of looking for returnlint.config.* upwards
  --preset NAME        v5, v7, metadata-file, auto, or a returnlint-preset-* package

Output:
  -f, --format NAME    stylish (default), json, sarif, junit, github, reask or
                       response; repeat it for several outputs at once
  -o, --output FILE    write the --format at the same position to FILE (the
                       first -o takes the first -f, …); formats without a file
                       print to standard output; the exit code is the same
  --max-warnings N     fail when there are more than N warnings
  --quiet              report failures only
  -h, --help           show this help

Environment:
  RETURNLINT_SESSION_ID       the expected session id when --session-id is not given
  RETURNLINT_MAX_INPUT_BYTES  the largest return read (default 10M; k, M, G suffixes)
  RETURNLINT_RULE_TIMEOUT_MS  how long one rule may run, or a config, preset or
                              rule module take to load, before it is an error
                              (default 10000)
  NO_COLOR                    no colours, even on a terminal
  RETURNLINT_DEBUG            add the stack trace to an internal error

Exit codes: 0 the return passed, 1 it failed validation,
            2 usage, configuration or internal error.

Examples:
  returnlint check return.json --command research --session-id sess_1736700000_abc123
  claude -p "…" | returnlint check - --command plan --format json
  returnlint check return.json -f sarif -o returnlint.sarif -f stylish
  returnlint check return.json --format reask      # lines to send back to the subagent
  returnlint check --task 259 --command research --root ~/project --consume
  returnlint check --task "7, 9-10" --log-errors specs/errors.json
`;

const OPTIONS = {
  command: { type: "string", short: "c" },
  "session-id": { type: "string" },
  agent: { type: "string" },
  task: { type: "string" },
  root: { type: "string" },
  config: { type: "string" },
  preset: { type: "string" },
  format: { type: "string", short: "f", multiple: true },
  output: { type: "string", short: "o", multiple: true },
  "task-type": { type: "string" },
  "stale-after": { type: "string" },
  since: { type: "string" },
  "git-base": { type: "string" },
  transcript: { type: "string" },
  "log-errors": { type: "string" },
  consume: { type: "boolean" },
  "max-warnings": { type: "string" },
  quiet: { type: "boolean", short: "q" },
  help: { type: "boolean", short: "h" },
} as const;

export async function check(argv: readonly string[], io: CommandIo): Promise<number> {
  const { values, positionals } = parseCommandLine("check", argv, OPTIONS);
  if (values.help === true) {
    io.stdout(CHECK_HELP);
    return 0;
  }
  if (positionals.length > 1) {
    io.stderr(`returnlint check takes one return at a time; received ${String(positionals.length)} files. Use "returnlint scan" for many.\n`);
    return 2;
  }
  const [file] = positionals;
  if (file !== undefined && values.task !== undefined) throw new ReturnlintError("USAGE", "Pass either FILE or --task, not both.");
  const tasks = values.task === undefined ? undefined : parseTaskList(values.task);
  if (tasks !== undefined && tasks.length > 1 && values.output !== undefined) {
    throw new ReturnlintError("USAGE", "-o writes one report: with several tasks, print to standard output or use \"returnlint scan\".");
  }
  if (values.consume === true && tasks === undefined && (file === undefined || path.basename(file) !== ".return-meta.json")) {
    throw new ReturnlintError("USAGE", "--consume deletes a metadata file after it passed: use it with --task N or a .return-meta.json FILE.");
  }
  const outputs = planOutputs(values.format, values.output, io.cwd);
  const maxWarnings = integerOption("max-warnings", values["max-warnings"]);
  const root = path.resolve(io.cwd, values.root ?? ".");
  const sessionId = values["session-id"] ?? io.env.RETURNLINT_SESSION_ID;
  const loadOptions = configOptions(io.cwd, values);
  // Loaded once, here rather than inside validate: the formatters need its rules' descriptions and docs URLs.
  const config = await loadReturnlintConfig(loadOptions);
  const shared = {
    ...loadOptions,
    config,
    root,
    command: values.command ?? null,
    sessionId,
    agent: values.agent,
    staleAfterSeconds: durationOption("stale-after", values["stale-after"]),
    since: timeOption("since", values.since),
    gitBase: values["git-base"],
    transcriptPath: values.transcript === undefined ? undefined : path.resolve(io.cwd, values.transcript),
  };

  const checkOne = async (input: ReturnInput, task?: string): Promise<number> => {
    const taskType = values["task-type"] ?? (task === undefined ? undefined : taskTypeFromState(root, task));
    const fromFile = task !== undefined || path.basename(input.source) === ".return-meta.json";
    const report = await validate(input.text, { ...shared, task, taskType, fromFile, ...(input.identity === undefined ? {} : { returnFiles: [input.identity] }) });
    const source = input.source === "<stdin>" ? input.source : path.relative(io.cwd, input.source) || input.source;
    const code = verdictCode(report, maxWarnings, io);
    // Consumed before anything is printed: a run that loses the file to another consumer
    // says so and prints no verdict, rather than a pass it cannot stand behind.
    const consumed = code === 0 && input instanceof MetadataFile;
    if (consumed) input.consume();
    await emitOutputs(
      outputs,
      {
        report,
        source,
        cwd: io.cwd,
        ...formatterContext(config, input.text, { command: report.command, origin: report.origin, ...(values.preset === undefined ? {} : { preset: values.preset }) }),
        ...(maxWarnings === undefined ? {} : { maxWarnings }),
        quiet: values.quiet === true,
      },
      io,
    );
    if (!report.ok && values["log-errors"] !== undefined) {
      await appendErrorLog(path.resolve(io.cwd, values["log-errors"]), report, { source, ...(task === undefined ? {} : { task }), ...(sessionId === undefined ? {} : { sessionId }) });
    }
    if (consumed && values.quiet !== true) io.stderr(`returnlint: consumed ${source}\n`);
    return code;
  };

  /** A task's metadata file, or FILE: with --consume, opened so that only the file checked can be deleted. */
  const open = (task: string | undefined): ReturnInput => {
    if (task !== undefined) {
      const held = openTaskReturn(root, task);
      if (values.consume === true) return held;
      held.close();
      return { text: held.text, source: held.source, identity: held.identity };
    }
    if (file === undefined || file === "-") throw new Error("internal: no file to open");
    const absolute = path.resolve(io.cwd, file);
    if (values.consume !== true) return readReturnFile(absolute);
    const relative = path.relative(root, absolute);
    if (relative.startsWith("..") || path.isAbsolute(relative)) {
      throw new ReturnlintError("USAGE", `--consume deletes only a metadata file inside the project root (${root}); ${absolute} is outside it. Pass --root.`);
    }
    return MetadataFile.open(root, relative.split(path.sep), path.relative(io.cwd, absolute) || absolute);
  };
  const checkFile = async (task?: string): Promise<number> => {
    const input = open(task);
    try {
      return await checkOne(input, task);
    } finally {
      if (input instanceof MetadataFile) input.close();
    }
  };

  if (tasks === undefined) return file === undefined || file === "-" ? checkOne(await readStdin(io.stdin)) : checkFile();
  // Each task gets its own verdict; one that cannot be read does not stop the others.
  let worst = 0;
  for (const task of tasks) {
    let code: number;
    try {
      code = await checkFile(task);
    } catch (error) {
      if (tasks.length === 1 || !isReturnlintError(error)) throw error;
      io.stderr(`returnlint: ${error.message}\n`);
      code = exitCodeOf(error);
    }
    worst = Math.max(worst, code);
  }
  return worst;
}

function verdictCode(report: ValidationReport, maxWarnings: number | undefined, io: CommandIo): number {
  if (report.internalError) return 2;
  if (!report.ok) return 1;
  if (maxWarnings !== undefined && report.warningCount > maxWarnings) {
    io.stderr(`returnlint: ${String(report.warningCount)} warnings, more than --max-warnings ${String(maxWarnings)}.\n`);
    return 1;
  }
  return 0;
}

const UNITS: Readonly<Record<string, number>> = { s: 1, m: 60, h: 3600, d: 86_400 };

function durationOption(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const match = /^(\d+)\s*([smhd])$/.exec(value.trim());
  if (match === null) throw new ReturnlintError("USAGE", `--${name} must be a duration such as 90s, 30m, 2h or 1d; received "${value}".`);
  return Number(match[1]) * (UNITS[match[2] ?? "s"] ?? 1);
}

function timeOption(name: string, value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const time = new Date(/^\d+$/.test(value) ? Number(value) * 1000 : value);
  if (Number.isNaN(time.getTime())) throw new ReturnlintError("USAGE", `--${name} must be a time in ISO 8601 (2026-01-28T10:30:00Z) or Unix seconds; received "${value}".`);
  return time;
}
