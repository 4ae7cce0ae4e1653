import type { ValidationReport } from "./validate.js";

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
