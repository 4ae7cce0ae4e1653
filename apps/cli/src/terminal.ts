import { ReturnlintError } from "@returnlint/core";
import { fstatSync, statSync, writeSync } from "node:fs";

/**
 * Whether a file descriptor is a terminal, without touching process.stdout or
 * loading node:tty up front: both pull in the stream and net modules, several
 * milliseconds of a run whose output goes to a pipe, a file or /dev/null
 * (`returnlint check x >/dev/null` in a script: a character device, never a
 * terminal). Only a character device that is not /dev/null asks node:tty.
 */
export function isTerminal(fd: number): boolean {
  try {
    const stats = fstatSync(fd);
    if (!stats.isCharacterDevice() || stats.rdev === nullDevice()) return false;
  } catch {
    return false;
  }
  return process.getBuiltinModule("node:tty").isatty(fd);
}

/** /dev/null's device number, or undefined on a system without one (Windows). */
function nullDevice(): number | undefined {
  try {
    const stats = statSync("/dev/null", { throwIfNoEntry: false });
    return stats?.isCharacterDevice() === true ? stats.rdev : undefined;
  } catch {
    return undefined;
  }
}

const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * Writes all of `text` (or bytes already encoded) to `fd` synchronously, so that
 * nothing is lost when the process exits. A descriptor another process left
 * non-blocking may refuse a write for a moment (EAGAIN); wait a millisecond and go
 * on. A closed pipe (EPIPE: `returnlint … | head`) ends the output quietly.
 */
export function writeAll(fd: number, text: string | Uint8Array): void {
  let buffer = typeof text === "string" ? Buffer.from(text, "utf8") : text;
  while (buffer.length > 0) {
    try {
      buffer = buffer.subarray(writeSync(fd, buffer));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EAGAIN") Atomics.wait(pause, 0, 0, 1);
      else if (code === "EPIPE") return;
      else throw error;
    }
  }
}

/**
 * Whether to colour what goes to standard output, the way linters decide it:
 * `--color` or `--no-color` first; then FORCE_COLOR, which (as in Node) turns
 * colours on for any value but `0` or `false`, even in a pipe and over NO_COLOR;
 * then what the process found: a terminal, with NO_COLOR unset and TERM not dumb.
 */
export function colorWanted(flags: { readonly color?: boolean; readonly "no-color"?: boolean }, env: NodeJS.ProcessEnv, terminal: boolean): boolean {
  if (flags.color === true && flags["no-color"] === true) {
    throw new ReturnlintError("USAGE", "--color and --no-color contradict each other: give one.");
  }
  if (flags.color === true) return true;
  if (flags["no-color"] === true) return false;
  const forced = env.FORCE_COLOR;
  if (forced !== undefined) return !["0", "false"].includes(forced.trim().toLowerCase());
  return terminal;
}
