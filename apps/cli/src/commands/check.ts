import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { EXIT, relativeInside, ReturnlintError, exitCodeOf, isReturnlintError, METADATA_FILE, formatOfFileName, type ExitCode } from "@returnlint/core";
import { knownCommand } from "@returnlint/api";
import { configOptions, integerOption, parseCommandLine } from "../args.js";
import { validate } from "@returnlint/api";
import { loadReturnlintConfig } from "../host.js";
import { appendErrorLog } from "../error-log.js";
import { formatterContext } from "@returnlint/api";
import { emitOutputs, planOutputs } from "../formatters/output.js";
import type { FormatterInput } from "@returnlint/api";
import { exitCodeOfReport, warningsVerdict } from "@returnlint/api";
import { readReturnFile, type ReturnInput } from "@returnlint/api";
import { MetadataFile, openTask, parseTaskList, taskTypeFromState, type MissingReturn } from "@returnlint/api";
import { colorWanted } from "../terminal.js";
import { readStdinOf, type CommandIo } from "./io.js";

export const CHECK_HELP = `Usage: returnlint check [FILE | -] [options]

Validates one subagent return: that it is JSON, that the format's fields are
there, that the status is one the command allows, that the session id is the
delegated one, and that every artifact it claims exists and is not empty.

Input:
  FILE, -              the return to check; "-" or no FILE reads standard input
  --task N             check specs/N_*/.return-meta.json under --root (padded or not,
                       or in specs/archive/ once archived); a folder with only an
                       .orchestrator-handoff.json checks that handoff; a task
                       folder with neither fails (exit 1). A range or list
                       ("343-345", "337, 343-345, 350") checks each, in one document
                       per format, with a closing verdict

What was delegated:
  --command NAME       the orchestrator command: research, plan, revise, implement,
                       or one the config lists under "commands"; with a command
                       (a postflight gate), an in_progress return fails
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
  -c, --config FILE    use FILE instead of looking for returnlint.config.* upwards
  --preset NAME        v5, v7, metadata-file, handoff, multi-task, auto, or a returnlint-preset-* package

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
  RETURNLINT_SESSION_ID       the expected session id when --session-id is not given
  RETURNLINT_MAX_INPUT_BYTES  the largest return read (default 10M; k, M, G suffixes)
  RETURNLINT_RULE_TIMEOUT_MS  how long one rule may run, or a config, preset or
                              rule module take to load, before it is an error
                              (default 10000)
  NO_COLOR                    no colours, even on a terminal
  FORCE_COLOR                 colours even in a pipe (0 or false: none)
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

/** One return, checked: what the formatters print, and what the actions after them need. */
interface Checked {
  readonly input: Omit<FormatterInput, "color">;
  /** The metadata file held open for --consume; undefined without it, for standard input or a missing file. */
  readonly held?: MetadataFile;
  readonly task?: string;
}

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
  if (values.consume === true && tasks === undefined && (file === undefined || path.basename(file) !== METADATA_FILE)) {
    throw new ReturnlintError("USAGE", "--consume deletes a metadata file after it passed: use it with --task N or a .return-meta.json FILE.");
  }
  const outputs = planOutputs(values.format, values.output, io.cwd);
  const color = colorWanted(values, io.env, io.color);
  const maxWarnings = integerOption("max-warnings", values["max-warnings"]);
  const root = path.resolve(io.cwd, values.root ?? ".");
  const sessionId = values["session-id"] ?? io.env.RETURNLINT_SESSION_ID;
  const loadOptions = configOptions(io.cwd, values);
  // Loaded once, here rather than inside validate: the formatters need its rules' descriptions and docs URLs.
  const config = await loadReturnlintConfig(loadOptions);
  const command = knownCommand(config, values.command);
  const shared = {
    ...loadOptions,
    config,
    root,
    command,
    sessionId,
    agent: values.agent,
    staleAfterSeconds: durationOption("stale-after", values["stale-after"]),
    since: timeOption("since", values.since),
    gitBase: values["git-base"],
    transcriptPath: values.transcript === undefined ? undefined : path.resolve(io.cwd, values.transcript),
  };
  const display = (source: string) => (source === "<stdin>" ? source : path.relative(io.cwd, source) || source);

  /** A return read, or a metadata file that should be there and is not (a finding, like any other). */
  const checkOne = async (input: ReturnInput | Missing, task?: string): Promise<Checked> => {
    const taskType = values["task-type"] ?? (task === undefined ? undefined : taskTypeFromState(root, task));
    const missing = "missing" in input;
    const source = display(missing ? input.missing : input.source);
    const fromFile = task !== undefined || formatOfFileName(path.basename(source)) !== undefined;
    const text = missing ? "" : input.text;
    const identity = missing ? undefined : input instanceof MetadataFile ? input.identity : input.identity;
    const returnFile = missing || !fromFile ? undefined : relativeInside(root, path.resolve(io.cwd, input.source));
    const report = await validate(text, { ...shared, task, taskType, fromFile, source, returnFile, missingFile: missing, ...(identity === undefined ? {} : { returnFiles: [identity] }) });
    return {
      input: {
        report,
        source,
        cwd: io.cwd,
        ...(task === undefined ? {} : { task }),
        ...formatterContext(report),
        ...(maxWarnings === undefined ? {} : { maxWarnings }),
        quiet: values.quiet === true,
      },
      ...(input instanceof MetadataFile ? { held: input } : {}),
      ...(task === undefined ? {} : { task }),
    };
  };

  /**
   * A task's metadata file, or FILE. With --consume it stays open (a MetadataFile read
   * through real folders inside the root), so that only the very file checked can be deleted.
   */
  const open = async (task: string | undefined): Promise<ReturnInput | Missing> => {
    if (task !== undefined) {
      const held = openTask(root, task);
      if ("missing" in held || values.consume === true) return held;
      held.close();
      return { text: held.text, source: held.source, identity: held.identity };
    }
    if (file === undefined || file === "-") return readStdinOf(io);
    const absolute = path.resolve(io.cwd, file);
    if (values.consume !== true) return readInput(absolute);
    const relative = relativeInside(root, absolute);
    if (relative === undefined) {
      throw new ReturnlintError("USAGE", `--consume deletes only a metadata file inside the project root (${root}); ${absolute} is outside it. Pass --root.`);
    }
    try {
      return MetadataFile.open(root, relative.split(path.sep), display(absolute));
    } catch (error) {
      if (isReturnlintError(error) && error.code === "RETURN_NOT_FOUND") return { missing: absolute };
      throw error;
    }
  };

  const checked: Checked[] = [];
  try {
    let worst: number = EXIT.passed;
    if (tasks === undefined) {
      checked.push(await checkOne(await open(undefined)));
    } else {
      // Each task gets its own verdict; one that cannot be found or read does not stop the others.
      for (const task of tasks) {
        try {
          checked.push(await checkOne(await open(task), task));
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
    const verdicts: { readonly one: Checked; readonly code: number; readonly consumed: boolean }[] = [];
    for (const one of checked) {
      const code = verdictCode(one.input, shown, io);
      const consume = code === 0 && values.consume === true && one.held !== undefined;
      // Consumed before anything is printed: a run that loses the file to another consumer (or
      // finds it changed) says so and prints no verdict, rather than a pass it cannot stand behind.
      if (consume) {
        try {
          one.held.consume();
        } catch (error) {
          if (checked.length === 1 || !isReturnlintError(error)) throw error;
          io.stderr(`returnlint: task ${one.task ?? ""}: ${error.message}\n`);
          worst = Math.max(worst, exitCodeOf(error));
          continue;
        }
      }
      verdicts.push({ one, code, consumed: consume });
    }

    const inputs = verdicts.map(({ one }) => one.input);
    // Not `{ ...io }`: spreading would read io.stdin, whose stream a run that reads a file never needs.
    const printer = { color, stdout: (text: string) => { io.stdout(text); } };
    await emitOutputs(outputs, inputs, { several: tasks !== undefined && tasks.length > 1 }, printer);

    for (const { one, code, consumed } of verdicts) {
      const { report, source } = one.input;
      if (!report.ok && values["log-errors"] !== undefined) {
        await appendErrorLog(path.resolve(io.cwd, values["log-errors"]), report, { source, ...(one.task === undefined ? {} : { task: one.task }), ...(sessionId === undefined ? {} : { sessionId }) });
      }
      if (consumed && values.quiet !== true) io.stderr(`returnlint: consumed ${source}\n`);
      worst = Math.max(worst, code);
    }
    return worst;
  } finally {
    for (const { held } of checked) held?.close();
  }
}

type Missing = MissingReturn;

/**
 * FILE. A `.return-meta.json` FILE that is not there, in a folder that is, is the
 * agent's missing return (a finding); any other path that cannot be read is a usage problem.
 */
function readInput(absolute: string): ReturnInput | Missing {
  if (path.basename(absolute) === METADATA_FILE && !existsSync(absolute) && isDirectory(path.dirname(absolute))) return { missing: absolute };
  return readReturnFile(absolute);
}

function isDirectory(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/** The exit code of one return (the library's verdict). When nothing on standard output says why, standard error does. */
function verdictCode(input: Omit<FormatterInput, "color">, shown: { readonly warnings: boolean; readonly crash: boolean }, io: CommandIo): ExitCode {
  const code = exitCodeOfReport(input);
  const { report } = input;
  if (report.internalError && !shown.crash) {
    const crashed = report.results.filter((result) => result.messageId === "ruleCrashed" || result.messageId === "ruleTimedOut").map((result) => result.message);
    io.stderr(`returnlint: ${crashed.join("; ") || "a rule failed"}: the verdict on ${input.source} is incomplete.\n`);
  } else if (code === EXIT.failed && report.ok && !shown.warnings) {
    io.stderr(`returnlint: ${input.source}: ${warningsVerdict(input)}.\n`);
  }
  return code;
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
