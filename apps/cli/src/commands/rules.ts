import { EXIT, ReturnlintError } from "@returnlint/core";
import { configOptions, parseCommandLine } from "../args.js";
import { loadReturnlintConfig } from "../host.js";
import { catalogue, ruleListing, ruleText, type CatalogueEntry, type Configured } from "@returnlint/api";
import type { CommandIo } from "./io.js";

export const RULES_HELP = `Usage: returnlint rules [options]

Lists every rule returnlint can run here: the built-in ones, then the custom
rules that the config (and the presets it names) adds, with the severity each
preset gives it, what the config file sets (its "rules", and "command:severity"
for a command's own rules; "-" for nothing), what it checks and where its
documentation is.

Options:
  -c, --config FILE    use FILE instead of looking for returnlint.config.* upwards
  -f, --format NAME    table (default) or json
  -h, --help           show this help

"returnlint explain RULE" prints one rule's documentation.
Exit codes: 0 listed, 2 usage or configuration error.
`;

const OPTIONS = {
  config: { type: "string", short: "c" },
  format: { type: "string", short: "f" },
  help: { type: "boolean", short: "h" },
} as const;

const WIDTH = 100;

export async function rules(argv: readonly string[], io: CommandIo): Promise<number> {
  const { values, positionals } = parseCommandLine("rules", argv, OPTIONS);
  if (values.help === true) {
    io.stdout(RULES_HELP);
    return EXIT.passed;
  }
  if (positionals.length > 0) throw new ReturnlintError("USAGE", `returnlint rules takes no arguments; received "${positionals.join(" ")}". Use "returnlint explain RULE" for one rule.`);
  const format = values.format ?? "table";
  if (format !== "table" && format !== "json") throw new ReturnlintError("USAGE", `--format must be table or json; received "${format}".`);
  const entries = await catalogue(await loadReturnlintConfig(configOptions(io.cwd, values)));
  io.stdout(format === "json" ? `${JSON.stringify(entries.map(ruleListing), null, 2)}\n` : table(entries));
  return EXIT.passed;
}

/** The config column: `warn`, `implement:error`, `warn, implement:error`, or `-` when the config does not name the rule. */
function configCell(configured: Configured): string {
  const cells = [...(configured.rules === undefined ? [] : [configured.rules]), ...Object.entries(configured.commands).map(([name, severity]) => `${name}:${severity}`)];
  return cells.length === 0 ? "-" : cells.join(", ");
}

/** Columns for the id, each preset's severity and the config's, then the description wrapped, the docs link and, for a custom rule, its source. */
function table(entries: readonly CatalogueEntry[]): string {
  const presets = Object.keys(entries[0]?.presets ?? {});
  const withConfig = entries[0]?.configured !== undefined;
  const configCells = entries.map((entry) => (entry.configured === undefined ? "" : configCell(entry.configured)));
  const idWidth = Math.max(4, ...entries.map((entry) => entry.id.length));
  const widths = [idWidth, ...presets.map((name) => Math.max(name.length, 5)), ...(withConfig ? [Math.max(6, ...configCells.map((cell) => cell.length))] : [])];
  const indent = widths.reduce((sum, width) => sum + width + 2, 0);
  const row = (cells: readonly string[]) => cells.map((cell, index) => cell.padEnd(widths[index] ?? 0)).join("  ");
  const lines = [`${row(["rule", ...presets, ...(withConfig ? ["config"] : [])])}  description`];
  entries.forEach((entry, index) => {
    const { description, docs } = ruleText(entry.loaded.rule);
    const text = [...wrap(description, Math.max(30, WIDTH - indent)), ...(docs === "" ? [] : [docs]), ...(entry.builtin ? [] : [`from ${entry.loaded.source}`])];
    const [first = "", ...rest] = text;
    lines.push(`${row([entry.id, ...presets.map((name) => entry.presets[name] ?? "off"), ...(withConfig ? [configCells[index] ?? "-"] : [])])}  ${first}`);
    for (const line of rest) lines.push(`${" ".repeat(indent)}${line}`);
  });
  const custom = entries.filter((entry) => !entry.builtin).length;
  lines.push("", `${String(entries.length)} rules (${String(entries.length - custom)} built in, ${String(custom)} from the config). "returnlint explain RULE" prints one's documentation.`);
  return `${lines.join("\n")}\n`;
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/)) {
    if (line !== "" && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  if (line !== "") lines.push(line);
  return lines;
}
