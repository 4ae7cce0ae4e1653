#!/usr/bin/env node
import { main } from "./main.js";
import { isTerminal, writeAll } from "./terminal.js";

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
  process.exitCode = code;
});
