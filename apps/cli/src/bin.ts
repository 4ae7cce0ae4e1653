#!/usr/bin/env node
import { describeError, main } from "./main.js";
import { isTerminal, writeAll } from "./terminal.js";

// A custom rule is arbitrary code: one may throw from a timer or leave a promise
// rejected after its check settled. That is an internal error (a sentence, exit 2),
// never Node's stack trace and exit 1, which would read as a failed return.
const crash = (error: unknown) => {
  writeAll(2, describeError(error, process.env.RETURNLINT_DEBUG !== undefined));
  process.exit(2);
};
process.on("uncaughtException", crash);
process.on("unhandledRejection", crash);

// No top-level await: the same entry is bundled as CommonJS, which starts faster than ESM.
void main(process.argv.slice(2), {
  cwd: process.cwd(),
  env: process.env,
  // A getter: creating the stdin stream loads modules that a run reading a file never needs.
  get stdin() {
    return process.stdin;
  },
  color: process.env.NO_COLOR === undefined && process.env.TERM !== "dumb" && isTerminal(1),
  get stderrIsTTY() {
    return isTerminal(2);
  },
  stdout: (text) => {
    writeAll(1, text);
  },
  stderr: (text) => {
    writeAll(2, text);
  },
}).then((code) => {
  // Exit now: a rule that timed out may still hold timers or handles that would keep the process alive.
  process.exit(code);
});
