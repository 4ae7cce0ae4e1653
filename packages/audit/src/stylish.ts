import type { AuditDocument } from "./document.js";
import type { Tally } from "./summary.js";

/** How wide a name from the repository may be in a table before it is cut. */
const MAX_NAME = 48;

/**
 * A name from the repository as a terminal may show it: control characters (an
 * escape sequence in an agent name could rewrite the screen) written as `\u001b`,
 * and cut to `max` characters.
 */
export function printable(text: string, max = MAX_NAME): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what this looks for
  const safe = text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
  return safe.length > max ? `${safe.slice(0, max - 1)}…` : safe;
}

export const percent = (rate: number): string => `${(rate * 100).toFixed(1)}%`;
const thousands = (n: number): string => n.toLocaleString("en-US");

function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((cell, index) => Math.max(cell.length, ...rows.map((row) => (row[index] ?? "").length)));
  const line = (cells: readonly string[]) =>
    `  ${cells
      .map((cell, index) => (index === 0 ? cell.padEnd(widths[index] ?? 0) : cell.padStart(widths[index] ?? 0)))
      .join("  ")
      .trimEnd()}\n`;
  return line(header) + rows.map(line).join("");
}

/** How many in_progress versions a later version of their file replaced, as a phrase. */
export const earlyVersions = (n: number): string => (n === 1 ? "1 in_progress version replaced later by another version of its file" : `${thousands(n)} in_progress versions replaced later by other versions of their files`);
const tallyCells = (tally: Tally): string[] => [thousands(tally.returns), thousands(tally.failed), thousands(tally.phantom), percent(tally.phantomRate)];
const TALLY_HEADER = ["returns", "failed", "phantom", "phantom rate"];
const named = (value: string | null, none: string): string => (value === null ? none : printable(value));

/**
 * Which config the audit applied, and how to apply another: a config left in the working tree
 * is not history's (see config.ts), so the sentence names it and the option that takes it.
 */
export function configSentence(document: AuditDocument): string {
  const { config, unappliedConfig: unapplied, repo } = document;
  const applied = config === null ? `none committed at ${printable(repo.rev, 80)} (built-in presets, format detected per return)` : printable(config, 200);
  if (unapplied !== null) {
    const file = printable(unapplied, 200);
    const why = config === null ? "is not committed" : "differs from it";
    return `${applied}; the working tree's ${file} ${why}, so it was not applied: audit with it with -c ${file}`;
  }
  return config === null ? `${applied}; to apply a config, commit it or pass -c FILE` : applied;
}

/** The terminal report: where and what was audited, tables by agent, command, status, month and rule, the worst returns, the verdict. */
export function renderStylish(document: AuditDocument, verdict: string): string {
  const { summary, repo, range } = document;
  const tip = repo.head === null ? `${repo.rev} (no commits)` : `${repo.rev} ${repo.head.slice(0, 12)}`;
  const span = range.first === null || range.last === null ? "" : `, ${range.first.slice(0, 10)} to ${range.last.slice(0, 10)}`;
  const head = [
    `returnlint audit of ${printable(repo.path, 200)}${repo.bare ? " (bare)" : ""}: ${tip}, ${thousands(summary.returns)} ${summary.returns === 1 ? "return" : "returns"} in ${thousands(summary.commits)} ${summary.commits === 1 ? "commit" : "commits"}${span}`,
    `Config: ${configSentence(document)}`,
    ...(summary.early === 0 ? [] : [`Early metadata: ${earlyVersions(summary.early)}, not judged (written while the agent worked)`]),
    ...(range.since === null && range.until === null ? [] : [`Range: ${range.since ?? "the first commit"} to ${range.until ?? "the last"}`]),
    ...(repo.shallow ? ["[WARN] The repository is a shallow clone: history before its cut is not audited."] : []),
  ].join("\n");
  if (summary.returns === 0) return `${head}\n\n${verdict}\n`;

  const sections = [
    table(["agent", ...TALLY_HEADER], summary.byAgent.map((row) => [named(row.agent, "(no agent)"), ...tallyCells(row)])),
    table(["command", ...TALLY_HEADER], summary.byCommand.map((row) => [named(row.command, "(unknown)"), ...tallyCells(row)])),
    table(["status", ...TALLY_HEADER], summary.byStatus.map((row) => [named(row.status, "(no status)"), ...tallyCells(row)])),
    table(["month", ...TALLY_HEADER], summary.byMonth.map((row) => [row.month, ...tallyCells(row)])),
    table(
      ["rule", "failures", "returns"],
      summary.failuresByRule.length === 0 ? [["(none)", "0", "0"]] : summary.failuresByRule.map((row) => [printable(row.rule), thousands(row.failures), thousands(row.returns)]),
    ),
  ];
  const worst =
    summary.worst.length === 0
      ? ""
      : `\nWorst returns:\n${summary.worst
          .map(
            (row) =>
              `  ${row.date.slice(0, 10)} ${row.commit.slice(0, 12)} ${printable(row.path, 120)}\n    ${row.phantom ? "phantom work" : "failed"}: ${named(row.agent, "(no agent)")}, status ${named(row.status, "(none)")}; ${printable(row.message ?? "no failure reported", 160)}${row.failures > 1 ? ` (+${String(row.failures - 1)} more)` : ""}\n`,
          )
          .join("")}`;
  return `${head}\n\n${sections.join("\n")}${worst}\n${verdict}\n`;
}
