import type { AuditDocument } from "./document.js";
import type { Tally } from "./summary.js";

/** How wide a name from the repository may be in a table before it is cut. */
const MAX_NAME = 48;

/**
 * What must not reach a reader as it is: control characters (C0, DEL, C1: an escape
 * sequence in an agent name could rewrite the screen), format characters (the bidi
 * overrides and isolates such as U+202E, which reorder what follows them so that a name
 * reads as another; zero-width characters; a BOM), line and paragraph separators, and
 * lone surrogates.
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu;

/** `text` with each invisible or reordering character written out (`\u202e`, `\u{e0041}`), for a terminal or a page. */
export function visible(text: string): string {
  return text.replace(INVISIBLE, (char) => {
    const code = char.codePointAt(0) ?? 0;
    return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, "0")}`;
  });
}

/** A name from the repository as a terminal may show it: `visible`, and cut to `max` characters. */
export function printable(text: string, max = MAX_NAME): string {
  const safe = visible(text);
  return safe.length > max ? `${safe.slice(0, max - 1)}…` : safe;
}

export const percent = (rate: number): string => `${(rate * 100).toFixed(1)}%`;

/**
 * A count with its thousands grouped, as `toLocaleString("en-US")` writes it (`12,345`), without
 * Intl: the first call of a locale method loads ICU's data, 25 to 35 ms of every audit.
 */
export const thousands = (count: number): string => String(count).replace(/\B(?=(?:\d{3})+$)/g, ",");

export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((cell, index) => Math.max(cell.length, ...rows.map((row) => (row[index] ?? "").length)));
  const line = (cells: readonly string[]) =>
    `  ${cells
      .map((cell, index) => (index === 0 ? cell.padEnd(widths[index] ?? 0) : cell.padStart(widths[index] ?? 0)))
      .join("  ")
      .trimEnd()}\n`;
  return line(header) + rows.map(line).join("");
}

/** What a shallow clone leaves out, and how to audit it. */
export function shallowSentence(cut: NonNullable<AuditDocument["shallowCut"]>): string {
  const at = cut.commits.length === 0 ? "" : ` (${cut.commits.map((commit) => commit.slice(0, 12)).join(", ")})`;
  const versions = cut.versions === 1 ? "1 version of .return-meta.json" : `${thousands(cut.versions)} versions of .return-meta.json`;
  const left = cut.versions === 0 ? "" : `; the ${versions} already there at its cut${at} ${cut.versions === 1 ? "was" : "were"} not audited, since when ${cut.versions === 1 ? "it was" : "they were"} written is not known`;
  return `The repository is a shallow clone: history before its cut is not there${left}. Fetch the whole history (git fetch --unshallow) to audit it.`;
}

/** Said under the month table when it lists only the months with returns. */
export const MONTHS_OMITTED = "Only the months with returns are listed: the first and the last are more than a century apart (a commit's date is whatever its author wrote).";

/** How many in_progress versions a later version of their file replaced, as a phrase. */
export const earlyVersions = (n: number): string => (n === 1 ? "1 in_progress version replaced later by another version of its file" : `${thousands(n)} in_progress versions replaced later by other versions of their files`);
export const tallyCells = (tally: Tally): string[] => [thousands(tally.returns), thousands(tally.failed), thousands(tally.phantom), percent(tally.phantomRate)];
export const TALLY_HEADER = ["returns", "failed", "phantom", "phantom rate"];
const named = (value: string | null, none: string): string => (value === null ? none : printable(value));

/**
 * Which config the audit applied, and how to apply another: a config left in the working tree
 * is not history's (see config.ts), so the sentence names it and the option that takes it.
 */
export function configSentence(document: AuditDocument): string {
  const { config, unappliedConfig: unapplied, configRefused: refused } = document;
  const applied = appliedConfig(document);
  if (unapplied !== null) {
    const file = printable(unapplied, 200);
    const why = config === null && refused === null ? "is not committed" : "differs from the committed one";
    return `${applied}; the working tree's ${file} ${why}, so it was not applied: audit with it with -c ${file}`;
  }
  return config === null && refused === null ? `${applied}; to apply a config, commit it or pass -c FILE` : applied;
}

/** The config applied, and whether code from the repository could run (the repository is untrusted: docs/audit.md). */
function appliedConfig({ config, configKind: kind, configRefused: refused, repo }: AuditDocument): string {
  if (refused !== null) return `built-in presets (format detected per return); ${printable(refused, 300)}, code, which audit does not run from the repository it audits: pass --trust-repo-config to run it`;
  if (config === null) return `none committed at ${printable(repo.rev, 80)} (built-in presets, format detected per return)`;
  if (kind === "data") return `${printable(config, 200)}, read as data (no code from the repository is run)`;
  if (kind === "trusted") return `${printable(config, 200)}, trusted with --trust-repo-config (code it is or names may run)`;
  return printable(config, 200);
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
    ...(document.shallowCut === null ? [] : [`[WARN] ${shallowSentence(document.shallowCut)}`]),
  ].join("\n");
  if (summary.returns === 0) return `${head}\n\n${verdict}\n`;

  const sections = [
    table(["agent", ...TALLY_HEADER], summary.byAgent.map((row) => [named(row.agent, "(no agent)"), ...tallyCells(row)])),
    table(["command", ...TALLY_HEADER], summary.byCommand.map((row) => [named(row.command, "(unknown)"), ...tallyCells(row)])),
    table(["status", ...TALLY_HEADER], summary.byStatus.map((row) => [named(row.status, "(no status)"), ...tallyCells(row)])),
    table(["month", ...TALLY_HEADER], summary.byMonth.map((row) => [row.month, ...tallyCells(row)])) + (summary.emptyMonthsOmitted ? `  ${MONTHS_OMITTED}\n` : ""),
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
