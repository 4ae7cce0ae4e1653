import type { Result } from "@returnlint/core";
import type { FormatterInput } from "./types.js";

/** True when `--max-warnings` turns this return's warnings into a failure. */
export function warningsFail({ report, maxWarnings }: FormatterInput): boolean {
  return maxWarnings !== undefined && report.warningCount > maxWarnings;
}

/** The verdict the exit code gives: the rules' verdict, and `--max-warnings`. */
export function passed(input: FormatterInput): boolean {
  return input.report.ok && !warningsFail(input);
}

/** The results that make the return fail, in the order they were reported. */
export function failing(input: FormatterInput): Result[] {
  const warningsCount = warningsFail(input);
  return input.report.results.filter((result) => result.level === "fail" || (warningsCount && result.level === "warn"));
}

/** The problems a formatter lists: failures, and warnings unless `--quiet`. */
export function problems(input: FormatterInput): Result[] {
  return input.report.results.filter((result) => result.level === "fail" || (result.level === "warn" && (!input.quiet || warningsFail(input))));
}
