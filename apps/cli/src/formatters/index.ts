import { ReturnlintError, closest } from "@returnlint/core";
import type { Formatter } from "@returnlint/api";

export type FormatterLoader = () => Promise<Formatter>;

/** Every output format, by `--format` name, for one return and for several alike. Each loads on use: a check pays only for the ones it prints. */
export const FORMATTERS: Readonly<Record<string, FormatterLoader>> = {
  stylish: async () => (await import("./stylish.js")).stylish,
  json: async () => (await import("./json.js")).json,
  sarif: async () => (await import("./sarif.js")).sarif,
  junit: async () => (await import("./junit.js")).junit,
  github: async () => (await import("./github.js")).github,
  reask: async () => (await import("@returnlint/api")).reask,
  response: async () => (await import("./response.js")).response,
};

export function formatterFor(name: string): FormatterLoader {
  const formatter = FORMATTERS[name];
  if (formatter !== undefined) return formatter;
  const guess = closest(name, Object.keys(FORMATTERS));
  throw new ReturnlintError(
    "USAGE",
    `Unknown format "${name}"${guess === undefined ? "" : ` (did you mean "${guess}"?)`}; available: ${Object.keys(FORMATTERS).join(", ")}.`,
  );
}
