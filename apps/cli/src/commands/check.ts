import path from "node:path";
import { EXIT, relativeInside, ReturnlintError, exitCodeOf, isReturnlintError, METADATA_FILE } from "@returnlint/core";
import {
  formatterInput,
  knownCommand,
  lintSource,
  openInsideRoot,
  openReturnFile,
  openTaskSource,
  parseTaskList,
  reportObject,
  taskTypeFromState,
  textSource,
  warningsVerdict,
  type LintResult,
  type ReturnSource,
} from "@returnlint/api";
import { configOptions, integerOption, parseCommandLine } from "../args.js";
import { loadReturnlintConfig } from "../host.js";
import { appendErrorLog } from "../error-log.js";
import { emitOutputs, planOutputs } from "../formatters/output.js";
import { emitVerdicts, telemetryEnabled } from "@returnlint/telemetry";
import { colorWanted } from "../terminal.js";
import { readStdinOf, type CommandIo } from "./io.js";
import { returnlintVersion } from "../version.js";

export const CHECK_HELP = `Usage: returnlint check [FILE | -] [options]

Validates one subagent return: that it is JSON, that the format's fields are
there, that the status is one the command allows, that the session id is the
delegated one, and that every artifact it claims exists and is not empty.

Input:
  FILE, -              the return to check; "-" or no FILE reads standard input
  --task N             check specs/N_*/.return-meta.json under --root (padded
                       or not, with a prefix such as OpenCode's OC_N_*, or in
                       specs/archive/ once archived); a folder with only an
                       .orchestrator-handoff.json checks that handoff; a task
                       folder with neither fails (exit 1). A range or list
                       ("343-345", "337, 343-345, 350") checks each, in one
                       document per format, with a closing verdict

What was delegated:
  --command NAME       the orchestrator command: research, plan, revise,
                       implement, or one the config lists under "commands";
                       with a command (a postflight gate), an in_progress
                       return fails
  --session-id ID      the session id that was delegated
                       (default: $RETURNLINT_SESSION_ID)
  --agent NAME         the subagent's name, for messages (default: the
                       return's agent_type)
  --root DIR           the project root artifact paths are relative to
                       (default: .)
  --task-type TYPE     the task's type; "meta" requires
                       completion_data.claudemd_suggestions (default: the
                       task's entry in specs/state.json)
  --stale-after TIME   an in_progress return started longer ago than TIME
                       (30m, 2h, 1d) fails as stale
  --since TIME         when the run started (ISO 8601): evidence of fresh
                       artifacts
  --git-base REV       the revision the run started from: evidence of changed
                       artifacts
  --transcript FILE    the subagent's transcript (Claude Code or Codex JSONL,
                       Copilot CLI's events.jsonl): evidence of writes, and of
                       the commands, tests and subagents a return claims

Actions (the only ways check writes to disk):
  --log-errors FILE    append each failing validation to an errors.json
  --consume            delete the metadata file after it passed (postflight
                       cleanup); a failing one is never deleted, nor one that
                       changed while it was checked; of several at once, one
                       consumes it

Configuration:
  -c, --config FILE    use FILE instead of looking for returnlint.config.*
                       upwards
  --preset NAME        v5, v7, metadata-file, handoff, multi-task, strict, auto,
                       or a returnlint-preset-* package

Output:
  -f, --format NAME    stylish (default), json, sarif, junit, github, reask or
                       response; repeat it for several outputs at once
  -o, --output FILE    write the --format at the same position to FILE (the
                       first -o takes the first -f, …); formats without a file
                       print to standard output; the exit code is the same
  --max-warnings N     fail when there are more than N warnings
  -q, --quiet          report failing returns only, with their failures
  --color, --no-color  force colours on or off (default: on a terminal, unless
                       NO_COLOR is set; FORCE_COLOR=1 turns them on)
  -h, --help           show this help

Environment:
  RETURNLINT_SESSION_ID       the expected session id when --session-id is not
                              given
  RETURNLINT_MAX_INPUT_BYTES  the largest return read (default 10M; k, M, G
                              suffixes)
  RETURNLINT_RULE_TIMEOUT_MS  how long one rule may run, or a config, preset or
                              rule module take to load, before it is an error
                              (default 10000)
  NO_COLOR                    no colours, even on a terminal
  FORCE_COLOR                 colours even in a pipe (0 or false: none)
  RETURNLINT_DEBUG            add the stack trace to an internal error

Exit codes: 0 the return passed, 1 it failed validation,
            2 usage, configuration or internal error.

Examples:
  returnlint check return.json --command research --session-id sess_1736700_a1
  claude -p "…" | returnlint check - --command plan --format json
  returnlint check return.json -f sarif -o returnlint.sarif -f stylish
  returnlint check return.json --format reask   # lines to send to the subagent
  returnlint check --task 259 --command research --root ~/project --consume
  returnlint check --task "7, 9-10" --log-errors specs/errors.json
`;

const OPTIONS = {
  command: { type: "string" },
  "session-id": { type: "string" },
  agent: { type: "string" },
  task: { type: "string" },
  root: { type: "string" },
  config: { type: "string", short: "c" },
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
  color: { type: "boolean" },
  "no-color": { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

export async function check(argv: readonly string[], io: CommandIo): Promise<number> {
  const { values, positionals } = parseCommandLine("check", argv, OPTIONS);
  if (values.help === true) {
    io.stdout(CHECK_HELP);
    return EXIT.passed;
  }
  if (positionals.length > 1) {
    io.stderr(`returnlint check takes one return at a time; received ${String(positionals.length)} files. Use "returnlint scan" for many.\n`);
    return EXIT.error;
  }
  const [file] = positionals;
  if (file !== undefined && values.task !== undefined) throw new ReturnlintError("USAGE", "Pass either FILE or --task, not both.");
  const tasks = values.task === undefined ? undefined : parseTaskList(values.task);
  const consume = values.consume === true;
  if (consume && tasks === undefined && (file === undefined || path.basename(file) !== METADATA_FILE)) {
    throw new ReturnlintError("USAGE", "--consume deletes a metadata file after it passed: use it with --task N or a .return-meta.json FILE.");
  }
  const outputs = planOutputs(values.format, values.output, io.cwd);
  const color = colorWanted(values, io.env, io.color);
  const maxWarnings = integerOption("max-warnings", values["max-warnings"]);
  const root = path.resolve(io.cwd, values.root ?? ".");
  const sessionId = values["session-id"] ?? io.env.RETURNLINT_SESSION_ID;
  const loadOptions = configOptions(io.cwd, values);
  // Loaded once, here rather than inside lint: the formatters need its rules' descriptions and docs URLs.
  const config = await loadReturnlintConfig(loadOptions);
  const options = {
    ...loadOptions,
    config,
    root,
    command: knownCommand(config, values.command),
    sessionId,
    agent: values.agent,
    staleAfterSeconds: durationOption("stale-after", values["stale-after"]),
    since: timeOption("since", values.since),
    gitBase: values["git-base"],
    transcriptPath: values.transcript === undefined ? undefined : path.resolve(io.cwd, values.transcript),
    maxWarnings,
  };
  const place = { root, cwd: io.cwd, keepOpen: consume };

  /** FILE, standard input, or a task's metadata file (held open with --consume, so that only the very file checked is deleted). */
  const open = async (task: string | undefined): Promise<ReturnSource> => {
    if (task !== undefined) return openTaskSource(task, place);
    if (file === undefined || file === "-") {
      const { text, source } = await readStdinOf(io);
      return textSource(text, source);
    }
    if (!consume) return openReturnFile(file, place);
    if (relativeInside(root, path.resolve(io.cwd, file)) === undefined) {
      throw new ReturnlintError("USAGE", `--consume deletes only a metadata file inside the project root (${root}); ${path.resolve(io.cwd, file)} is outside it. Pass --root.`);
    }
    return openInsideRoot(file, place);
  };
  const checkOne = async (task: string | undefined): Promise<LintResult> => {
    const source = await open(task);
    const taskType = values["task-type"] ?? (task === undefined ? undefined : taskTypeFromState(root, task));
    return lintSource(source, { ...options, ...(taskType === undefined ? {} : { taskType }) });
  };

  const checked: LintResult[] = [];
  try {
    let worst: number = EXIT.passed;
    if (tasks === undefined) {
      checked.push(await checkOne(undefined));
    } else {
      // Each task gets its own verdict; one that cannot be found or read does not stop the others.
      for (const task of tasks) {
        try {
          checked.push(await checkOne(task));
        } catch (error) {
          if (tasks.length === 1 || !isReturnlintError(error)) throw error;
          io.stderr(`returnlint: task ${task}: ${error.message}\n`);
          worst = Math.max(worst, exitCodeOf(error));
        }
      }
    }

    const printed = outputs.filter((output) => output.file === undefined).map((output) => output.format);
    // What standard output will say: the verdict line of stylish, and (in every format but reask, which is for the subagent) a crashed rule.
    const shown = { warnings: printed.includes("stylish"), crash: printed.some((format) => format !== "reask") };
    const verdicts: { readonly result: LintResult; readonly consumed: boolean }[] = [];
    for (const result of checked) {
      sayWhyNotShown(result, { ...shown, maxWarnings }, io);
      const { source } = result;
      const held = source.kind === "file" ? source.held : undefined;
      const consumed = result.exitCode === EXIT.passed && held !== undefined;
      // Consumed before anything is printed: a run that loses the file to another consumer (or
      // finds it changed) says so and prints no verdict, rather than a pass it cannot stand behind.
      if (consumed) {
        try {
          held.consume();
        } catch (error) {
          if (checked.length === 1 || !isReturnlintError(error)) throw error;
          io.stderr(`returnlint: task ${source.task ?? ""}: ${error.message}\n`);
          worst = Math.max(worst, exitCodeOf(error));
          continue;
        }
      }
      verdicts.push({ result, consumed });
    }

    const inputs = verdicts.map(({ result }) => formatterInput(result, { cwd: io.cwd, quiet: values.quiet === true, ...(maxWarnings === undefined ? {} : { maxWarnings }) }));
    // Not `{ ...io }`: spreading would read io.stdin, whose stream a run that reads a file never needs.
    const printer = { color, stdout: (text: string) => { io.stdout(text); } };
    await emitOutputs(outputs, inputs, { several: tasks !== undefined && tasks.length > 1 }, printer);

    if (telemetryEnabled(io.env)) {
      const reports = verdicts.map(({ result }) => reportObject(result.report, result.source.name, { ok: result.ok, quiet: false, facts: result.facts, ...(result.source.task === undefined ? {} : { task: result.source.task }) }));
      const warn = (line: string) => {
        io.stderr(`${line}\n`);
      };
      await emitVerdicts(reports, { env: io.env, command: "check", host: "cli", root, version: returnlintVersion(), warn });
    }

    for (const { result, consumed } of verdicts) {
      const { report, source } = result;
      if (!report.ok && values["log-errors"] !== undefined) {
        await appendErrorLog(path.resolve(io.cwd, values["log-errors"]), report, { source: source.name, ...(source.task === undefined ? {} : { task: source.task }), ...(sessionId === undefined ? {} : { sessionId }) });
      }
      if (consumed && values.quiet !== true) io.stderr(`returnlint: consumed ${source.name}\n`);
      worst = Math.max(worst, result.exitCode);
    }
    return worst;
  } finally {
    for (const { source } of checked) if (source.kind === "file") source.held?.close();
  }
}

/** When nothing on standard output says why a return's exit code is what it is, standard error does. */
function sayWhyNotShown(result: LintResult, shown: { readonly warnings: boolean; readonly crash: boolean; readonly maxWarnings: number | undefined }, io: CommandIo): void {
  const { report } = result;
  if (report.internalError && !shown.crash) {
    const crashed = report.results.filter((finding) => finding.messageId === "ruleCrashed" || finding.messageId === "ruleTimedOut").map((finding) => finding.message);
    io.stderr(`returnlint: ${crashed.join("; ") || "a rule failed"}: the verdict on ${result.source.name} is incomplete.\n`);
  } else if (result.exitCode === EXIT.failed && report.ok && !shown.warnings) {
    io.stderr(`returnlint: ${result.source.name}: ${warningsVerdict({ report, ...(shown.maxWarnings === undefined ? {} : { maxWarnings: shown.maxWarnings }) })}.\n`);
  }
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
