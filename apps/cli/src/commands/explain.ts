import { EXIT, ReturnlintError } from "@returnlint/core";
import { configOptions, parseCommandLine } from "../args.js";
import { loadReturnlintConfig } from "../host.js";
import { catalogue, explainRule } from "@returnlint/api";
import type { CommandIo } from "./io.js";

export const EXPLAIN_HELP = `Usage: returnlint explain RULE [options]

Prints a rule's documentation: for a built-in rule its README (what it checks,
its messages, its options, examples); for a custom rule the config names, its
description, docs link, options and messages.

Options:
  -c, --config FILE    use FILE instead of looking for returnlint.config.* upwards
  -h, --help           show this help

Examples:
  returnlint explain artifacts
  returnlint explain ./rules/no-todo.mjs

"returnlint rules" lists every rule. Exit codes: 0 printed, 2 unknown rule or usage error.
`;

const OPTIONS = {
  config: { type: "string", short: "c" },
  help: { type: "boolean", short: "h" },
} as const;

export async function explain(argv: readonly string[], io: CommandIo): Promise<number> {
  const { values, positionals } = parseCommandLine("explain", argv, OPTIONS);
  if (values.help === true) {
    io.stdout(EXPLAIN_HELP);
    return EXIT.passed;
  }
  const [name, ...extra] = positionals;
  if (name === undefined) throw new ReturnlintError("USAGE", 'Name the rule to explain: "returnlint explain artifacts". "returnlint rules" lists them.');
  if (extra.length > 0) throw new ReturnlintError("USAGE", `returnlint explain takes one rule; received ${String(positionals.length)}.`);
  const entries = await catalogue(await loadReturnlintConfig(configOptions(io.cwd, values)));
  io.stdout(await explainRule(entries, name, async (entry) => (await import("../rule-docs.js")).RULE_DOCS[entry.loaded.rule.id]));
  return EXIT.passed;
}
