import type { Formatter, FormatterInput, ManyFormatter } from "@returnlint/api";
import { passed, reportObject } from "@returnlint/api";

function serialise(input: FormatterInput): string {
  return JSON.stringify(reportObject(input.report, input.source, { ok: passed(input), quiet: input.quiet, facts: input.facts, ...(input.task === undefined ? {} : { task: input.task }) }));
}

/** One JSON object on one line. */
export const json: Formatter = (input) => `${serialise(input)}\n`;

/** Several returns: one JSON array, one report per line (as `returnlint scan --format json`); `--quiet` keeps the failing ones. */
export const jsonMany: ManyFormatter = (inputs) => jsonArray(inputs.filter((input) => !input.quiet || !passed(input)).map(serialise));

/** One JSON document of several values, one per line. */
export function jsonArray(values: readonly string[]): string {
  return values.length === 0 ? "[]\n" : `[\n${values.join(",\n")}\n]\n`;
}
