import { parseArgs } from "node:util";
import { describe, expect, it } from "vitest";
import { parseCommandLine } from "../src/args.js";

const OPTIONS = {
  command: { type: "string", short: "c" },
  format: { type: "string", short: "f", multiple: true },
  output: { type: "string", short: "o", multiple: true },
  quiet: { type: "boolean", short: "q" },
  help: { type: "boolean", short: "h" },
  root: { type: "string" },
} as const;

describe("parseCommandLine", () => {
  // What users type, parsed as node:util's parseArgs (strict) parses it: the same values and positionals.
  it.each([
    [["return.json"]],
    [["-"]],
    [["return.json", "--command", "research", "--root=/p"]],
    [["--format", "json", "-f", "sarif", "-o", "out.sarif", "-fjunit"]],
    [["-qh", "x.json"]],
    [["-qc", "plan"]],
    [["-cplan", "--quiet"]],
    [["--root", "-", "--", "--format", "-q"]],
    [["--command=", "a", "b"]],
    [["--format=-weird"]],
  ])("%j", (argv) => {
    const expected = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
    expect(parseCommandLine("check", argv, OPTIONS)).toEqual({ values: { ...expected.values }, positionals: expected.positionals });
  });

  it.each([
    [["--sesion-id", "x"], 'Unknown option --sesion-id for "returnlint check". Run "returnlint check --help" for the options.'],
    [["--qiet"], 'Unknown option --qiet for "returnlint check" (did you mean --quiet?). Run "returnlint check --help" for the options.'],
    [["-z"], "Unknown option '-z'. Run \"returnlint check --help\" for the options."],
    [["--command"], "Option '--command <value>' argument missing. Run \"returnlint check --help\" for the options."],
    [["-f"], "Option '-f, --format <value>' argument missing. Run \"returnlint check --help\" for the options."],
    [["--quiet=yes"], "Option '--quiet' does not take an argument. Run \"returnlint check --help\" for the options."],
    [["--command", "--quiet"], "Option '--command <value>' argument is ambiguous. Did you forget to specify the option argument for '--command'? To give a value that starts with a dash, write --command=--quiet. Run \"returnlint check --help\" for the options."],
    [["--toString"], 'Unknown option --toString for "returnlint check". Run "returnlint check --help" for the options.'],
  ])("%j is a usage error", (argv, message) => {
    expect(() => parseCommandLine("check", argv, OPTIONS)).toThrow(expect.objectContaining({ code: "USAGE", message }) as Error);
  });
});
