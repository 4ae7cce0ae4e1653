import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { ReturnlintError, decodeUtf8, readPrefix, type Identity } from "@returnlint/core";
import { environmentError } from "./environment.js";

/** Larger inputs are refused by default: no return a subagent writes is this big. */
export const MAX_INPUT_BYTES = 10 * 1024 * 1024;

const MAX_INPUT_VARIABLE = "RETURNLINT_MAX_INPUT_BYTES";
const UNITS: Readonly<Record<string, number>> = { "": 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };

/**
 * The largest input read, in bytes: RETURNLINT_MAX_INPUT_BYTES (a whole number of
 * bytes, optionally with a k, M or G suffix for KiB, MiB, GiB), else 10 MiB.
 */
export function maxInputBytes(env: NodeJS.ProcessEnv = process.env): number {
  const given = env[MAX_INPUT_VARIABLE]?.trim();
  if (given === undefined || given === "") return MAX_INPUT_BYTES;
  const match = /^(\d+)\s*([kmg]?)(?:i?b)?$/i.exec(given);
  const bytes = match === null ? NaN : Number(match[1]) * (UNITS[(match[2] ?? "").toLowerCase()] ?? NaN);
  if (!Number.isSafeInteger(bytes) || bytes < 1) {
    throw new ReturnlintError("USAGE", `${MAX_INPUT_VARIABLE} must be a positive number of bytes, such as 20971520 or 20M; received "${given}".`);
  }
  return bytes;
}

export interface ReturnInput {
  readonly text: string;
  /** What to call it in output: the file path, or "<stdin>". */
  readonly source: string;
  /** The file it was read from (device and inode): an artifact naming it is not work. */
  readonly identity?: Identity;
}

/**
 * Reads one return file. Synchronous: four system calls cost less than one
 * asynchronous round trip through the thread pool, which matters to `scan` and
 * its thousands of small files. The file is opened non-blocking and checked with
 * fstat before any read, so a FIFO or a device named like a return cannot hang it.
 */
export function readReturnFile(file: string, options: { readonly followSymlink?: boolean; readonly maxBytes?: number } = {}): ReturnInput {
  let fd: number;
  try {
    // A file found by a walk (scan) is opened as it was listed: a symlink swapped in since is refused (ELOOP).
    const noFollow = options.followSymlink === false ? constants.O_NOFOLLOW : 0;
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK | noFollow);
  } catch (error) {
    throw unreadable(file, error);
  }
  try {
    const stats = fstatSync(fd);
    if (stats.isDirectory()) throw new ReturnlintError("INPUT_UNREADABLE", `Cannot read ${file}: it is a directory.`);
    if (!stats.isFile()) throw new ReturnlintError("INPUT_UNREADABLE", `Cannot read ${file}: it is not a regular file.`);
    // A caller reading thousands (scan) reads the environment once, and says the limit.
    const limit = options.maxBytes ?? maxInputBytes();
    if (stats.size > limit) throw tooLarge(file, limit);
    return { text: decodeUtf8(readPrefix(fd, stats.size)), source: file, identity: { dev: stats.dev, ino: stats.ino } };
  } catch (error) {
    throw error instanceof ReturnlintError ? error : unreadable(file, error);
  } finally {
    closeSync(fd);
  }
}

export async function readStdin(stream: NodeJS.ReadStream = process.stdin): Promise<ReturnInput> {
  if (stream.isTTY) throw noReturnOnATerminal();
  const limit = maxInputBytes();
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of stream) {
      const buffer = chunk as Buffer;
      total += buffer.length;
      if (total > limit) {
        stream.destroy();
        throw tooLarge("standard input", limit);
      }
      chunks.push(buffer);
    }
  } catch (error) {
    // EBADF (standard input opened for writing only), EIO, …: the environment, not the return.
    throw environmentError("read standard input", error);
  }
  return { text: decodeUtf8(Buffer.concat(chunks)), source: "<stdin>" };
}

function noReturnOnATerminal(): ReturnlintError {
  return new ReturnlintError("USAGE", 'No return to check: pass a FILE, pipe the return to standard input, or use --task N. Run "returnlint check --help".');
}

const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * Standard input read straight from its descriptor, synchronously, as the bin reads it: no stream
 * is made, so none of Node's stream modules load (about 5 ms of a hook's run). `isTTY`: whether the
 * descriptor is a terminal, which the caller can tell without loading node:tty. A descriptor another
 * process left non-blocking may have nothing yet (EAGAIN): wait a millisecond and read again.
 */
export function readStdinDescriptor(fd: number, isTTY: boolean): ReturnInput {
  if (isTTY) throw noReturnOnATerminal();
  const limit = maxInputBytes();
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const buffer = Buffer.allocUnsafe(64 * 1024);
    let read: number;
    try {
      read = readSync(fd, buffer, 0, buffer.length, null);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EAGAIN") {
        Atomics.wait(pause, 0, 0, 1);
        continue;
      }
      if (code === "EOF") break;
      // EBADF (standard input opened for writing only, or closed), EISDIR, EIO, …: the environment, not the return.
      throw environmentError("read standard input", error);
    }
    if (read === 0) break;
    total += read;
    if (total > limit) throw tooLarge("standard input", limit);
    chunks.push(buffer.subarray(0, read));
  }
  return { text: decodeUtf8(Buffer.concat(chunks, total)), source: "<stdin>" };
}

function unreadable(file: string, error: unknown): ReturnlintError {
  const code = (error as NodeJS.ErrnoException).code;
  const reason = code === "ENOENT" ? "no such file" : code === "EACCES" ? "permission denied" : code === "ELOOP" ? "it is a symbolic link" : String(code);
  return new ReturnlintError("INPUT_UNREADABLE", `Cannot read ${file}: ${reason}.`);
}

export function tooLarge(what: string, limit: number): ReturnlintError {
  return new ReturnlintError("INPUT_TOO_LARGE", `Refusing to read ${what}: it is larger than ${describeBytes(limit)}.`, [
    `No subagent return is this big; if this one really is, set ${MAX_INPUT_VARIABLE} (bytes, or with a k, M or G suffix) to raise the limit.`,
  ]);
}

function describeBytes(bytes: number): string {
  const mib = bytes / 1024 / 1024;
  return Number.isInteger(mib) ? `${String(mib)} MiB` : `${String(bytes)} bytes`;
}
