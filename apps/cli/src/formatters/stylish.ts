import type { Level, Result } from "@returnlint/core";
import type { Formatter } from "./types.js";

const TAG: Readonly<Record<Level, string>> = { pass: "[PASS]", info: "[INFO]", warn: "[WARN]", fail: "[FAIL]" };
const COLOR: Readonly<Record<Level, string>> = { pass: "32", info: "36", warn: "33", fail: "31" };

function plural(count: number, word: string): string {
  return `${String(count)} ${word}${count === 1 ? "" : "s"}`;
}

/** The seeds' transcript: `[PASS] …`, `[FAIL] …`, `Error: …`, `Recommendation: …`, then the verdict. */
export const stylish: Formatter = ({ report, source, color, quiet }) => {
  const paint = (level: Level, text: string) => (color ? `\u001b[${COLOR[level]}m${text}\u001b[39m` : text);
  const lines: string[] = [];
  const command = report.command === null ? "no command" : `/${report.command}`;
  if (!quiet) lines.push(`${paint("info", TAG.info)} Checking ${source}: ${report.format} return from ${report.agent} (${command}, preset ${report.preset})`);
  for (const result of report.results) {
    if (quiet && result.level !== "fail") continue;
    lines.push(...describe(result, paint));
  }
  const counts = `${plural(report.errorCount, "error")}, ${plural(report.warningCount, "warning")}`;
  if (report.ok) {
    const withWarnings = report.warningCount > 0 ? ` with ${plural(report.warningCount, "warning")}` : "";
    if (!quiet) lines.push(`${paint("pass", TAG.pass)} Return validation succeeded${withWarnings}`, `Status: ${report.status ?? "(none)"}`);
  } else {
    const first = report.results.find((result) => result.level === "fail");
    lines.push(`${paint("fail", TAG.fail)} Subagent return validation failed: ${first?.message ?? "see above"}`, counts);
  }
  return `${lines.join("\n")}\n`;
};

function describe(result: Result, paint: (level: Level, text: string) => string): string[] {
  const lines = [`${paint(result.level, TAG[result.level])} ${result.message}`];
  if (result.detail !== undefined) lines.push(...result.detail.split("\n"));
  if (result.recommendation !== undefined) lines.push(`Recommendation: ${result.recommendation}`);
  if (result.level === "fail" || result.level === "warn") {
    lines.push(`Rule: ${result.ruleId}${result.pointer === undefined ? "" : ` at ${result.pointer === "" ? "(the whole return)" : result.pointer}`}`);
  }
  return lines;
}
