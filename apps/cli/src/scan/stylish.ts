import { RETURN_FILE_NAMES, type Result } from "@returnlint/core";
import { warningsVerdict, type ValidationReport } from "@returnlint/api";
import type { Summary } from "./summary.js";

// What `returnlint scan` prints without --format json: a line per failing return, then the summary's tables and verdict.

const RED = (color: boolean, text: string) => (color ? `\u001b[31m${text}\u001b[39m` : text);
const GREEN = (color: boolean, text: string) => (color ? `\u001b[32m${text}\u001b[39m` : text);
const CYAN = (color: boolean, text: string) => (color ? `\u001b[36m${text}\u001b[39m` : text);

/** A failing return in one line: its first failure, and how many more; one that failed by its warnings alone (--max-warnings) says so. */
export function failureLine(report: ValidationReport, source: string, color: boolean, maxWarnings?: number): string {
  const first = firstFailure(report);
  if (first === undefined) return `${RED(color, "[FAIL]")} ${source}: ${warningsVerdict({ report, ...(maxWarnings === undefined ? {} : { maxWarnings }) })}\n`;
  const more = report.errorCount > 1 ? `, ${String(report.errorCount - 1)} more ${report.errorCount === 2 ? "failure" : "failures"}` : "";
  return `${RED(color, "[FAIL]")} ${source}: ${first.message} (${first.ruleId}${more})\n`;
}

function firstFailure(report: ValidationReport): Result | undefined {
  return report.results.find((result) => result.level === "fail");
}

/** The summary's tables (returns by status, failures by rule, totals) and the closing verdict; `quiet`: the verdict alone. */
export function renderSummary(summary: Summary, dir: string, quiet: boolean, color: boolean): string {
  const verdict =
    summary.total === 0
      ? `${CYAN(color, "[INFO]")} No ${orList(RETURN_FILE_NAMES)} files below ${dir}\n`
      : summary.failed === 0 && summary.unreadable === 0
        ? `${GREEN(color, "[PASS]")} All ${count(summary.total, "return")} below ${dir} passed\n`
        : `${RED(color, "[FAIL]")} ${String(summary.failed)} of ${count(summary.total, "return")} below ${dir} failed validation${summary.unreadable > 0 ? `; ${String(summary.unreadable)} could not be read` : ""}\n`;
  if (quiet || summary.total === 0) return verdict;
  const rows: [string, string][] = [["status", "returns"], ...sortedRows(summary.byStatus)];
  const ruleRows: [string, string][] = [["rule", "failures"], ...sortedRows(summary.failuresByRule)];
  if (ruleRows.length === 1) ruleRows.push(["(none)", "0"]);
  const totals: [string, string][] = [
    ["phantom work", String(summary.phantomWork)],
    ["passed", String(summary.passed)],
    ["failed", String(summary.failed)],
    ["warned", String(summary.warned)],
  ];
  if (summary.unreadable > 0) totals.push(["unreadable", String(summary.unreadable)]);
  const width = Math.max(...[...rows, ...ruleRows, ...totals].map(([label]) => label.length)) + 2;
  const numbers = Math.max(...[...rows, ...ruleRows, ...totals].map(([, value]) => value.length), 8);
  const table = (lines: [string, string][]) => lines.map(([label, value]) => `  ${label.padEnd(width)}${value.padStart(numbers)}\n`).join("");
  return `\n${table(rows)}\n${table(ruleRows)}\n${table(totals)}\n${verdict}`;
}

/** Most frequent first, then by name, so that two runs print the same table. */
function sortedRows(counts: ReadonlyMap<string, number>): [string, string][] {
  return [...counts]
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0))
    .map(([label, value]) => [label, String(value)]);
}

/** "a, b or c". */
function orList(names: readonly string[]): string {
  return names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} or ${names.at(-1) ?? ""}`;
}

export function count(n: number, word: string): string {
  return `${String(n)} ${word}${n === 1 ? "" : "s"}`;
}
