import type { Level, Result } from "@returnlint/core";
import type { Formatter, FormatterInput } from "@returnlint/api";
import { passed, subject, warningsFail, warningsVerdict } from "@returnlint/api";

const TAG: Readonly<Record<Level, string>> = { pass: "[PASS]", info: "[INFO]", warn: "[WARN]", fail: "[FAIL]" };
const COLOR: Readonly<Record<Level, string>> = { pass: "32", info: "36", warn: "33", fail: "31" };

type Paint = (level: Level, text: string) => string;

function painter(color: boolean): Paint {
  return (level, text) => (color ? `\u001b[${COLOR[level]}m${text}\u001b[39m` : text);
}

function plural(count: number, word: string): string {
  return `${String(count)} ${word}${count === 1 ? "" : "s"}`;
}

/**
 * The validation documents' transcript (README, "`returnlint check`"): `[PASS] …`, `[FAIL] …`, `Error: …`, `Recommendation: …`, then the verdict.
 * Several returns: each one's transcript, a blank line between them, then one line for them all.
 */
export const stylish: Formatter = (inputs, { several }) => {
  const transcripts = inputs.map(transcript);
  if (!several) return transcripts.join("");
  return [...transcripts.filter((text) => text !== ""), closingVerdict(inputs)].join("\n");
};

/** One return's transcript. `--quiet` keeps a failing return's header, failures and verdict, and prints nothing for one that passed. */
function transcript(input: FormatterInput): string {
  const { report, source, color, quiet } = input;
  const paint = painter(color);
  const ok = passed(input);
  if (quiet && ok) return "";
  const lines: string[] = [];
  const command = report.command === null ? "no command" : `/${report.command}`;
  const task = input.task === undefined ? "" : ` (task ${input.task})`;
  lines.push(`${paint("info", TAG.info)} Checking ${source}${task}: ${report.format} return from ${report.agent} (${command}, preset ${report.preset})`);
  if (!quiet && report.formatReason !== undefined) lines.push(`${paint("info", TAG.info)} Format ${report.format} (auto): ${report.formatReason}`);
  for (const result of report.results) {
    if (quiet && result.level !== "fail" && !(result.level === "warn" && warningsFail(input))) continue;
    lines.push(...describe(result, paint));
  }
  const counts = `${plural(report.errorCount, "error")}, ${plural(report.warningCount, "warning")}`;
  if (ok) {
    const withWarnings = report.warningCount > 0 ? ` with ${plural(report.warningCount, "warning")}` : "";
    lines.push(`${paint("pass", TAG.pass)} Return validation succeeded${withWarnings}`, `Status: ${report.status ?? "(none)"}`);
  } else {
    const first = report.results.find((result) => result.level === "fail");
    const why = first?.message ?? (warningsFail(input) ? warningsVerdict(input) : "see above");
    lines.push(`${paint("fail", TAG.fail)} Subagent return validation failed: ${why}`, counts);
  }
  return `${lines.join("\n")}\n`;
}

/** One line for several returns: how many failed, and which. */
function closingVerdict(inputs: readonly FormatterInput[]): string {
  const failed = inputs.filter((input) => !passed(input));
  const paint = painter(inputs[0]?.color ?? false);
  const noun = inputs.every((input) => input.task !== undefined) ? "tasks" : "returns";
  const verdict =
    failed.length === 0
      ? `${paint("pass", TAG.pass)} All ${String(inputs.length)} ${noun} passed validation`
      : `${paint("fail", TAG.fail)} ${String(failed.length)} of ${String(inputs.length)} ${noun} failed validation: ${failed.map(subject).join(", ")}`;
  return `${verdict}\n`;
}

function describe(result: Result, paint: Paint): string[] {
  const lines = [`${paint(result.level, TAG[result.level])} ${result.message}`];
  if (result.detail !== undefined) lines.push(...result.detail.split("\n"));
  if (result.recommendation !== undefined) lines.push(`Recommendation: ${result.recommendation}`);
  if (result.level === "fail" || result.level === "warn") {
    lines.push(`Rule: ${result.ruleId}${result.pointer === undefined ? "" : ` at ${result.pointer === "" ? "(the whole return)" : result.pointer}`}`);
  }
  return lines;
}
