import type { CommandFact, TestRunFact } from "./facts.js";

/**
 * The summaries test runners close their output with, each read into pass and fail counts. The
 * last summary in a command's output decides; a command whose output holds none is no test run.
 * Every pattern matches a whole line, as the runner prints it (colours already gone from a
 * transcript: hosts run commands without a terminal).
 */
interface Runner {
  readonly name: string;
  readonly line: RegExp;
  /** Counts from the matched line and the output around it; `passed` when the run passed. */
  readonly read: (match: RegExpExecArray, output: string, exitCode: number | undefined) => { passed: boolean; passedCount?: number; failedCount?: number };
}

const count = (text: string | undefined): number | undefined => (text === undefined ? undefined : Number(text));
const lastCount = (output: string, pattern: RegExp): number | undefined => {
  let found: number | undefined;
  for (const match of output.matchAll(pattern)) found = count(match[1]);
  return found;
};

const RUNNERS: readonly Runner[] = [
  // vitest: " Tests  2 failed | 5 passed (7)", " Tests  7 passed (7)".
  {
    name: "vitest",
    line: /^ *Tests {2}(?:(\d+) failed)?(?: \| )?(?:(\d+) passed)?[^\n]*\(\d+\)$/gm,
    read: (match) => ({ passed: count(match[1]) === undefined || count(match[1]) === 0, ...counts(match[2], match[1]) }),
  },
  // jest: "Tests:       1 failed, 4 passed, 5 total".
  {
    name: "jest",
    line: /^Tests: +(?:(\d+) failed, )?(?:\d+ \w+, )*?(?:(\d+) passed, )?\d+ total$/gm,
    read: (match) => ({ passed: count(match[1]) === undefined || count(match[1]) === 0, ...counts(match[2], match[1]) }),
  },
  // node --test, TAP ("# fail 1") or spec ("ℹ fail 1") reporter: the fail line closes the counts that matter.
  {
    name: "node --test",
    line: /^(?:#|\u2139) fail (\d+)$/gm,
    read: (match, output) => {
      const passedCount = lastCount(output, /^(?:#|\u2139) pass (\d+)$/gm);
      return { passed: count(match[1]) === 0, ...(passedCount === undefined ? {} : { passedCount }), failedCount: count(match[1]) ?? 0 };
    },
  },
  // pytest: "===== 1 failed, 2 passed in 0.12s =====", "==== 3 passed in 0.01s ====".
  {
    name: "pytest",
    line: /^=+ (?:(\d+) failed)?(?:, )?(?:(\d+) passed)?[^=\n]* in [\d.]+s(?: \([^)]*\))? =+$/gm,
    read: (match, output) => {
      const errors = /\d+ errors?\b/.test(match[0]) || /^=+ .*\berrors?\b.* =+$/m.test(output.slice(match.index));
      return { passed: (count(match[1]) ?? 0) === 0 && !errors, ...counts(match[2], match[1]) };
    },
  },
  // cargo test: "test result: FAILED. 1 passed; 1 failed; 0 ignored; …".
  {
    name: "cargo test",
    line: /^test result: (ok|FAILED)\. (\d+) passed; (\d+) failed;[^\n]*$/gm,
    read: (match) => ({ passed: match[1] === "ok", passedCount: count(match[2]) ?? 0, failedCount: count(match[3]) ?? 0 }),
  },
  // go test: a package's closing "ok  \tpkg\t0.01s" or "FAIL\tpkg\t0.01s", or the bare "PASS"/"FAIL".
  {
    name: "go test",
    line: /^(?:(ok|FAIL)\s+\S+\s+(?:[\d.]+s|\[[^\]]+\])[^\n]*|(PASS|FAIL))$/gm,
    read: (match, output) => {
      const failures = [...output.matchAll(/^\s*--- FAIL/gm)].length;
      return { passed: (match[1] ?? match[2]) !== "FAIL" && failures === 0, ...(failures === 0 ? {} : { failedCount: failures }) };
    },
  },
  // lake build (Lean): "Build completed successfully." or "error: build failed".
  {
    name: "lake build",
    line: /^(?:Build completed successfully\.?|error: build failed|\u2716 \[\d+\/\d+\] [^\n]*)$/gm,
    read: (match) => ({ passed: match[0].startsWith("Build completed") }),
  },
];

function counts(passed: string | undefined, failed: string | undefined): { passedCount?: number; failedCount?: number } {
  return { ...(passed === undefined ? {} : { passedCount: Number(passed) }), ...(failed === undefined ? {} : { failedCount: Number(failed) }) };
}

/** The test run a command's output shows: the last runner summary in it, read; undefined when it holds none. */
export function testRunOf(command: CommandFact): TestRunFact | undefined {
  const output = command.outputTail;
  let best: { runner: Runner; match: RegExpExecArray } | undefined;
  for (const runner of RUNNERS) {
    runner.line.lastIndex = 0;
    let match: RegExpExecArray | null;
    let last: RegExpExecArray | undefined;
    while ((match = runner.line.exec(output)) !== null) last = match;
    if (last !== undefined && (best === undefined || last.index > best.match.index)) best = { runner, match: last };
  }
  if (best === undefined) return undefined;
  const read = best.runner.read(best.match, output, command.exitCode);
  // A runner that says it passed, in a command that exited non-zero, did not pass: something after it failed.
  const passed = read.passed && (command.exitCode === undefined || command.exitCode === 0);
  return { line: command.line, command: command.command, runner: best.runner.name, ...read, passed, closingLine: best.match[0].trim() };
}
