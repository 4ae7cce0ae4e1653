// `pnpm bench [-- --quick]`: issue 8's benchmark suite. Times whole processes from
// Node (min / median / max of interleaved runs), scan's wall time and peak memory,
// and the library API in process; prints every case next to its reference and,
// unless --quick, writes the run to BENCHMARKS.md. Not part of `pnpm test`.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { auditRepository, checkProject, scanProject } from "./fixtures.mjs";
import { HAVE_TIME, childEnv, stats, timeInterleaved, timeWithMemory } from "./measure.mjs";

const REPO = fileURLToPath(new URL("..", import.meta.url));
const WORK = path.join(REPO, "bench", ".work");
const BIN = path.join(REPO, "apps", "cli", "dist", "returnlint.cjs");
const ESM_BIN = path.join(REPO, "apps", "cli", "dist", "returnlint.js");
const JQ = existsSync("/usr/bin/jq") ? "/usr/bin/jq" : "jq";
const NODE = process.execPath;

const argv = process.argv.slice(2).filter((arg) => arg !== "--");
const unknown = argv.filter((arg) => arg !== "--quick");
if (unknown.length > 0) {
  console.error(`bench: unknown argument ${unknown.join(" ")}; the only option is --quick (a fast smoke run that writes nothing).`);
  process.exit(2);
}
const quick = argv.includes("--quick");
if (!existsSync(BIN)) {
  console.error("bench: apps/cli/dist/returnlint.cjs is missing; run `pnpm build` first (or `pnpm bench`, which builds).");
  process.exit(2);
}

const plan = quick
  ? { startupRuns: 10, bashRuns: 3, scanSizes: [1000, 10000], scanRuns: { 1000: 2, 10000: 1 }, apiSeconds: 0.3, apiRounds: 2, auditRuns: 1 }
  : { startupRuns: 40, bashRuns: 10, scanSizes: [1000, 10000, 100000], scanRuns: { 1000: 5, 10000: 3, 100000: 3 }, apiSeconds: 1, apiRounds: 5, auditRuns: 5 };

const log = (line) => process.stderr.write(`bench: ${line}\n`);
const ms = (value) => `${value.toFixed(1)} ms`;
const ratio = (value) => `${value.toFixed(2)}×`;

const loadAtStart = os.loadavg()[0];
mkdirSync(WORK, { recursive: true });
const check = checkProject(WORK);
const sections = [];
const verdicts = [];
const target = (name, met, detail) => verdicts.push({ name, met, detail });

// Cases 1 and 2: one cold process per return, each next to node -e 0 and the seeds' bash + jq procedure.
const seedScript = path.join(REPO, "bench", "seed-procedure.sh");
const seedEnvNote = `jq: ${JQ}`;
const startupCases = [
  { title: "Case 1: check a valid v7 return with two artifacts", file: "return.json", extra: [], status: 0, bashStatus: 0 },
  { title: "Case 2a: check a phantom-work return (completed, no artifacts)", file: "phantom.json", extra: [], status: 1, bashStatus: 1 },
  { title: "Case 2b: check a valid return, --format json", file: "return.json", extra: ["--format", "json"], status: 0, bashStatus: 0 },
  { title: "Case 2c: check a valid return with a config file (--config project.config.json)", file: "return.json", extra: ["--config", "project.config.json"], status: 0, bashStatus: 0 },
];
const startup = {};
for (const spec of startupCases) {
  log(`${spec.title} …`);
  const checkArgs = ["check", spec.file, "--command", "research", "--session-id", check.session, "--agent", check.agent, ...spec.extra];
  const rows = timeInterleaved(
    [
      { label: "node -e 0 (the floor)", argv: [NODE, "-e", "0"], shell: "node -e 0", expectStatus: 0 },
      { label: "returnlint check", argv: [NODE, BIN, ...checkArgs], shell: `node apps/cli/dist/returnlint.cjs ${checkArgs.join(" ")}`, expectStatus: spec.status },
      { label: "returnlint check (ESM entry)", argv: [NODE, ESM_BIN, ...checkArgs], shell: `node apps/cli/dist/returnlint.js ${checkArgs.join(" ")}`, expectStatus: spec.status },
      {
        label: "seeds' bash + jq procedure",
        argv: ["bash", seedScript, spec.file, check.session, check.agent],
        shell: `bash bench/seed-procedure.sh ${spec.file} ${check.session} ${check.agent}`,
        expectStatus: spec.bashStatus,
        runs: plan.bashRuns,
        env: { JQ },
      },
    ],
    { cwd: check.root, runs: plan.startupRuns },
  );
  const [floor, cli, , bash] = rows;
  startup[spec.title] = { floor, cli, bash };
  sections.push({
    title: spec.title,
    note: `cwd: bench/.work/check; ${String(plan.startupRuns)} runs (bash: ${String(plan.bashRuns)}), interleaved; ${seedEnvNote}`,
    header: ["command", "min", "median", "max", "median ÷ node -e 0", "bash ÷ this"],
    rows: rows.map((row) => [row.label, ms(row.min), ms(row.median), ms(row.max), ratio(row.median / floor.median), ratio(bash.median / row.median)]),
    commands: rows.map((row) => row.shell),
  });
  const overFloor = cli.median / floor.median;
  const underBash = bash.median / cli.median;
  // Three decimals: a verdict must not read "1.25×, MISSED".
  target(`${spec.title}: ≤ 1.25 × node -e 0`, overFloor <= 1.25, `${overFloor.toFixed(3)}× (${ms(cli.median)} vs ${ms(floor.median)})`);
  target(`${spec.title}: ≥ 10 × faster than bash + jq`, underBash >= 10, `${underBash.toFixed(3)}× (${ms(bash.median)} vs ${ms(cli.median)})`);
}

// Case 3: scan over generated projects; wall time and peak memory.
const scanRows = [];
for (const size of plan.scanSizes) {
  const root = scanProject(WORK, size, log);
  log(`Case 3: scan of ${String(size)} returns …`);
  const command = { label: `scan ${String(size)}`, argv: [NODE, BIN, "scan", "--quiet"], expectStatus: 0 };
  const runs = [];
  // One untimed-for-the-median first run: it reads the tree into the kernel's caches, which this
  // machine may have reclaimed since the tree was written. Its time is shown on its own.
  let first;
  for (let run = 0; run <= plan.scanRuns[size]; run += 1) {
    const measured = timeWithMemory(command, root);
    if (!measured.stdout.includes(`All ${String(size)} returns below specs passed`)) throw new Error(`scan ${String(size)}: unexpected output ${measured.stdout.slice(0, 300)}`);
    if (run === 0) first = measured;
    else runs.push(measured);
  }
  const wall = stats(runs.map((run) => run.ms));
  const rss = stats([first, ...runs].map((run) => run.rssMb));
  scanRows.push({ size, wall, rss, first: first.ms });
  if (size === 10000) target("Case 3: scan of 10,000 returns ≤ 1.0 s", wall.median <= 1000, ms(wall.median));
  if (size === 100000) {
    target("Case 3: scan of 100,000 returns ≤ 10 s", wall.median <= 10000, ms(wall.median));
    target("Case 3: scan of 100,000 returns ≤ 150 MB peak RSS", rss.max <= 150, `${rss.max.toFixed(1)} MB`);
  }
}
const perThousand = (row) => row.wall.median / (row.size / 1000);
sections.push({
  title: "Case 3: returnlint scan (valid metadata files, two artifacts each)",
  note: `peak RSS from ${HAVE_TIME ? "/usr/bin/time -v" : "process.resourceUsage() in the scanning process"}, over every run; timed runs per size after the first: ${plan.scanSizes.map((size) => `${String(size)}: ${String(plan.scanRuns[size])}`).join(", ")}`,
  header: ["returns", "first run (cold caches)", "min", "median", "max", "median per 1,000", "peak RSS (max)"],
  rows: scanRows.map((row) => [row.size.toLocaleString("en-US"), ms(row.first), ms(row.wall.min), ms(row.wall.median), ms(row.wall.max), ms(perThousand(row)), `${row.rss.max.toFixed(1)} MB`]),
  commands: ["cd bench/.work/scan-N && node ../../../apps/cli/dist/returnlint.cjs scan --quiet"],
});

// Case 4: the library API in process.
const api = [
  { label: "floor: JSON.parse + realpath + stat of both artifacts", config: "--floor-files" },
  { label: "validate() with two artifact checks", config: "-", goal: 300000, floor: "floor: JSON.parse + realpath + stat of both artifacts" },
  { label: "floor: JSON.parse alone", config: "--floor-parse" },
  { label: "validate() without artifact checks (artifacts: off)", config: path.join(check.root, "no-artifacts.config.json"), goal: 600000, floor: "floor: JSON.parse alone" },
];
const apiRows = [];
for (const spec of api) {
  log(`Case 4: ${spec.label} …`);
  const run = spawnSync(NODE, [path.join(REPO, "bench", "api.mjs"), check.root, spec.config, String(plan.apiSeconds), String(plan.apiRounds)], {
    env: childEnv(),
    encoding: "utf8",
  });
  if (run.status !== 0) throw new Error(`api benchmark failed: ${run.stderr}`);
  const result = JSON.parse(run.stdout);
  const rate = stats(result.perSecond);
  apiRows.push({ ...spec, rate, artifactChecks: result.artifactChecks });
  if (spec.goal === undefined) continue;
  const floor = apiRows.find((row) => row.label === spec.floor);
  const share = floor === undefined ? "" : ` (floor ${Math.round(floor.rate.median).toLocaleString("en-US")}/s)`;
  target(`Case 4: ${spec.label} ≥ ${spec.goal.toLocaleString("en-US")}/s`, rate.median >= spec.goal, `${Math.round(rate.median).toLocaleString("en-US")}/s${share}`);
}
const perSecond = (value) => `${Math.round(value).toLocaleString("en-US")}/s`;
sections.push({
  title: "Case 4: library API, validate() in process (256 returns in flight, config loaded once)",
  note: `${String(plan.apiRounds)} rounds of ${String(plan.apiSeconds)} s after one warm-up round`,
  header: ["case", "min", "median", "max", "artifact checks per return", "floor ÷ this"],
  rows: apiRows.map((row) => {
    const floor = apiRows.find((other) => other.label === row.floor);
    return [row.label, perSecond(row.rate.min), perSecond(row.rate.median), perSecond(row.rate.max), String(row.artifactChecks), floor === undefined ? "" : ratio(floor.rate.median / row.rate.median)];
  }),
  commands: [
    "node bench/api.mjs bench/.work/check --floor-files 1 5",
    "node bench/api.mjs bench/.work/check - 1 5",
    "node bench/api.mjs bench/.work/check --floor-parse 1 5",
    "node bench/api.mjs bench/.work/check bench/.work/check/no-artifacts.config.json 1 5",
  ],
});

// Case 5: returnlint audit over a generated history of 2,000 metadata-file versions (issue 19).
{
  const versions = 2000;
  const { root, phantom } = auditRepository(WORK, versions, log);
  log(`Case 5: audit of a history of ${String(versions)} metadata-file versions …`);
  const rows = [];
  for (const format of ["json", "html"]) {
    const command = { label: `audit --format ${format}`, argv: [NODE, BIN, "audit", root, "--format", format], expectStatus: 0 };
    const runs = [];
    for (let run = 0; run <= plan.auditRuns; run += 1) {
      const measured = timeWithMemory(command, WORK);
      if (format === "json") {
        const summary = JSON.parse(measured.stdout).summary;
        if (summary.returns !== versions || summary.phantom !== phantom) throw new Error(`audit: expected ${String(versions)} returns and ${String(phantom)} phantom, got ${String(summary.returns)} and ${String(summary.phantom)}`);
      } else if (!measured.stdout.includes("Chart.js")) throw new Error("audit --format html: no chart library in the page");
      // The first run reads the repository into the kernel's caches; it is shown on its own.
      runs.push(measured);
    }
    const [first, ...timed] = runs;
    const wall = stats(timed.map((run) => run.ms));
    const rss = stats(runs.map((run) => run.rssMb));
    rows.push([command.label, ms(first.ms), ms(wall.min), ms(wall.median), ms(wall.max), ms(wall.median / (versions / 1000)), `${rss.max.toFixed(1)} MB`]);
  }
  sections.push({
    title: `Case 5: returnlint audit of a history of ${versions.toLocaleString("en-US")} metadata-file versions`,
    note: `a bare repository of ${versions.toLocaleString("en-US")} commits (bench/fixtures.mjs auditRepository: ${String(versions / 2)} tasks, early metadata then the final return, ${String(phantom)} of them phantom work); peak RSS from ${HAVE_TIME ? "/usr/bin/time -v" : "process.resourceUsage()"} (the Node process${HAVE_TIME ? " and its git children, the largest of them" : ""}); ${String(plan.auditRuns)} timed runs after the first`,
    header: ["command", "first run", "min", "median", "max", "median per 1,000 versions", "peak RSS (max)"],
    rows,
    commands: [`node apps/cli/dist/returnlint.cjs audit bench/.work/audit-${String(versions)}.git --format json`, `node apps/cli/dist/returnlint.cjs audit bench/.work/audit-${String(versions)}.git --format html`],
  });
}

// Case 6: the MCP server (issue 18): from spawning it to its first tools/list answer, next to a
// cold `returnlint check` of the same return in the same rounds; then validate_return round trips.
{
  log("Case 6: the MCP server …");
  const rounds = quick ? 3 : 15;
  const ran = spawnSync(NODE, [path.join(REPO, "bench", "mcp.mjs"), check.root, String(rounds), String(plan.apiSeconds)], { cwd: REPO, env: childEnv(), encoding: "utf8" });
  if (ran.status !== 0) throw new Error(`bench/mcp.mjs exited ${String(ran.status)}: ${ran.stderr}`);
  const { startMs, checkMs, perSecond: trips } = JSON.parse(ran.stdout);
  const start = stats(startMs);
  const cold = stats(checkMs);
  const rate = stats(trips);
  sections.push({
    title: "Case 6: the MCP server, @returnlint/mcp over stdio",
    note: `bench/mcp.mjs with the SDK's Client; ${String(rounds)} rounds after two warm-up rounds, each a server start and a cold check, interleaved; then 3 rounds of ${String(plan.apiSeconds)} s of validate_return calls on one connection (bench/.work/check/return.json, two artifacts)`,
    header: ["what", "min", "median", "max", "÷ returnlint check"],
    rows: [
      ["server start → first tools/list answer", ms(start.min), ms(start.median), ms(start.max), ratio(start.median / cold.median)],
      ["returnlint check, cold (same rounds)", ms(cold.min), ms(cold.median), ms(cold.max), ratio(1)],
      ["validate_return round trips after start", perSecond(rate.min), perSecond(rate.median), perSecond(rate.max), ""],
    ],
    commands: [`node bench/mcp.mjs bench/.work/check ${String(rounds)} ${String(plan.apiSeconds)}`],
  });
}

const machine = {
  cpu: os.cpus()[0]?.model ?? "unknown",
  nproc: os.availableParallelism(),
  memory: `${(os.totalmem() / 1024 ** 3).toFixed(1)} GiB`,
  node: process.version,
  os: `${os.type()} ${os.release()} ${os.arch()}`,
  jq: spawnSync(JQ, ["--version"], { encoding: "utf8" }).stdout.trim(),
  bash: spawnSync("bash", ["-c", "echo $BASH_VERSION"], { encoding: "utf8" }).stdout.trim(),
  // How busy the machine was: the other processes' share of 2 CPUs shows in every figure.
  load: `${loadAtStart.toFixed(2)} at the start, ${os.loadavg()[0].toFixed(2)} at the end (1-minute load average)`,
};

const text = render();
process.stdout.write(text.terminal);
if (quick) {
  log("--quick: BENCHMARKS.md left as it is.");
} else {
  writeResults(path.join(REPO, "BENCHMARKS.md"), text.markdown);
  log("wrote the results to BENCHMARKS.md");
}

/** Replaces what lies between the two markers; the hand-written part of the file stays. */
function writeResults(file, markdown) {
  const BEGIN = "<!-- bench/run.mjs writes from here -->";
  const END = "<!-- bench/run.mjs writes up to here -->";
  const previous = existsSync(file) ? readFileSync(file, "utf8") : "# Benchmarks\n";
  const start = previous.indexOf(BEGIN);
  const end = previous.indexOf(END);
  const [before, after] = start !== -1 && end > start ? [previous.slice(0, start), previous.slice(end + END.length)] : [`${previous.trimEnd()}\n\n`, "\n"];
  writeFileSync(file, `${before}${BEGIN}\n${markdown}${END}${after}`);
}

function render() {
  const table = (header, rows) => {
    const widths = header.map((cell, index) => Math.max(cell.length, ...rows.map((row) => row[index].length)));
    const line = (cells) => cells.map((cell, index) => (index === 0 ? cell.padEnd(widths[index]) : cell.padStart(widths[index]))).join("  ");
    return [line(header), widths.map((width) => "-".repeat(width)).join("  "), ...rows.map(line)].join("\n");
  };
  const markdownTable = (header, rows) =>
    [`| ${header.join(" | ")} |`, `| ${header.map((_, index) => (index === 0 ? "---" : "---:")).join(" | ")} |`, ...rows.map((row) => `| ${row.join(" | ")} |`)].join("\n");
  const verdictWord = (met) => (met ? "met" : "MISSED");

  const terminal = [
    `returnlint benchmarks${quick ? " (--quick)" : ""}: ${machine.cpu}, ${String(machine.nproc)} CPUs, Node ${machine.node}, load ${machine.load}; NODE_EXTRA_CA_CERTS removed from every child's environment`,
    "",
    ...sections.flatMap((section) => [section.title, `(${section.note})`, table(section.header, section.rows), ""]),
    "Targets (issue 8)",
    table(["target", "result", "measured"], verdicts.map((verdict) => [verdict.name, verdictWord(verdict.met), verdict.detail])),
    "",
  ].join("\n");

  const markdown = [
    "## Latest results",
    "",
    `Latest run of \`pnpm bench\`, ${new Date().toISOString().slice(0, 10)}. Medians and ratios come from one run (the machine is shared and noisy).`,
    "",
    "### Machine",
    "",
    markdownTable(
      ["", ""],
      [
        ["CPU", machine.cpu],
        ["CPUs (nproc)", String(machine.nproc)],
        ["memory", machine.memory],
        ["Node.js", machine.node],
        ["OS", machine.os],
        ["jq", machine.jq],
        ["bash", machine.bash],
        ["load", machine.load],
      ],
    ),
    "",
    "Every timed process runs with `NODE_EXTRA_CA_CERTS` removed from its environment (some shells here set it, and it",
    "adds tens of milliseconds to each Node start) and `NO_COLOR=1`; standard output is a pipe, as in an orchestrator.",
    "",
    "### Targets",
    "",
    markdownTable(["target", "result", "measured"], verdicts.map((verdict) => [verdict.name, verdictWord(verdict.met), verdict.detail])),
    "",
    ...sections.flatMap((section) => [
      `### ${section.title}`,
      "",
      `${section.note}.`,
      "",
      markdownTable(section.header, section.rows),
      "",
      "```sh",
      ...section.commands,
      "```",
      "",
    ]),
  ].join("\n");
  return { terminal, markdown };
}
