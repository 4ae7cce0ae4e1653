import path from "node:path";
import { COMMAND_SUCCESS, ReturnlintError, closest, type LoadedConfig } from "@returnlint/core";

/**
 * `--command NAME`, checked against the commands returnlint knows here: the built-in
 * research, plan, revise and implement, the config's `commands` and the commands its
 * `agents` map to. A misspelt command would silently run another command's rules, so
 * anything else is a usage error with the nearest name; a command of your own is
 * made known by listing it under `commands` in the config (`review: {}` is enough).
 */
export function knownCommand(config: LoadedConfig, command: string | undefined): string | null {
  if (command === undefined) return null;
  const known = [...new Set([...Object.keys(COMMAND_SUCCESS), ...Object.keys(config.config.commands ?? {}), ...Object.values(config.config.agents ?? {})])];
  if (known.includes(command)) return command;
  const guess = closest(command, known);
  const where = config.file === null ? "a returnlint.config.json" : path.basename(config.file);
  throw new ReturnlintError(
    "USAGE",
    `Unknown command "${command}"${guess === undefined ? "" : ` (did you mean "${guess}"?)`}; known: ${known.join(", ")}. A command of your own needs an entry under "commands" in ${where} (an empty one is enough: "${command}": {}).`,
  );
}
