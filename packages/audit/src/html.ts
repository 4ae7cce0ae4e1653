import { createHash } from "node:crypto";
import path from "node:path";
import { chartLibrary } from "./chart-library.js";
import type { AuditDocument } from "./document.js";
import type { Forge } from "./forge.js";
import type { AuditedReturn } from "./returns.js";
import { MONTHS_OMITTED, configSentence, earlyVersions, percent, shallowSentence, thousands, visible } from "./stylish.js";

/** A return's verdict in the report, from the least to the most serious (the order the verdict column sorts in). */
const VERDICTS = ["passed", "early", "failed", "phantom"] as const;
type Verdict = (typeof VERDICTS)[number];
const verdictOf = (audited: AuditedReturn): Verdict => (audited.phantom ? "phantom" : audited.early ? "early" : audited.ok ? "passed" : "failed");

/** How many agents get a line of their own in the chart; the others are in "all agents". */
const CHART_AGENTS = 8;
const CHART_RULES = 15;
/** Tops the phantom chart's axis may have (percent): the first above the highest rate drawn, so that small rates are not flat on the baseline. */
const AXIS_TOPS = [1, 2, 5, 10, 15, 20, 25, 30, 40, 50, 60, 75, 100];
const PALETTE = ["#2563eb", "#dc2626", "#16a34a", "#9333ea", "#ea580c", "#0891b2", "#c026d3", "#65a30d"];

/**
 * Text from the repository (or anywhere) as HTML text or an attribute value: nothing in it can open a
 * tag or end an attribute, and a control or bidi character (U+202E) shows as its escape (`visible`):
 * as a character reference it would still reorder the text around it.
 */
export function escapeHtml(text: string): string {
  return visible(text).replace(/[&<>"']/g, (char) => `&#${String(char.charCodeAt(0))};`);
}

/** JSON inside a `<script type="application/json">`: no `<` (so no `</script>`), no `&`, no line separators JavaScript once choked on. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** A script as an inline `<script>`: its text cannot end the element early. */
function inlineScript(source: string): string {
  return source.replace(/<\/(script)/gi, "<\\/$1");
}

const sha256 = (text: string): string => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;

/** What the page's script draws: built here, so that the script only hands it to Chart.js. */
function chartData(document: AuditDocument): unknown {
  const { summary } = document;
  // byMonth holds every month from the first return's to the last's, empty ones included.
  const axis = summary.byMonth.map((row) => row.month);
  const rate = (row: { returns: number; phantomRate: number } | undefined) => (row === undefined || row.returns === 0 ? null : Math.round(row.phantomRate * 1000) / 10);
  const agents = summary.byAgent.slice(0, CHART_AGENTS).map((agent) => {
    const rows = new Map(summary.byAgentAndMonth.filter((row) => row.agent === agent.agent).map((row) => [row.month, row]));
    // Chart.js draws labels as they are: a bidi override in a name would reorder the legend.
    return { label: visible(agent.agent ?? "(no agent)"), rates: axis.map((month) => rate(rows.get(month))), counts: axis.map((month) => rows.get(month)?.returns ?? 0) };
  });
  const all = new Map(summary.byMonth.map((row) => [row.month, row]));
  const series = [...agents, { label: "all agents", all: true, rates: axis.map((month) => rate(all.get(month))), counts: axis.map((month) => all.get(month)?.returns ?? 0) }];
  // A little room above the highest point, so that its mark is not cut by the frame.
  const highest = Math.max(0, ...series.flatMap((line) => line.rates.filter((value) => value !== null))) * 1.05;
  return {
    months: axis,
    series,
    axisTop: AXIS_TOPS.find((top) => top >= highest) ?? 100,
    palette: PALETTE,
    rules: summary.failuresByRule.slice(0, CHART_RULES).map((row) => ({ rule: visible(row.rule), failures: row.failures })),
  };
}

/** The page's own script: the two charts, sorting for every table with class "sortable", and the filters of the returns. DOM text only, never HTML. */
const APP_SCRIPT = `(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("audit-data").textContent);
  var Chart = window.Chart;
  var phantom = document.getElementById("phantom-chart");
  if (Chart && phantom && data.months.length > 0) {
    new Chart(phantom, {
      type: "line",
      data: {
        labels: data.months,
        datasets: data.series.map(function (series, index) {
          var colour = series.all ? "#111827" : data.palette[index % data.palette.length];
          return { label: series.label, data: series.rates, counts: series.counts, borderColor: colour, backgroundColor: colour, borderWidth: series.all ? 4 : 2, pointRadius: 3, spanGaps: false, tension: 0 };
        })
      },
      options: {
        animation: false,
        maintainAspectRatio: false,
        interaction: { mode: "nearest", intersect: false },
        scales: { y: { min: 0, max: data.axisTop, title: { display: true, text: "phantom work, % of returns" }, ticks: { callback: function (value) { return value + "%"; } } } },
        plugins: {
          // Each swatch is a stroke of its line, as thick as the line, not a box outlined by it.
          legend: { labels: { usePointStyle: true, pointStyle: "line", pointStyleWidth: 32 } },
          tooltip: { callbacks: { label: function (item) { var n = item.dataset.counts[item.dataIndex]; return item.dataset.label + ": " + item.parsed.y + "% of " + n + (n === 1 ? " return" : " returns"); } } } }
      }
    });
  }
  var rules = document.getElementById("rules-chart");
  if (Chart && rules && data.rules.length > 0) {
    new Chart(rules, {
      type: "bar",
      data: { labels: data.rules.map(function (row) { return row.rule; }), datasets: [{ label: "failures", data: data.rules.map(function (row) { return row.failures; }), backgroundColor: "#dc2626" }] },
      options: { animation: false, maintainAspectRatio: false, indexAxis: "y", plugins: { legend: { display: false } }, scales: { x: { beginAtZero: true, ticks: { precision: 0 } } } }
    });
  }
  function key(cell) {
    var sort = cell.getAttribute("data-sort");
    if (sort !== null && sort !== "" && !isNaN(Number(sort))) return Number(sort);
    return (sort !== null ? sort : cell.textContent).toLowerCase();
  }
  Array.prototype.forEach.call(document.querySelectorAll("table.sortable"), function (table) {
    var headers = table.tHead.rows[0].cells;
    Array.prototype.forEach.call(headers, function (header, column) {
      var button = header.querySelector("button");
      if (!button) return;
      button.addEventListener("click", function () {
        var ascending = header.getAttribute("aria-sort") !== "ascending";
        Array.prototype.forEach.call(headers, function (other) { other.removeAttribute("aria-sort"); });
        header.setAttribute("aria-sort", ascending ? "ascending" : "descending");
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (a, b) {
          var x = key(a.cells[column]), y = key(b.cells[column]);
          var order = x < y ? -1 : x > y ? 1 : 0;
          return ascending ? order : -order;
        });
        rows.forEach(function (row) { body.appendChild(row); });
      });
    });
  });
  var returns = document.getElementById("returns");
  var verdictFilter = document.getElementById("verdict-filter");
  var textFilter = document.getElementById("text-filter");
  var shown = document.getElementById("shown-count");
  function filter() {
    var verdict = verdictFilter.value;
    var text = textFilter.value.trim().toLowerCase();
    var rows = returns.tBodies[0].rows;
    var count = 0;
    Array.prototype.forEach.call(rows, function (row) {
      row.hidden = (verdict !== "" && row.getAttribute("data-verdict") !== verdict) || (text !== "" && row.textContent.toLowerCase().indexOf(text) === -1);
      if (!row.hidden) count += 1;
    });
    shown.textContent = count === rows.length ? "" : "showing " + count.toLocaleString("en-US") + " of " + rows.length.toLocaleString("en-US");
  }
  if (returns && verdictFilter && textFilter && shown) {
    verdictFilter.addEventListener("change", filter);
    textFilter.addEventListener("input", filter);
  }
})();
`;

const STYLE = `
:root { color-scheme: light; --ink: #111827; --muted: #6b7280; --line: #e5e7eb; --bad: #b91c1c; --warn: #b45309; --good: #15803d; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: #f9fafb; }
header, main { max-width: 1200px; margin: 0 auto; padding: 0 24px; }
header { padding-top: 24px; }
h1 { font-size: 22px; margin: 0 0 4px; overflow-wrap: anywhere; }
h2 { font-size: 16px; margin: 28px 0 10px; }
.meta { color: var(--muted); margin: 0; overflow-wrap: anywhere; }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(160px, 1fr)); gap: 12px; margin-top: 18px; }
.card { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 12px 14px; }
.card b { display: block; font-size: 24px; }
.card span { color: var(--muted); }
.card.bad b { color: var(--bad); }
.charts { display: grid; grid-template-columns: 3fr 2fr; gap: 16px; margin-top: 16px; }
.charts > figure { min-width: 0; }
@media (max-width: 900px) { .charts { grid-template-columns: 1fr; } }
figure { margin: 0; background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 12px; }
figcaption { font-weight: 600; margin-bottom: 8px; }
.chart { position: relative; height: 320px; }
.empty { color: var(--muted); padding: 24px 0; }
.tables { display: grid; grid-template-columns: repeat(auto-fit, minmax(480px, 1fr)); gap: 0 16px; }
.tables section { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; background: #fff; border: 1px solid var(--line); }
td.date { white-space: nowrap; }
td.name { overflow-wrap: anywhere; }
th, td { text-align: left; padding: 5px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
th { background: #f3f4f6; font-weight: 600; white-space: nowrap; }
th button { font: inherit; border: 0; background: none; padding: 0; cursor: pointer; color: inherit; }
th[aria-sort="ascending"] button::after { content: " ▲"; }
th[aria-sort="descending"] button::after { content: " ▼"; }
td.path { overflow-wrap: anywhere; min-width: 9em; }
td.msg { overflow-wrap: anywhere; min-width: 12em; }
#returns { font-size: 13px; }
code { font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; }
.verdict { font-weight: 600; white-space: nowrap; }
.verdict.phantom { color: var(--bad); }
.verdict.failed { color: var(--warn); }
.verdict.passed { color: var(--good); }
.verdict.early { color: var(--muted); }
#returns thead th { position: sticky; top: 0; z-index: 1; }
.filters { display: flex; flex-wrap: wrap; gap: 8px 16px; align-items: center; margin-bottom: 8px; }
.filters input { width: 22em; max-width: 100%; }
.months { margin-bottom: 8px; color: var(--muted); }
.months a { margin-right: 6px; }
tr[id] { scroll-margin-top: 36px; }
footer { color: var(--muted); max-width: 1200px; margin: 32px auto; padding: 0 24px; }
`;

interface Column {
  readonly title: string;
  readonly numeric?: boolean;
}

function tableHtml(columns: readonly Column[], rows: readonly string[], options: { sortable?: boolean; id?: string } = {}): string {
  const head = columns
    .map((column) => {
      const label = escapeHtml(column.title);
      return `<th${column.numeric === true ? ' class="n"' : ""} scope="col">${options.sortable === true ? `<button type="button">${label}</button>` : label}</th>`;
    })
    .join("");
  const attributes = `${options.id === undefined ? "" : ` id="${escapeHtml(options.id)}"`}${options.sortable === true ? ' class="sortable"' : ""}`;
  return `<table${attributes}><thead><tr>${head}</tr></thead><tbody>\n${rows.join("\n")}\n</tbody></table>`;
}

const cell = (text: string, sort?: string | number, className?: string): string =>
  `<td${className === undefined ? "" : ` class="${className}"`}${sort === undefined ? "" : ` data-sort="${escapeHtml(String(sort))}"`}>${escapeHtml(text)}</td>`;
const numberCell = (n: number): string => cell(thousands(n), n, "n");
const rateCell = (rate: number): string => cell(percent(rate), rate, "n");

const TALLY_COLUMNS: Column[] = [
  { title: "returns", numeric: true },
  { title: "failed", numeric: true },
  { title: "phantom", numeric: true },
  { title: "phantom rate", numeric: true },
];

function tallyTable(title: string, rows: readonly { label: string | null; returns: number; failed: number; phantom: number; phantomRate: number }[], none: string): string {
  return tableHtml(
    [{ title }, ...TALLY_COLUMNS],
    rows.map((row) => `<tr>${cell(row.label ?? none, undefined, "name")}${numberCell(row.returns)}${numberCell(row.failed)}${numberCell(row.phantom)}${rateCell(row.phantomRate)}</tr>`),
    { sortable: true },
  );
}

function link(href: string | null, text: string, title?: string): string {
  const titled = title === undefined ? "" : ` title="${escapeHtml(title)}"`;
  return href === null ? `<code${titled}>${escapeHtml(text)}</code>` : `<a href="${escapeHtml(href)}"${titled}><code>${escapeHtml(text)}</code></a>`;
}

/**
 * The HTML report: one self-contained page (Chart.js inlined, no request leaves it:
 * its Content-Security-Policy allows only its own two scripts, by hash), with the
 * headline figures, the phantom rate per month for each agent, failures by rule,
 * tables by agent, command, status and month, and every return in a sortable table
 * linking its commit and file on the forge when the remote is one. Every string from
 * the repository is escaped, and the page's script handles it as text only.
 */
export function renderHtml(document: AuditDocument, forge: Forge | null, generated: Date): string {
  const { summary, repo, range } = document;
  const name = path.basename(repo.path) || repo.path;
  const library = inlineScript(chartLibrary());
  const app = inlineScript(APP_SCRIPT);
  const csp = `default-src 'none'; script-src ${sha256(library)} ${sha256(app)}; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'`;
  const span = range.first === null || range.last === null ? "no returns" : `${range.first.slice(0, 10)} to ${range.last.slice(0, 10)}`;
  const commitLink = (oid: string) => link(forge?.commit(oid) ?? null, oid.slice(0, 12), oid);
  const pathLink = (oid: string, file: string) => link(forge?.file(oid, file) ?? null, file);

  // Date order (history order is not: a merged branch keeps its authors' dates); the first row of each month is where the month links lead.
  const byDate = [...document.returns].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const monthsListed: string[] = [];
  const returnRows = byDate.map((audited) => {
    const verdict = verdictOf(audited);
    const first = audited.failures[0];
    const more = audited.failures.length > 1 ? ` (+${String(audited.failures.length - 1)} more)` : "";
    const month = audited.date.slice(0, 7);
    const anchor = monthsListed.at(-1) === month ? "" : ` id="returns-${escapeHtml(month)}"`;
    if (anchor !== "") monthsListed.push(month);
    return `<tr${anchor} data-verdict="${verdict}">${cell(audited.date.slice(0, 16).replace("T", " "), audited.date, "date")}<td data-sort="${escapeHtml(audited.commit)}">${commitLink(audited.commit)}</td><td class="path" data-sort="${escapeHtml(audited.path)}">${pathLink(audited.commit, audited.path)}</td>${cell(audited.agent ?? "(no agent)")}${cell(audited.command ?? "(unknown)")}${cell(audited.status ?? "(no status)")}<td class="verdict ${verdict}" data-sort="${String(VERDICTS.indexOf(verdict))}">${verdict}</td>${numberCell(audited.failures.length)}${cell(first === undefined ? "" : `${first.message}${more}`, undefined, "msg")}</tr>`;
  });
  const verdictCounts = VERDICTS.map((verdict) => [verdict, byDate.filter((audited) => verdictOf(audited) === verdict).length] as const).filter(([, n]) => n > 0);
  const returnsNavigation = `<div class="filters"><label>Show <select id="verdict-filter"><option value="">every verdict (${thousands(byDate.length)})</option>${[...verdictCounts]
    .reverse()
    .map(([verdict, n]) => `<option value="${verdict}">${verdict} (${thousands(n)})</option>`)
    .join("")}</select></label> <label>Find <input type="search" id="text-filter" placeholder="agent, path, commit, status, message"></label> <output id="shown-count"></output></div>
<nav class="months" aria-label="Returns by month">Go to ${monthsListed.map((month) => `<a href="#returns-${escapeHtml(month)}">${escapeHtml(month)}</a>`).join(" ")}</nav>`;
  const worstRows = summary.worst.map(
    (row) =>
      `<tr>${cell(row.date.slice(0, 10), row.date, "date")}<td>${commitLink(row.commit)}</td><td class="path">${pathLink(row.commit, row.path)}</td>${cell(row.agent ?? "(no agent)")}${cell(row.status ?? "(no status)")}<td class="verdict ${row.phantom ? "phantom" : "failed"}">${row.phantom ? "phantom" : "failed"}</td>${cell(row.message ?? "", undefined, "msg")}</tr>`,
  );
  const ruleRows = summary.failuresByRule.map((row) => `<tr>${cell(row.rule, undefined, "name")}${numberCell(row.failures)}${numberCell(row.returns)}</tr>`);
  const repoLine = repo.web === null ? escapeHtml(repo.path) : `<a href="${escapeHtml(repo.web)}">${escapeHtml(repo.web)}</a> (${escapeHtml(repo.path)})`;
  const tip = repo.head === null ? `${repo.rev} (no commits)` : `${repo.rev} ${repo.head.slice(0, 12)}`;

  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="generator" content="returnlint audit">
<title>returnlint audit: ${escapeHtml(name)}</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<h1>returnlint audit: ${escapeHtml(name)}</h1>
<p class="meta">How often did agents claim work they did not do?</p>
<p class="meta">${repoLine} · ${escapeHtml(tip)}${repo.bare ? " · bare" : ""}</p>
${document.shallowCut === null ? "" : `<p class="meta"><strong>${escapeHtml(shallowSentence(document.shallowCut))}</strong></p>`}
<p class="meta">${thousands(summary.returns)} returns in ${thousands(summary.commits)} commits, ${escapeHtml(span)}${range.since === null && range.until === null ? "" : ` · range ${escapeHtml(range.since ?? "start")} to ${escapeHtml(range.until ?? "end")}`} · config: ${escapeHtml(configSentence(document))}</p>
${summary.early === 0 ? "" : `<p class="meta">Early metadata: ${escapeHtml(earlyVersions(summary.early))}, not judged (written while the agent worked).</p>`}
<div class="cards">
<div class="card"><b>${thousands(summary.returns)}</b><span>returns audited</span></div>
<div class="card${summary.phantom > 0 ? " bad" : ""}"><b>${percent(summary.phantomRate)}</b><span>phantom work (${thousands(summary.phantom)})</span></div>
<div class="card${summary.failed > 0 ? " bad" : ""}"><b>${percent(summary.failureRate)}</b><span>failed validation (${thousands(summary.failed)})</span></div>
<div class="card"><b>${thousands(summary.passed)}</b><span>passed</span></div>
</div>
</header>
<main>
<div class="charts">
<figure><figcaption>Phantom work per month, by agent</figcaption>${summary.returns === 0 ? '<p class="empty">No returns in this range.</p>' : '<div class="chart"><canvas id="phantom-chart" role="img" aria-label="Phantom work rate per month, one line per agent"></canvas></div>'}</figure>
<figure><figcaption>Failures by rule</figcaption>${summary.failuresByRule.length === 0 ? '<p class="empty">No rule failed.</p>' : '<div class="chart"><canvas id="rules-chart" role="img" aria-label="Failures reported by each rule"></canvas></div>'}</figure>
</div>
<h2>Worst returns</h2>
${worstRows.length === 0 ? '<p class="empty">Every return passed.</p>' : tableHtml([{ title: "date" }, { title: "commit" }, { title: "path" }, { title: "agent" }, { title: "status" }, { title: "verdict" }, { title: "first failure" }], worstRows)}
<div class="tables">
<section><h2>By agent</h2>${tallyTable("agent", summary.byAgent.map((row) => ({ ...row, label: row.agent })), "(no agent)")}</section>
<section><h2>By command</h2>${tallyTable("command", summary.byCommand.map((row) => ({ ...row, label: row.command })), "(unknown)")}</section>
<section><h2>By status</h2>${tallyTable("status", summary.byStatus.map((row) => ({ ...row, label: row.status })), "(no status)")}</section>
<section><h2>By month</h2>${tallyTable("month", summary.byMonth.map((row) => ({ ...row, label: row.month })), "")}${summary.emptyMonthsOmitted ? `<p class="meta">${escapeHtml(MONTHS_OMITTED)}</p>` : ""}</section>
<section><h2>Failures by rule</h2>${ruleRows.length === 0 ? '<p class="empty">No rule failed.</p>' : tableHtml([{ title: "rule" }, { title: "failures", numeric: true }, { title: "returns", numeric: true }], ruleRows, { sortable: true })}</section>
</div>
<h2>Every return (${thousands(document.returns.length)}), in date order</h2>
${document.returns.length === 0 ? "" : returnsNavigation}
${tableHtml(
    [
      { title: "date (UTC)" },
      { title: "commit" },
      { title: "path" },
      { title: "agent" },
      { title: "command" },
      { title: "status" },
      { title: "verdict" },
      { title: "failures", numeric: true },
      { title: "first failure" },
    ],
    returnRows,
    { sortable: true, id: "returns" },
  )}
</main>
<footer>Generated by returnlint audit on ${escapeHtml(generated.toISOString())}. Phantom work: a success status whose artifacts do not all exist as non-empty files in the commit that wrote the return (or that names none). Charts: Chart.js (MIT licence), inlined.</footer>
<script type="application/json" id="audit-data">${scriptJson(chartData(document))}</script>
<script>${library}</script>
<script>${app}</script>
</body>
</html>
`;
}
