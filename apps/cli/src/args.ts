import path from "node:path";
import { parseArgs, type ParseArgsConfig } from "node:util";
import { ReturnlintError, closest } from "@returnlint/core";
import type { ConfigOptions } from "./api.js";

export type OptionSpec = NonNullable<ParseArgsConfig["options"]>;

/**
 * parseArgs with the errors people expect from a linter: an unknown flag names
 * the closest known one, a missing value says which flag wanted it.
 */
export function parseCommandLine<T extends OptionSpec>(command: string, argv: readonly string[], options: T) {
  const known = Object.keys(options);
  for (const arg of argv) {
    if (arg === "--") break;
    if (!arg.startsWith("--")) continue;
    const name = arg.slice(2).split("=")[0] ?? "";
    if (!known.includes(name)) {
      const guess = closest(name, known);
      throw new ReturnlintError(
        "USAGE",
        `Unknown option --${name} for "returnlint ${command}"${guess === undefined ? "" : ` (did you mean --${guess}?)`}. Run "returnlint ${command} --help" for the options.`,
      );
    }
  }
  try {
    return parseArgs<{ args: string[]; options: T; allowPositionals: true; strict: true }>({
      args: [...argv],
      options,
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    const message = error instanceof Error ? error.message.replace(/\s*To specify an option argument.*$/s, "") : String(error);
    throw new ReturnlintError("USAGE", `${message} Run "returnlint ${command} --help" for the options.`);
  }
}

export function integerOption(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new ReturnlintError("USAGE", `--${name} must be a whole number; received "${value}".`);
  return Number(value);
}

/** `--config` and `--preset`, as loadReturnlintConfig takes them. */
export function configOptions(cwd: string, values: { readonly config?: string; readonly preset?: string }): ConfigOptions {
  return {
    cwd,
    ...(values.config === undefined ? {} : { configFile: path.resolve(cwd, values.config) }),
    ...(values.preset === undefined ? {} : { preset: values.preset }),
  };
}
