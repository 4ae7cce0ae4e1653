import { EXIT, type ExitCode, type Result } from "@returnlint/core";
import type { FormatterInput } from "./formatter-types.js";

/** What a verdict depends on: the report and `--max-warnings` (none: warnings never fail). */
type Verdict = Pick<FormatterInput, "report" | "maxWarnings">;

/** True when `--max-warnings` turns this return's warnings into a failure. */
export function warningsFail({ report, maxWarnings }: Verdict): boolean {
  return maxWarnings !== undefined && report.warningCount > maxWarnings;
}

/** The verdict on one return, in one place: the rules' verdict, and `--max-warnings`. `check`, `scan`, the JSON report and the library all use it. */
export function passed(input: Verdict): boolean {
  return input.report.ok && !warningsFail(input);
}

/** The exit code of one return: a rule that crashed leaves the verdict incomplete (2), else the verdict (1 failed, 0 passed). */
export function exitCodeOfReport(input: Verdict): ExitCode {
  if (input.report.internalError) return EXIT.error;
  return passed(input) ? EXIT.passed : EXIT.failed;
}

/** The results that make the return fail, in the order they were reported. */
export function failing(input: Verdict): Result[] {
  const warningsFailToo = warningsFail(input);
  return input.report.results.filter((result) => result.level === "fail" || (warningsFailToo && result.level === "warn"));
}

/** The problems a formatter lists: failures, and warnings unless `--quiet`. */
export function problems(input: FormatterInput): Result[] {
  return input.report.results.filter((result) => result.level === "fail" || (result.level === "warn" && (!input.quiet || warningsFail(input))));
}

/** Why a return with no failures still fails: more warnings than `--max-warnings` allows. */
export function warningsVerdict(input: Verdict): string {
  const count = input.report.warningCount;
  return `${String(count)} ${count === 1 ? "warning" : "warnings"}, more than --max-warnings ${String(input.maxWarnings ?? 0)}`;
}

/** The return that a report among several is about: its task, or its file. */
export function subject(input: FormatterInput): string {
  return input.task === undefined ? input.source : `task ${input.task}`;
}
