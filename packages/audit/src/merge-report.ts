import { renderMergedJson, type MergedAudit } from "./merge.js";
import { percent, printable, table, tallyCells, thousands, TALLY_HEADER } from "./stylish.js";

/** The merged report in one line: `[PASS]` without phantom work, else `[WARN]` with the rate and the repository with most of it. */
export function mergedVerdict(merged: MergedAudit): string {
  const { summary, repositories } = merged;
  const of = `${String(repositories.length)} ${repositories.length === 1 ? "repository" : "repositories"}`;
  if (summary.returns === 0) return `[INFO] No return in the ${of} merged`;
  if (summary.phantom === 0) return `[PASS] No phantom work in ${thousands(summary.returns)} returns of ${of}; ${thousands(summary.failed)} failed validation`;
  const worst = [...repositories].sort((a, b) => b.phantom - a.phantom)[0];
  return `[WARN] ${thousands(summary.phantom)} of ${thousands(summary.returns)} returns of ${of} claimed work that was not in their commit (${percent(summary.phantomRate)} phantom work; most in ${printable(worst?.repository ?? "", 120)})`;
}

/** The terminal report of a merge: a table of repositories, of agents over all, and of each repository's agents. */
export function renderMergedStylish(merged: MergedAudit): string {
  const { summary } = merged;
  const head = `returnlint audit merge of ${thousands(merged.files)} ${merged.files === 1 ? "file" : "files"}: ${thousands(merged.repositories.length)} ${merged.repositories.length === 1 ? "repository" : "repositories"}, ${thousands(summary.returns)} returns${summary.unreadable === 0 ? "" : `, ${thousands(summary.unreadable)} unreadable`}`;
  const sections = [
    table(
      ["repository", ...TALLY_HEADER, "unreadable"],
      merged.repositories.map((row) => [printable(row.repository, 80), ...tallyCells(row), thousands(row.unreadable)]),
    ),
    table(["agent", ...TALLY_HEADER], summary.byAgent.map((row) => [row.agent === null ? "(no agent)" : printable(row.agent), ...tallyCells(row)])),
    table(
      ["repository", "agent", ...TALLY_HEADER],
      merged.byRepositoryAndAgent.map((row) => [printable(row.repository, 80), row.agent === null ? "(no agent)" : printable(row.agent), ...tallyCells(row)]),
    ),
  ];
  return `${head}\n\n${sections.join("\n")}\n${mergedVerdict(merged)}\n`;
}

export type MergeFormat = "stylish" | "json" | "html";

/** The merged report in `format`; the HTML page is built only when asked for. */
export async function renderMerged(merged: MergedAudit, format: MergeFormat, generated: Date): Promise<string> {
  if (format === "json") return renderMergedJson(merged);
  if (format === "html") return (await import("./merge-html.js")).renderMergedHtml(merged, generated);
  return renderMergedStylish(merged);
}
