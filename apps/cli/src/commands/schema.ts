import { EXIT, FORMAT_NAMES, ReturnlintError } from "@returnlint/core";
import { knownCommand, returnSchema } from "@returnlint/api";
import { configOptions, parseCommandLine } from "../args.js";
import { loadReturnlintConfig } from "../host.js";
import type { CommandIo } from "./io.js";

export const SCHEMA_HELP = `Usage: returnlint schema [--command NAME] [--preset NAME] [--annotated] [options]

Prints the JSON Schema (draft 2020-12) of what a command expects a subagent to
return, to hand a host as the subagent's structured output: the same contract
returnlint checks.

  - a command with a contract: the contract, without returnlint's x-returnlint
    annotations (with them, --annotated);
  - a preset (--preset v7, metadata-file, handoff, ...): a schema made from what
    the preset's rules require: the required fields and their types, the status
    enum for the command, the session id's place, artifacts with a path. What a
    schema cannot say (a file on disk, the delegated session) stays returnlint's
    check. With --annotated it is a contract that returnlint checks as the preset.

Options:
  --command NAME       the command whose returns the schema describes (its
                       contract, its contextual success status)
  --preset NAME        ${FORMAT_NAMES.join(", ")}, or a returnlint-preset-*
                       package; wins over the config
  --annotated          keep returnlint's annotations (x-returnlint,
                       x-returnlint-success)
  -c, --config FILE    use FILE instead of looking for returnlint.config.*
                       upwards
  -h, --help           show this help

Exit codes: 0 printed, 2 usage or configuration error.
`;

const OPTIONS = {
  command: { type: "string" },
  config: { type: "string", short: "c" },
  preset: { type: "string" },
  annotated: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

export async function schema(argv: readonly string[], io: CommandIo): Promise<number> {
  const { values, positionals } = parseCommandLine("schema", argv, OPTIONS);
  if (values.help === true) {
    io.stdout(SCHEMA_HELP);
    return EXIT.passed;
  }
  if (positionals.length > 0) throw new ReturnlintError("USAGE", `returnlint schema takes no arguments; received "${positionals.join(" ")}". Name the command with --command, the preset with --preset.`);
  const config = await loadReturnlintConfig(configOptions(io.cwd, values));
  const command = knownCommand(config, values.command);
  const printed = await returnSchema(config, { command, annotated: values.annotated === true, ...(values.preset === undefined ? {} : { preset: values.preset }) });
  io.stdout(`${JSON.stringify(printed, null, 2)}\n`);
  return EXIT.passed;
}
