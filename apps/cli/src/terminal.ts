import { fstatSync, writeSync } from "node:fs";

/**
 * Whether a file descriptor is a terminal, without touching process.stdout or
 * loading node:tty up front: both pull in the stream and net modules, several
 * milliseconds of a run whose output goes to a pipe or a file.
 */
export function isTerminal(fd: number): boolean {
  try {
    if (!fstatSync(fd).isCharacterDevice()) return false;
  } catch {
    return false;
  }
  return process.getBuiltinModule("node:tty").isatty(fd);
}

const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * Writes all of `text` to `fd` synchronously, so that nothing is lost when the
 * process exits. A descriptor another process left non-blocking may refuse a
 * write for a moment (EAGAIN); wait a millisecond and go on. A closed pipe
 * (EPIPE: `returnlint … | head`) ends the output quietly.
 */
export function writeAll(fd: number, text: string): void {
  let buffer = Buffer.from(text, "utf8");
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
