// The returnlint GitHub Action (action.yml): a JavaScript action on the runner's Node that runs the
// returnlint bundle built beside it (apps/cli/dist/returnlint.cjs) once, with three reports of that one
// run: SARIF to the sarif-file input, JSON to the runner's temporary folder (for the job summary and the
// outputs), and the github format on standard output, which the runner turns into annotations.
// Node built-ins only: the runner runs this file as it is, with nothing installed.

import { spawnSync } from "node:child_process";
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const CLI = fileURLToPath(new URL("../apps/cli/dist/returnlint.cjs", import.meta.url));
const COMMANDS = ["check", "scan", "audit"];
const FAIL_ON = ["failure", "phantom", "none"];
/** The worst returns the job summary lists. */
const WORST = 10;

/** An input as the runner passes it: `INPUT_` and its name in capitals, spaces as underscores; every declared input is set, to its default when the workflow gives none. */
function input(name) {
  return (process.env[`INPUT_${name.replace(/ /g, "_").toUpperCase()}`] ?? "").trim();
}

/** A workflow command's message: %, CR and LF escaped so that it stays one command. */
function escapeData(text) {
  return String(text).replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

function fail(message) {
  process.stdout.write(`::error title=returnlint::${escapeData(message)}\n`);
}

/** The arguments of the one returnlint run, its reports last: the files first, as -o pairs with -f by position. */
function argumentsOf(command, files) {
  const task = input("task");
  const where = input("path");
  const config = input("config");
  const maxWarnings = input("max-warnings");
  const since = input("since");
  const args = [command];
  if (command === "check") {
    if (task === "") throw new Error('command "check" needs the task input: the tasks whose returns to check (1-30, or 7, 9-11).');
    args.push("--task", task, "--root", input("root") || ".");
  } else if (command === "scan") {
    if (where !== "") args.push(where);
    args.push("--root", input("root") || ".");
  } else if (where !== "") {
    args.push(where);
  }
  if (config !== "") args.push("--config", config);
  if (maxWarnings !== "" && command !== "audit") args.push("--max-warnings", maxWarnings);
  if (since !== "" && command === "audit") args.push("--since", since);
  args.push("-f", "sarif", "-o", files.sarif, "-f", "json", "-o", files.json);
  if (input("annotations") !== "false") args.push("-f", "github");
  return args;
}

/** What the run found, whatever the command: returns, failed, phantom, and the tables of the job summary. */
function findingsOf(command, report) {
  if (command === "audit") {
    const { summary } = report;
    return {
      returns: summary.returns,
      failed: summary.failed,
      phantom: summary.phantom,
      tables: [
        table(["agent", "returns", "failed", "phantom", "phantom rate"], summary.byAgent.map((row) => [row.agent ?? "(none)", row.returns, row.failed, row.phantom, percent(row.phantomRate)])),
        table(["command", "returns", "failed", "phantom"], summary.byCommand.map((row) => [row.command ?? "(none)", row.returns, row.failed, row.phantom])),
        table(["rule", "failures", "returns failed"], summary.failuresByRule.map((row) => [row.rule, row.failures, row.returns])),
      ],
      worst: table(
        ["return", "commit", "agent", "status", "phantom", "first failure"],
        summary.worst.map((row) => [row.path, row.commit.slice(0, 12), row.agent ?? "", row.status ?? "", row.phantom ? "yes" : "", row.message ?? ""]),
      ),
    };
  }
  // check prints one report object for one task, an array for several; scan always an array.
  const reports = Array.isArray(report) ? report : [report];
  const byStatus = new Map();
  const byRule = new Map();
  for (const one of reports) {
    const row = byStatus.get(one.status ?? "(no status)") ?? { returns: 0, failed: 0, phantom: 0 };
    row.returns += 1;
    if (!one.ok) row.failed += 1;
    if (one.phantom) row.phantom += 1;
    byStatus.set(one.status ?? "(no status)", row);
    for (const result of one.results) if (result.level === "fail") byRule.set(result.ruleId, (byRule.get(result.ruleId) ?? 0) + 1);
  }
  const worst = reports
    .filter((one) => !one.ok || one.phantom)
    .sort((a, b) => Number(b.phantom) - Number(a.phantom) || b.errorCount - a.errorCount || (a.source < b.source ? -1 : 1))
    .slice(0, WORST);
  return {
    returns: reports.length,
    failed: reports.filter((one) => !one.ok).length,
    phantom: reports.filter((one) => one.phantom).length,
    tables: [
      table(["status", "returns", "failed", "phantom"], [...byStatus].sort(([, a], [, b]) => b.returns - a.returns).map(([status, row]) => [status, row.returns, row.failed, row.phantom])),
      table(["rule", "failures"], [...byRule].sort(([, a], [, b]) => b - a).map(([rule, failures]) => [rule, failures])),
    ],
    worst: table(
      ["return", "agent", "status", "phantom", "first failure"],
      worst.map((one) => [one.source, one.agent, one.status ?? "", one.phantom ? "yes" : "", one.results.find((result) => result.level === "fail")?.message ?? ""]),
    ),
  };
}

const percent = (rate) => `${(rate * 100).toFixed(1)}%`;

/** Text from a return (an agent's name, a path, a message) as a Markdown table cell: it formats nothing and opens no HTML. */
function cell(value) {
  return String(value)
    .replace(/\s+/g, " ")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/[\\`*_[\]|#~]/g, (char) => `\\${char}`);
}

function table(head, rows) {
  if (rows.length === 0) return "";
  const line = (cells) => `| ${cells.map(cell).join(" | ")} |`;
  return [line(head), `|${head.map(() => " --- ").join("|")}|`, ...rows.map(line)].join("\n");
}

/** What the SARIF file holds, for the summary: its results and those GitHub's limit left out. */
function sarifNote(file) {
  const [run] = JSON.parse(readFileSync(file, "utf8")).runs;
  const omitted = run.properties.resultsOmitted ?? 0;
  const listed = `${String(run.results.length)} result${run.results.length === 1 ? "" : "s"} in one run, category \`${run.automationDetails.id}\``;
  return omitted === 0 ? listed : `${listed}; ${String(omitted)} more not listed: GitHub code scanning takes at most 25,000 results per run`;
}

function summaryOf(command, found, verdict, sarif) {
  const title = `### returnlint ${command}: ${verdict ? "passed" : "failed"}`;
  const counts = `${String(found.returns)} ${command === "audit" ? "committed versions" : "returns"}: ${String(found.failed)} failed validation, ${String(found.phantom)} phantom work (a success status while the work it claims is not there).`;
  const worst = found.worst === "" ? [] : ["#### The worst returns", found.worst];
  return [title, counts, ...found.tables.filter((text) => text !== ""), ...worst, `SARIF: \`${sarif.file}\` (${sarif.note}).`, ""].join("\n\n");
}

function main() {
  const workspace = process.env.GITHUB_WORKSPACE ?? process.cwd();
  const command = input("command") || "scan";
  const failOn = input("fail-on") || "failure";
  if (!COMMANDS.includes(command)) throw new Error(`the command input must be ${COMMANDS.join(", ")}; received "${command}".`);
  if (!FAIL_ON.includes(failOn)) throw new Error(`the fail-on input must be ${FAIL_ON.join(", ")}; received "${failOn}".`);
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: use a release of the action (its tag carries the build), or run "pnpm build" in a checkout of returnlint before the action.`);

  const temporary = mkdtempSync(path.join(process.env.RUNNER_TEMP ?? tmpdir(), "returnlint-"));
  try {
    const files = { sarif: path.resolve(workspace, input("sarif-file") || "returnlint.sarif"), json: path.join(temporary, "report.json") };
    const run = spawnSync(process.execPath, [CLI, ...argumentsOf(command, files)], { cwd: workspace, stdio: ["ignore", "pipe", "inherit"], encoding: "utf8", maxBuffer: 1 << 30 });
    // Annotations: the github format, as the runner reads workflow commands from standard output.
    if (run.stdout) process.stdout.write(run.stdout);
    if (run.status !== 0 && run.status !== 1) {
      writeOutputs({ ok: false, failed: "", phantom: "", "sarif-file": "" });
      fail(`returnlint ${command} could not run (exit ${String(run.status ?? run.signal)}): see the lines above.`);
      return 1;
    }
    const found = findingsOf(command, JSON.parse(readFileSync(files.json, "utf8")));
    const ok = found.failed === 0 && run.status === 0;
    writeOutputs({ ok, failed: found.failed, phantom: found.phantom, "sarif-file": files.sarif });
    if (process.env.GITHUB_STEP_SUMMARY) {
      appendFileSync(process.env.GITHUB_STEP_SUMMARY, summaryOf(command, found, ok, { file: shown(workspace, files.sarif), note: sarifNote(files.sarif) }));
    }
    const failing = failOn === "failure" ? !ok : failOn === "phantom" ? found.phantom > 0 : false;
    if (!failing) return 0;
    fail(failOn === "phantom" ? `${String(found.phantom)} of ${String(found.returns)} returns claim work that is not there (fail-on: phantom).` : `${String(found.failed)} of ${String(found.returns)} returns failed validation (fail-on: failure).`);
    return 1;
  } finally {
    rmSync(temporary, { recursive: true, force: true });
  }
}

/** A file as the summary names it: from the workspace when it is inside it. */
function shown(workspace, file) {
  const relative = path.relative(workspace, file);
  return relative === "" || relative.startsWith("..") || path.isAbsolute(relative) ? file : relative;
}

/** The step's outputs, in the file the runner names (`name=value` lines). */
function writeOutputs(outputs) {
  if (!process.env.GITHUB_OUTPUT) return;
  appendFileSync(process.env.GITHUB_OUTPUT, Object.entries(outputs).map(([name, value]) => `${name}=${String(value)}\n`).join(""));
}

try {
  process.exitCode = main();
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
}
