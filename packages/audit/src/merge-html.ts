import { escapeHtml } from "./html.js";
import type { MergedAudit } from "./merge.js";
import { mergedVerdict } from "./merge-report.js";
import { percent, thousands } from "./stylish.js";

const STYLE = `
body { font: 14px/1.45 system-ui, sans-serif; margin: 0; color: #1f2328; background: #fff; }
main { max-width: 1200px; margin: 0 auto; padding: 24px; }
table { border-collapse: collapse; margin: 8px 0 24px; width: 100%; }
th, td { border-bottom: 1px solid #d0d7de; padding: 4px 8px; text-align: left; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
.verdict { font-weight: 600; }
`;

const row = (cells: readonly string[]): string => `<tr>${cells.join("")}</tr>`;
const text = (value: string): string => `<td>${escapeHtml(value)}</td>`;
const number = (value: number): string => `<td class="n">${thousands(value)}</td>`;
const rate = (value: number): string => `<td class="n">${percent(value)}</td>`;

function table(columns: readonly string[], numeric: number, rows: readonly string[]): string {
  const head = columns.map((column, index) => `<th scope="col"${index >= columns.length - numeric ? ' class="n"' : ""}>${escapeHtml(column)}</th>`).join("");
  return `<table><thead><tr>${head}</tr></thead><tbody>\n${rows.join("\n")}\n</tbody></table>`;
}

/**
 * The merged report as one self-contained page: the repositories, the agents over all, and each
 * repository's agents. No script and no request: its Content-Security-Policy allows inline style only.
 * Every string from the audits is escaped.
 */
export function renderMergedHtml(merged: MergedAudit, generated: Date): string {
  const { summary } = merged;
  const tally = ["returns", "failed", "phantom", "phantom rate"];
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>returnlint audit of ${thousands(merged.repositories.length)} repositories</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>returnlint audit of ${thousands(merged.repositories.length)} repositories</h1>
<p class="verdict">${escapeHtml(mergedVerdict(merged))}</p>
<p>${thousands(summary.returns)} returns from ${thousands(merged.files)} files; generated ${escapeHtml(generated.toISOString())}.</p>
<h2>Repositories</h2>
${table(["repository", ...tally, "unreadable"], 5, merged.repositories.map((r) => row([text(r.repository), number(r.returns), number(r.failed), number(r.phantom), rate(r.phantomRate), number(r.unreadable)])))}
<h2>Agents</h2>
${table(["agent", ...tally], 4, summary.byAgent.map((r) => row([text(r.agent ?? "(no agent)"), number(r.returns), number(r.failed), number(r.phantom), rate(r.phantomRate)])))}
<h2>Phantom rate per agent per repository</h2>
${table(["repository", "agent", ...tally], 4, merged.byRepositoryAndAgent.map((r) => row([text(r.repository), text(r.agent ?? "(no agent)"), number(r.returns), number(r.failed), number(r.phantom), rate(r.phantomRate)])))}
</main>
</body>
</html>
`;
}
