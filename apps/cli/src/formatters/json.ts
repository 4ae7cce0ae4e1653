import type { ValidationReport } from "@returnlint/api";
import type { Formatter, FormatterInput, ManyFormatter } from "@returnlint/api";
import { passed } from "@returnlint/api";

/**
 * DESIGN.md's report object, the verdict first. `ok` is the verdict the exit code
 * gives (more warnings than --max-warnings fail a return too); `--quiet` keeps the
 * failures only. `returnlint scan --format json` prints the same object.
 */
export function reportObject(report: ValidationReport, source: string, options: { readonly ok: boolean; readonly quiet: boolean; readonly task?: string }) {
  return {
    ok: options.ok,
    command: report.command,
    format: report.format,
    status: report.status,
    errorCount: report.errorCount,
    warningCount: report.warningCount,
    source,
    agent: report.agent,
    preset: report.preset,
    origin: report.origin,
    ...(options.task === undefined ? {} : { task: options.task }),
    results: options.quiet ? report.results.filter((result) => result.level === "fail") : report.results,
  };
}

function serialise(input: FormatterInput): string {
  return JSON.stringify(reportObject(input.report, input.source, { ok: passed(input), quiet: input.quiet, ...(input.task === undefined ? {} : { task: input.task }) }));
}

/** One JSON object on one line. */
export const json: Formatter = (input) => `${serialise(input)}\n`;

/** Several returns: one JSON array, one report per line (as `returnlint scan --format json`); `--quiet` keeps the failing ones. */
export const jsonMany: ManyFormatter = (inputs) => jsonArray(inputs.filter((input) => !input.quiet || !passed(input)).map(serialise));

/** One JSON document of several values, one per line. */
export function jsonArray(values: readonly string[]): string {
  return values.length === 0 ? "[]\n" : `[\n${values.join(",\n")}\n]\n`;
}
