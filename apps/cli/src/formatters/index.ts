import { ReturnlintError, closest } from "@returnlint/core";
import type { Formatter, ManyFormatter } from "@returnlint/api";

export type FormatterLoader = () => Promise<Formatter>;
export type ManyFormatterLoader = () => Promise<ManyFormatter>;

/** Every output format, by `--format` name. Each loads on use: a check pays only for the ones it prints. */
export const FORMATTERS: Readonly<Record<string, FormatterLoader>> = {
  stylish: async () => (await import("./stylish.js")).stylish,
  json: async () => (await import("./json.js")).json,
  sarif: async () => (await import("./sarif.js")).sarif,
  junit: async () => (await import("./junit.js")).junit,
  github: async () => (await import("./github.js")).github,
  reask: async () => (await import("@returnlint/api")).reask,
  response: async () => (await import("./response.js")).response,
};

/** The same formats for several returns at once (`check --task` with a range): one document each. */
export const MANY_FORMATTERS: Readonly<Record<string, ManyFormatterLoader>> = {
  stylish: async () => (await import("./stylish.js")).stylishMany,
  json: async () => (await import("./json.js")).jsonMany,
  sarif: async () => (await import("./sarif.js")).sarifMany,
  junit: async () => (await import("./junit.js")).junitMany,
  github: async () => (await import("./github.js")).githubMany,
  reask: async () => (await import("@returnlint/api")).reaskMany,
  response: async () => (await import("./response.js")).responseMany,
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
