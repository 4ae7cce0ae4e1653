#!/usr/bin/env node
import path from "node:path";
import { EXIT } from "@returnlint/core";
import { environmentError } from "@returnlint/api";
import { useImporter } from "./host.js";
import { describeError, main } from "./main.js";
import { isTerminal, writeAll } from "./terminal.js";

/** What the loader (src/loader.cjs) hands the bundle it runs: its own `import()`, which has a module loader. */
declare const returnlintHost: { readonly importFile: (url: string) => Promise<unknown> } | undefined;
if (typeof returnlintHost !== "undefined") useImporter(returnlintHost.importFile);

const argv = process.argv.slice(2);
// The hook never blocks an agent for a failure of its own, unless --fail-closed asks it to.
const hook = argv[0] === "hook";
const failCode = hook && !argv.includes("--fail-closed") ? EXIT.passed : EXIT.error;
const letThrough = hook && failCode === EXIT.passed ? " (the stop goes through; --fail-closed blocks instead)" : "";
let answered = false;

const say = (text: string) => {
  try {
    writeAll(2, text);
  } catch {
    // Standard error is gone: the exit code still tells.
  }
};

// A config or preset module is arbitrary code (custom rules run in their own thread): one may
// throw from a timer or leave a promise rejected. That is an internal error (a sentence, exit 2),
// never Node's stack trace and exit 1, which would read as a failed return.
const crash = (error: unknown) => {
  say(`${describeError(error, process.env.RETURNLINT_DEBUG !== undefined).trimEnd()}${letThrough}\n`);
  answered = true;
  process.exit(failCode);
};
process.on("uncaughtException", crash);
process.on("unhandledRejection", crash);

// Node ends a process whose event loop is empty with exit code 0, even while a promise is
// pending (a module whose top-level await never settles), and a module may call process.exit()
// itself. Either way no verdict was given: that must not read as a pass.
process.on("exit", () => {
  if (answered) return;
  say(
    `returnlint: stopped before it reached a verdict: something ended the process early (a config or preset module calling process.exit(), or waiting on something that can never finish); there is no verdict.${letThrough}\n`,
  );
  process.exitCode = failCode;
});

/** The current directory; when it was deleted, the one the shell says (absolute paths still work). */
function currentDirectory(): string {
  try {
    return process.cwd();
  } catch {
    const shell = process.env.PWD;
    return shell !== undefined && path.isAbsolute(shell) ? shell : path.parse(process.execPath).root;
  }
}

// No top-level await: the same entry is bundled as CommonJS, which starts faster than ESM.
void main(argv, {
  cwd: currentDirectory(),
  env: process.env,
  // A getter: creating the stdin stream loads modules that a run reading a file never needs.
  get stdin() {
    return process.stdin;
  },
  // check - and the hook read it straight from the descriptor: no stream, no stream modules.
  stdinFd: 0,
  color: process.env.NO_COLOR === undefined && process.env.TERM !== "dumb" && isTerminal(1),
  get stderrIsTTY() {
    return isTerminal(2);
  },
  stdout: (text) => {
    try {
      writeAll(1, text);
    } catch (error) {
      // ENOSPC, EBADF, EIO: the environment's, with a sentence of its own.
      throw environmentError("write to standard output", error);
    }
  },
  stdoutBytes: (bytes) => {
    try {
      writeAll(1, bytes);
    } catch (error) {
      throw environmentError("write to standard output", error);
    }
  },
  stderr: say,
}).then((code) => {
  answered = true;
  // Exit now: a rule that timed out may still hold timers or handles that would keep the process alive.
  process.exit(code);
});
