// `pnpm bench:races [-- --iterations N] [-- --only NAME]`: issue 15's races, each run N times
// (default 1,000) against the built CLI and core, outside the unit run. For every race it
// counts leaks (something outside the root read, written or deleted, or a file deleted that
// was not the one validated) and false passes (a verdict of 0 that is not true), and prints a
// table. Exit code 1 when any count is not 0. Not part of `pnpm test`.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { setTimeout as delay } from "node:timers/promises";
import { hostname, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const REPO = fileURLToPath(new URL("..", import.meta.url));
const BIN = path.join(REPO, "apps", "cli", "dist", "returnlint.cjs");
const CORE = path.join(REPO, "packages", "core", "dist", "index.js");

const argv = process.argv.slice(2).filter((arg) => arg !== "--");
const option = (name) => {
  const index = argv.indexOf(`--${name}`);
  return index === -1 ? undefined : argv[index + 1];
};
const iterations = Number(option("iterations") ?? 1000);
const only = option("only");
if (!Number.isInteger(iterations) || iterations < 1) {
  console.error("bench:races: --iterations must be a positive whole number.");
  process.exit(2);
}
for (const file of [BIN, CORE]) {
  if (!existsSync(file)) {
    console.error(`bench:races: ${path.relative(REPO, file)} is missing; run \`pnpm build\` first (or \`pnpm bench:races\`, which builds).`);
    process.exit(2);
  }
}
const { createFileView } = await import(CORE);

const log = (line) => process.stderr.write(`bench:races: ${line}\n`);
const work = mkdtempSync(path.join(tmpdir(), "returnlint-races-"));
const metadata = (session = "sess_1") => ({ session_id: session, agent_type: "researcher", delegation_depth: 1, delegation_path: ["orchestrator", "researcher"] });
const SECRET = `# SECRET-HEADING outside the project\n${"x".repeat(300)}`;
const INSIDE = `# Inside heading\n${"y".repeat(300)}`;

/** Runs the CLI; resolves with its exit code and output. */
function cli(args, { cwd, input = "" }) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env: { ...process.env, NO_COLOR: "1" } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.stdin.on("error", () => {});
    child.stdin.end(input);
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

/** Starts bench/swapper.mjs on `dir`; returns a function that stops it. */
function swapper(dir, outside) {
  const child = spawn(process.execPath, [path.join(REPO, "bench", "swapper.mjs"), dir, outside], { stdio: "ignore" });
  return () =>
    new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once("close", () => resolve());
      child.kill("SIGKILL");
    });
}

function swappable(name, inside) {
  const base = path.join(work, name);
  const root = path.join(base, "root");
  const outside = path.join(base, "outside");
  mkdirSync(path.join(root, "d"), { recursive: true });
  mkdirSync(outside, { recursive: true });
  writeFileSync(path.join(outside, "report.md"), SECRET);
  if (inside) writeFileSync(path.join(root, "d", "report.md"), INSIDE);
  return { root, outside };
}

/** In-process races are cheap and their window is microseconds: each iteration tries this many times. */
const ATTEMPTS = 20;
const settle = (ms) => delay(ms);

/** Calls `fn(index)` for every index below `count`, `width` at a time. */
async function pool(count, width, fn) {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < count) await fn(next++);
    }),
  );
}

/** `root` afresh, with task 10's metadata file, which passes (its report exists). */
function freshTask(root) {
  rmSync(root, { recursive: true, force: true });
  mkdirSync(path.join(root, "specs", "10_task", "reports"), { recursive: true });
  writeFileSync(path.join(root, "specs", "10_task", "reports", "r.md"), "# Report\n");
  const value = { status: "researched", artifacts: [{ type: "report", path: "specs/10_task/reports/r.md", summary: "r" }], metadata: metadata() };
  writeFileSync(path.join(root, "specs", "10_task", ".return-meta.json"), JSON.stringify(value));
}

/** A race against core's file view in this process: `attempt` on a fresh view, ATTEMPTS times per iteration. */
async function inProcess(name, inside, attempt) {
  const { root, outside } = swappable(name, inside);
  const stop = swapper(path.join(root, "d"), outside);
  let leaks = 0;
  let falsePasses = 0;
  await settle(100);
  for (let index = 0; index < iterations; index += 1) {
    for (let tries = 0; tries < ATTEMPTS; tries += 1) {
      const { leak = false, falsePass = false } = attempt(createFileView(root));
      if (leak) leaks += 1;
      if (falsePass) falsePasses += 1;
    }
    // Let the swapper run between iterations, so that they meet it in every state.
    if (index % 50 === 0) await settle(1);
  }
  await stop();
  return { leaks, falsePasses, attempts: iterations * ATTEMPTS };
}

const races = {
  /** Reproduction 9: a folder swapped for a symlink while core's file view checks a path through it. */
  "dir-swap (check)": () => inProcess("dir-swap", false, (view) => ({ falsePass: view.check("d/report.md").ok })),

  /** Reproduction 11: check then read through core's file view while the folder is swapped. */
  "read-swap (check + read)": () =>
    inProcess("read-swap", true, (view) => {
      view.check("d/report.md");
      return { leak: (view.read("d/report.md", 4096) ?? "").includes("SECRET-HEADING") };
    }),

  /** Reproduction 11 end to end: artifact-content through the CLI while the folder is swapped. */
  async "artifact-content (CLI)"() {
    const { root, outside } = swappable("content", true);
    writeFileSync(path.join(root, "r.json"), JSON.stringify({ status: "completed", summary: "Done.", artifacts: [{ type: "report", path: "d/report.md", summary: "r" }], metadata: metadata() }));
    writeFileSync(path.join(root, "returnlint.config.json"), JSON.stringify({ rules: { "artifact-content": ["error", { minBytes: 1, sections: { report: ["^never matches$"] } }] } }));
    const stop = swapper(path.join(root, "d"), outside);
    let leaks = 0;
    let falsePasses = 0;
    await pool(iterations, 4, async () => {
      const ran = await cli(["check", "r.json", "--format", "json"], { cwd: root });
      if (ran.stdout.includes("SECRET-HEADING")) leaks += 1;
      // The section pattern matches nothing: a pass would be a verdict on a file it did not read.
      if (ran.status === 0) falsePasses += 1;
    });
    await stop();
    return { leaks, falsePasses };
  },

  /** Parallel consumers of one metadata file: exactly one may pass and delete it. */
  async "parallel --consume (3 at once)"() {
    const root = path.join(work, "consume");
    let leaks = 0;
    let falsePasses = 0;
    for (let index = 0; index < iterations; index += 1) {
      freshTask(root);
      const runs = await Promise.all([0, 1, 2].map(() => cli(["check", "--task", "10", "--consume", "--format", "json"], { cwd: root })));
      const winners = runs.filter((ran) => ran.status === 0).length;
      // More than one pass for one file, or a loser that printed a passing report.
      falsePasses += Math.max(0, winners - 1) + runs.filter((ran) => ran.status !== 0 && ran.stdout.includes('"ok":true')).length;
      if (winners === 0 || existsSync(path.join(root, "specs", "10_task", ".return-meta.json"))) leaks += 1;
    }
    return { leaks, falsePasses };
  },

  /** Reproduction 3: the metadata file replaced while a --consume check runs; only the validated file may be deleted. */
  async "--consume with a swap"() {
    const root = path.join(work, "consume-swap");
    const file = path.join(root, "specs", "10_task", ".return-meta.json");
    let leaks = 0;
    let falsePasses = 0;
    for (let index = 0; index < iterations; index += 1) {
      freshTask(root);
      const consumer = cli(["check", "--task", "10", "--consume", "--format", "json"], { cwd: root });
      // The swap lands at a different moment of the check each time (spawn to exit is ~40 ms).
      await settle(index % 60);
      let swapped = false;
      try {
        renameSync(file, `${file}.original`);
        writeFileSync(file, '{"status":"researched","artifacts":[],"replacement":true}');
        swapped = true;
      } catch {
        // Consumed already: nothing to swap.
      }
      const ran = await consumer;
      // The replacement was never validated: deleting it is a leak, and a pass with it there is false.
      if (swapped && !existsSync(file)) leaks += 1;
      if (swapped && ran.status === 0) falsePasses += 1;
    }
    return { leaks, falsePasses };
  },

  /** Reproduction 4: the hook's verdicts folder flipped to a symlink outside while hooks write. */
  async "hook .returnlint/verdicts swap"() {
    const { root, outside } = swappable("hook", false);
    mkdirSync(path.join(root, ".returnlint"), { recursive: true });
    const verdicts = path.join(root, ".returnlint", "verdicts");
    mkdirSync(verdicts, { recursive: true });
    const stop = swapper(verdicts, outside);
    const message = `Done.\n\n\`\`\`json\n${JSON.stringify({ status: "completed", summary: "Done.", artifacts: [{ type: "report", path: "missing.md", summary: "r" }], metadata: metadata() })}\n\`\`\``;
    await pool(iterations, 4, async (index) => {
      const payload = { session_id: `s${String(index)}`, cwd: root, hook_event_name: "SubagentStop", stop_hook_active: false, agent_id: `a${String(index)}`, agent_type: "researcher", last_assistant_message: message };
      await cli(["hook", "claude"], { cwd: root, input: JSON.stringify(payload) });
    });
    await stop();
    const leaked = readdirSync(outside).filter((name) => name !== "report.md").length;
    return { leaks: leaked, falsePasses: 0 };
  },

  /** Reproduction 6: --log-errors writers, 200 at a time, until `iterations` entries. */
  async "--log-errors writers (200 at once)"() {
    const root = path.join(work, "log");
    mkdirSync(root, { recursive: true });
    let started = 0;
    let falsePasses = 0;
    while (started < iterations) {
      const batch = Math.min(200, iterations - started);
      const runs = await Promise.all(
        Array.from({ length: batch }, (_, offset) => {
          const session = `sess_${String(started + offset)}`;
          const input = JSON.stringify({ status: "completed", summary: "x", artifacts: [], metadata: metadata(session) });
          return cli(["check", "-", "--log-errors", "errors.json", "--quiet", "--session-id", session], { cwd: root, input });
        }),
      );
      falsePasses += runs.filter((ran) => ran.status === 0).length;
      started += batch;
    }
    const logged = new Set(JSON.parse(readFileSync(path.join(root, "errors.json"), "utf8")).errors.map((entry) => entry.session_id));
    return { leaks: iterations - logged.size, falsePasses };
  },

  /**
   * Issue 31.6: `--log-errors` writers, 70 at once, each round meeting a lock its holder left when
   * it died, for min(iterations, 50) rounds. A lost entry, a writer that did not exit 1, or a file
   * left beside the log (a lock, a right to break one, a file put aside) counts as a leak.
   */
  async "--log-errors writers meeting an abandoned lock (70 at once)"() {
    const root = path.join(work, "abandoned");
    mkdirSync(root, { recursive: true });
    const rounds = Math.min(iterations, 50);
    const dead = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" }).stdout;
    let leaks = 0;
    let falsePasses = 0;
    for (let round = 0; round < rounds; round += 1) {
      const log = `errors-${String(round)}.json`;
      writeFileSync(path.join(root, `${log}.lock`), `returnlint-lock ${dead} ${hostname()} dead-${String(round)}\n`);
      const runs = await Promise.all(
        Array.from({ length: 70 }, (_, index) => {
          const session = `sess_${String(round)}_${String(index)}`;
          const input = JSON.stringify({ status: "completed", summary: "x", artifacts: [], metadata: metadata(session) });
          return cli(["check", "-", "--log-errors", log, "--quiet", "--session-id", session], { cwd: root, input });
        }),
      );
      falsePasses += runs.filter((ran) => ran.status === 0).length;
      leaks += runs.filter((ran) => ran.status !== 0 && ran.status !== 1).length;
      const logged = new Set(JSON.parse(readFileSync(path.join(root, log), "utf8")).errors.map((entry) => entry.session_id));
      leaks += 70 - logged.size;
    }
    leaks += readdirSync(root).filter((name) => !/^errors-\d+\.json$/.test(name)).length;
    return { leaks, falsePasses, attempts: rounds * 70 };
  },
};

const rows = [];
try {
  for (const [name, race] of Object.entries(races)) {
    if (only !== undefined && !name.includes(only)) continue;
    log(`${name}: ${String(iterations)} iterations …`);
    const started = Date.now();
    const { leaks, falsePasses, attempts = iterations } = await race();
    rows.push({ name, iterations, attempts, leaks, falsePasses, seconds: (Date.now() - started) / 1000 });
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

const table = [
  "| race | iterations | attempts | leaks | false passes | time |",
  "| --- | ---: | ---: | ---: | ---: | ---: |",
  ...rows.map((row) => `| ${row.name} | ${String(row.iterations)} | ${String(row.attempts)} | ${String(row.leaks)} | ${String(row.falsePasses)} | ${row.seconds.toFixed(1)} s |`),
];
console.log(table.join("\n"));
process.exit(rows.every((row) => row.leaks === 0 && row.falsePasses === 0) ? 0 : 1);
