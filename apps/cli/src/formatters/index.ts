import { ReturnlintError, closest } from "@returnlint/core";
import { json } from "./json.js";
import { stylish } from "./stylish.js";
import type { Formatter } from "./types.js";

export const FORMATTERS: Readonly<Record<string, Formatter>> = { stylish, json };

export function formatterFor(name: string): Formatter {
  const formatter = FORMATTERS[name];
  if (formatter !== undefined) return formatter;
  const guess = closest(name, Object.keys(FORMATTERS));
  throw new ReturnlintError(
    "USAGE",
    `Unknown format "${name}"${guess === undefined ? "" : ` (did you mean "${guess}"?)`}; available: ${Object.keys(FORMATTERS).join(", ")}.`,
  );
}
