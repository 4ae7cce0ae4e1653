import path from "node:path";
import { integerOption, parseCommandLine } from "../args.js";
import { loadReturnlintConfig, validate } from "../api.js";
import { formatterContext } from "../formatters/context.js";
import { emitOutputs, planOutputs } from "../formatters/output.js";
import { findTaskReturn, readReturnFile, readStdin } from "../input.js";
import type { CommandIo } from "./io.js";

export const CHECK_HELP = `Usage: returnlint check [FILE | -] [options]

Validates one subagent return: that it is JSON, that the format's fields are
there, that the status is one the command allows, that the session id is the
delegated one, and that every artifact it claims exists and is not empty.

Input:
  FILE, -              the return to check; "-" or no FILE reads standard input
  --task N             check specs/N_*/.return-meta.json under --root

What was delegated:
  --command NAME       the orchestrator command: research, plan, revise, implement, …
  --session-id ID      the session id that was delegated (default: $RETURNLINT_SESSION_ID)
  --agent NAME         the subagent's name, for messages (default: the return's agent_type)
  --root DIR           the project root artifact paths are relative to (default: .)

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

Exit codes: 0 the return passed, 1 it failed validation,
            2 usage, configuration or internal error.

Examples:
  returnlint check return.json --command research --session-id sess_1736700000_abc123
  claude -p "…" | returnlint check - --command plan --format json
  returnlint check return.json -f sarif -o returnlint.sarif -f stylish
  returnlint check return.json --format reask      # lines to send back to the subagent
  returnlint check --task 259 --command research --root ~/project
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
  const outputs = planOutputs(values.format, values.output, io.cwd);
  const maxWarnings = integerOption("max-warnings", values["max-warnings"]);
  const root = path.resolve(io.cwd, values.root ?? ".");
  const [file] = positionals;
  if (file !== undefined && values.task !== undefined) {
    io.stderr("Pass either FILE or --task, not both.\n");
    return 2;
  }
  const input =
    values.task !== undefined
      ? await readReturnFile(await findTaskReturn(root, values.task))
      : file === undefined || file === "-"
        ? await readStdin(io.stdin)
        : await readReturnFile(path.resolve(io.cwd, file));

  const sessionId = values["session-id"] ?? io.env.RETURNLINT_SESSION_ID;
  const configOptions = {
    cwd: io.cwd,
    ...(values.config === undefined ? {} : { configFile: path.resolve(io.cwd, values.config) }),
    ...(values.preset === undefined ? {} : { preset: values.preset }),
  };
  // Loaded here rather than inside validate: the formatters need its rules' descriptions and docs URLs.
  const config = await loadReturnlintConfig(configOptions);
  const report = await validate(input.text, {
    ...configOptions,
    config,
    root,
    command: values.command ?? null,
    ...(sessionId === undefined || sessionId === "" ? {} : { sessionId }),
    ...(values.agent === undefined ? {} : { agent: values.agent }),
    ...(values.task === undefined ? {} : { task: values.task }),
  });
  const source = input.source === "<stdin>" ? input.source : path.relative(io.cwd, input.source) || input.source;
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

  if (report.internalError) return 2;
  if (!report.ok) return 1;
  if (maxWarnings !== undefined && report.warningCount > maxWarnings) {
    io.stderr(`returnlint: ${String(report.warningCount)} warnings, more than --max-warnings ${String(maxWarnings)}.\n`);
    return 1;
  }
  return 0;
}
