import { EXIT, FORMAT_NAMES, ReturnlintError } from "@returnlint/core";
import { knownCommand, rulesRun } from "@returnlint/api";
import { configOptions, parseCommandLine } from "../args.js";
import { loadReturnlintConfig } from "../host.js";
import type { CommandIo } from "./io.js";

export const PRINT_CONFIG_HELP = `Usage: returnlint print-config [--command NAME] [options]

Prints, as JSON, what "returnlint check --command NAME" would run: the preset,
the format, and each rule in order with its severity, its options (defaults,
preset, config and command merged) and where it comes from.

Options:
  --command NAME       the orchestrator command: research, plan, revise,
                       implement, or one the config lists (default: none, the
                       config's top-level preset and rules)
  -c, --config FILE    use FILE instead of looking for returnlint.config.*
                       upwards
  --preset NAME        ${FORMAT_NAMES.join(", ")}, auto, or a
                       returnlint-preset-* package
  -h, --help           show this help

With the preset "auto", the rules depend on each return's format: the output
gives them for each of ${FORMAT_NAMES.slice(0, -1).join(", ")} and ${FORMAT_NAMES.at(-1) ?? ""}.

Exit codes: 0 printed, 2 usage or configuration error.
`;

const OPTIONS = {
  command: { type: "string" },
  config: { type: "string", short: "c" },
  preset: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

export async function printConfig(argv: readonly string[], io: CommandIo): Promise<number> {
  const { values, positionals } = parseCommandLine("print-config", argv, OPTIONS);
  if (values.help === true) {
    io.stdout(PRINT_CONFIG_HELP);
    return EXIT.passed;
  }
  if (positionals.length > 0) throw new ReturnlintError("USAGE", `returnlint print-config takes no arguments; received "${positionals.join(" ")}". Name the command with --command.`);
  const config = await loadReturnlintConfig(configOptions(io.cwd, values));
  const command = knownCommand(config, values.command);
  const unlisted = command !== null && config.config.commands?.[command] === undefined;
  const { preset, ...rules } = await rulesRun(config, command, values.preset);
  const printed = {
    config: config.file,
    command,
    ...(unlisted ? { note: `the config has no commands.${command} entry: its top-level preset and rules apply` } : {}),
    preset,
    ...rules,
  };
  io.stdout(`${JSON.stringify(printed, null, 2)}\n`);
  return EXIT.passed;
}
