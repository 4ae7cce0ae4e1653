import { ReturnlintError } from "@returnlint/core";
import { configOptions, parseCommandLine } from "../args.js";
import { loadReturnlintConfig } from "../api.js";
import { catalogue, type CatalogueEntry } from "../catalogue.js";
import type { CommandIo } from "./io.js";

export const RULES_HELP = `Usage: returnlint rules [options]

Lists every rule returnlint can run here: the built-in ones, then the custom
rules that the config (and the presets it names) adds, with the severity each
preset gives it, what it checks and where its documentation is.

Options:
  --config FILE        use FILE instead of looking for returnlint.config.* upwards
  -f, --format NAME    table (default) or json
  -h, --help           show this help

"returnlint explain RULE" prints one rule's documentation.
Exit codes: 0 listed, 2 usage or configuration error.
`;

const OPTIONS = {
  config: { type: "string" },
  format: { type: "string", short: "f" },
  help: { type: "boolean", short: "h" },
} as const;

const WIDTH = 100;

export async function rules(argv: readonly string[], io: CommandIo): Promise<number> {
  const { values, positionals } = parseCommandLine("rules", argv, OPTIONS);
  if (values.help === true) {
    io.stdout(RULES_HELP);
    return 0;
  }
  if (positionals.length > 0) throw new ReturnlintError("USAGE", `returnlint rules takes no arguments; received "${positionals.join(" ")}". Use "returnlint explain RULE" for one rule.`);
  const format = values.format ?? "table";
  if (format !== "table" && format !== "json") throw new ReturnlintError("USAGE", `--format must be table or json; received "${format}".`);
  const entries = catalogue(await loadReturnlintConfig(configOptions(io.cwd, values)));
  io.stdout(format === "json" ? `${JSON.stringify(entries.map(toJson), null, 2)}\n` : table(entries));
  return 0;
}

function toJson(entry: CatalogueEntry) {
  const { meta } = entry.loaded.rule;
  return { id: entry.id, description: meta.description, docs: meta.docs, source: entry.loaded.source, builtin: entry.builtin, presets: entry.presets };
}

/** Columns for the id and each preset's severity, then the description wrapped, the docs link and, for a custom rule, its source. */
function table(entries: readonly CatalogueEntry[]): string {
  const presets = Object.keys(entries[0]?.presets ?? {});
  const idWidth = Math.max(4, ...entries.map((entry) => entry.id.length));
  const widths = [idWidth, ...presets.map((name) => Math.max(name.length, 5))];
  const indent = widths.reduce((sum, width) => sum + width + 2, 0);
  const row = (cells: readonly string[]) => cells.map((cell, index) => cell.padEnd(widths[index] ?? 0)).join("  ");
  const lines = [`${row(["rule", ...presets])}  description`];
  for (const entry of entries) {
    const { meta } = entry.loaded.rule;
    const text = [...wrap(meta.description, Math.max(30, WIDTH - indent)), meta.docs, ...(entry.builtin ? [] : [`from ${entry.loaded.source}`])];
    const [first = "", ...rest] = text;
    lines.push(`${row([entry.id, ...presets.map((name) => entry.presets[name] ?? "off")])}  ${first}`);
    for (const line of rest) lines.push(`${" ".repeat(indent)}${line}`);
  }
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
