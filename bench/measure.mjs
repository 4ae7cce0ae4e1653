// Timing whole processes from Node: spawn, wait, read the clock. No hyperfine needed.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const TIME = "/usr/bin/time";

/**
 * The environment every timed child gets: NODE_EXTRA_CA_CERTS removed (some shells
 * here set it, and it adds tens of milliseconds to every Node start), no colours,
 * no session id from the caller's shell.
 */
export function childEnv() {
  const env = { ...process.env, NO_COLOR: "1" };
  delete env.NODE_EXTRA_CA_CERTS;
  delete env.RETURNLINT_SESSION_ID;
  return env;
}

export function stats(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  const median = sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  return { min: sorted[0], median, max: sorted[sorted.length - 1], runs: sorted.length };
}

function runOnce(command, cwd) {
  const [file, ...args] = command.argv;
  const started = process.hrtime.bigint();
  // Standard output is a pipe, as in an orchestrator that reads the verdict; standard input is the
  // command's `input` (a hook's payload) when it has one.
  const result = spawnSync(file, args, {
    cwd: command.cwd ?? cwd,
    env: { ...childEnv(), ...command.env },
    stdio: [command.input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    ...(command.input === undefined ? {} : { input: command.input }),
    maxBuffer: 1024 * 1024 * 1024,
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.error !== undefined) throw new Error(`${command.label}: ${result.error.message}`);
  if (command.expectStatus !== undefined && result.status !== command.expectStatus) {
    throw new Error(`${command.label} exited ${String(result.status)}, expected ${String(command.expectStatus)}: ${result.stderr.toString().slice(0, 500)}`);
  }
  return { ms, stdout: result.stdout.toString(), stderr: result.stderr.toString() };
}

/**
 * Runs every command `runs` times, interleaved (a, b, c, a, b, c, …) so that a
 * noisy neighbour slows them alike, after `warmup` untimed rounds that fill the
 * file system cache.
 */
export function timeInterleaved(commands, { cwd, runs, warmup = 2 }) {
  const wanted = commands.map((command) => command.runs ?? runs);
  const samples = commands.map(() => []);
  for (let round = 0; round < warmup + Math.max(...wanted); round += 1) {
    commands.forEach((command, index) => {
      if (round < warmup) runOnce(command, cwd);
      else if (samples[index].length < wanted[index]) samples[index].push(runOnce(command, cwd).ms);
    });
  }
  return commands.map((command, index) => ({ label: command.label, shell: command.shell, ...stats(samples[index]) }));
}

export const HAVE_TIME = existsSync(TIME);

/**
 * Wall time and peak resident memory of one command. Peak memory comes from
 * `/usr/bin/time -v` when present; otherwise the command (a Node script) is run
 * under a preload that reports its own `process.resourceUsage().maxRSS` at exit.
 */
export function timeWithMemory(command, cwd) {
  if (HAVE_TIME) {
    const run = runOnce({ ...command, argv: [TIME, "-v", ...command.argv] }, cwd);
    const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(run.stderr);
    if (rss === null) throw new Error(`${command.label}: /usr/bin/time -v printed no peak memory`);
    return { ms: run.ms, rssMb: Number(rss[1]) / 1024, stdout: run.stdout };
  }
  const preload = new URL("max-rss.mjs", import.meta.url).pathname;
  const [node, ...rest] = command.argv;
  const run = runOnce({ ...command, argv: [node, "--import", preload, ...rest] }, cwd);
  const rss = /^returnlint-bench-max-rss-kb=(\d+)$/m.exec(run.stderr);
  if (rss === null) throw new Error(`${command.label}: the max-rss preload printed nothing`);
  return { ms: run.ms, rssMb: Number(rss[1]) / 1024, stdout: run.stdout };
}
