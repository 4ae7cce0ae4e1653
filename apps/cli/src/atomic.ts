import { closeSync, constants, mkdirSync, openSync, statSync, writeSync, type Stats } from "node:fs";
import path from "node:path";
import { ReturnlintError, SafeDir, codeOf } from "@returnlint/core";
import { systemReason } from "@returnlint/api";

/**
 * The only ways returnlint writes (SECURITY.md, "It only reads, unless a flag asks it
 * to write"): regular files replaced whole (a temporary file beside them, then a
 * rename: never truncated in place), anything else written in place and never
 * replaced, and read-modify-write under a lock file whose wait has a deadline (the
 * hook's ledger holds the same lock: it lives in @returnlint/hooks). Every
 * call goes through core's SafeDir, so a name is reached through the descriptor of
 * the directory that was checked.
 *
 * Synchronous fs and no crypto: these are quick calls, and every command's start-up
 * would otherwise pay for loading node:fs/promises, node:crypto and node:timers/promises.
 */

export { withLock } from "@returnlint/hooks/lock";

/** How long a FIFO's reader may take without reading anything before the write is given up. */
const STALLED_WRITE_MS = 10_000;
const MAX_SYMLINKS = 40;

/** Where a path the user gave leads: its directory, opened, and its name there. */
export interface Located {
  readonly dir: SafeDir;
  readonly name: string;
  /** What is there now (never a symlink: those are followed); undefined when nothing is. */
  readonly stats: Stats | undefined;
}

/**
 * Follows the symlinks of a path the user gave (`-o`, `--log-errors`) to where it
 * really is, as a shell's `>` would; `/dev/stdout` and its kin are the descriptor
 * itself. Creates the directories of `file` (not of a link's target) when they are
 * missing. The caller closes `dir`.
 */
export function locate(file: string): Located | { readonly descriptor: number } {
  let current = path.resolve(file);
  makeParents(current);
  for (let links = 0; ; links += 1) {
    const descriptor = ownDescriptor(current);
    if (descriptor !== undefined) return { descriptor };
    if (links > MAX_SYMLINKS) throw Object.assign(new Error(`ELOOP: too many symbolic links, ${file}`), { code: "ELOOP" });
    const dir = SafeDir.open(path.dirname(current));
    const name = path.basename(current);
    const stats = dir.lstat(name);
    if (stats?.isSymbolicLink() !== true) return { dir, name, stats };
    current = path.resolve(dir.real, dir.readlink(name));
    dir.close();
  }
}

/**
 * The one output writer (`-o FILE`, `--log-errors FILE`): a regular file (or a new
 * one) is replaced atomically and keeps its permissions; a device, a FIFO or
 * /dev/stdout is written in place, never renamed over; a directory is refused.
 */
export function writeOutput(file: string, text: string): void {
  try {
    const target = locate(file);
    if ("descriptor" in target) {
      writeInto(target.descriptor, Buffer.from(text));
      return;
    }
    try {
      replaceOrWrite(target, text);
    } finally {
      target.dir.close();
    }
  } catch (error) {
    throw cannotWrite(file, error);
  }
}

/**
 * Replaces `root/<names…>` with `text` through real folders only (made when missing):
 * a file returnlint itself keeps inside the project (a host's settings), never reached
 * through a symlink that something in the project planted. A regular file keeps its mode.
 */
export function writeInside(root: string, names: readonly string[], text: string | Buffer): void {
  const shown = path.join(root, ...names);
  let dir: SafeDir;
  try {
    dir = SafeDir.open(root);
  } catch (error) {
    throw cannotWrite(shown, error);
  }
  try {
    for (const name of names.slice(0, -1)) {
      const child: SafeDir = dir.child(name, { create: true });
      dir.close();
      dir = child;
    }
    const name = names.at(-1) ?? "";
    // A file the user keeps (a host's settings) keeps its permissions.
    const existing = dir.lstat(name);
    dir.replace(name, text, existing?.isFile() === true ? existing.mode & 0o7777 : undefined);
  } catch (error) {
    throw cannotWrite(shown, error);
  } finally {
    dir.close();
  }
}

/** Writes `text` at a located target: replaced whole when it is a regular file or nothing, in place otherwise. */
export function replaceOrWrite(target: Located, text: string): void {
  const { dir, name, stats } = target;
  if (stats === undefined || stats.isFile()) {
    dir.replace(name, text, stats === undefined ? undefined : stats.mode & 0o7777);
    return;
  }
  if (stats.isDirectory()) throw Object.assign(new Error("EISDIR"), { code: "EISDIR" });
  // O_NONBLOCK: a FIFO nobody reads is ENXIO at once, not an open that waits for ever.
  const fd = openSync(dir.at(name), constants.O_WRONLY | constants.O_NONBLOCK | constants.O_NOCTTY | constants.O_NOFOLLOW);
  try {
    writeInto(fd, Buffer.from(text));
  } finally {
    closeSync(fd);
  }
}

/** Writes all of `buffer`; a reader that takes nothing for STALLED_WRITE_MS ends the write (EAGAIN). */
function writeInto(fd: number, buffer: Buffer): void {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  let lastProgress = Date.now();
  for (let written = 0; written < buffer.length; ) {
    try {
      written += writeSync(fd, buffer, written, buffer.length - written);
      lastProgress = Date.now();
    } catch (error) {
      if (codeOf(error) !== "EAGAIN" || Date.now() - lastProgress > STALLED_WRITE_MS) throw error;
      Atomics.wait(pause, 0, 0, 2);
    }
  }
}

const STANDARD_STREAMS = new Map([
  ["/dev/stdin", 0],
  ["/dev/stdout", 1],
  ["/dev/stderr", 2],
]);

/** `/dev/stdout`, `/dev/fd/1`, `/proc/self/fd/1`: this process's own descriptor, written directly. */
function ownDescriptor(file: string): number | undefined {
  const named = STANDARD_STREAMS.get(file);
  if (named !== undefined) return named;
  const match = /^\/(?:dev\/fd|proc\/(?:self|thread-self|(\d+))\/fd)\/(\d+)$/.exec(file);
  if (match === null || (match[1] !== undefined && Number(match[1]) !== process.pid)) return undefined;
  return Number(match[2]);
}

/** `mkdir -p` of the file's directory, with a sentence for a parent that is a file. */
function makeParents(file: string): void {
  try {
    mkdirSync(path.dirname(file), { recursive: true });
  } catch (error) {
    const code = codeOf(error);
    if (code !== "EEXIST" && code !== "ENOTDIR") throw error;
    const blocker = firstNonDirectory(path.dirname(file));
    throw new ReturnlintError("USAGE", `Cannot write ${file}: ${blocker ?? path.dirname(file)} is a file, not a directory.`);
  }
}

/** The first path on the way to `dir` that exists and is not a directory. */
function firstNonDirectory(dir: string): string | undefined {
  const chain: string[] = [];
  for (let current = dir; ; current = path.dirname(current)) {
    chain.unshift(current);
    if (path.dirname(current) === current) break;
  }
  for (const candidate of chain) {
    try {
      if (!statSync(candidate).isDirectory()) return candidate;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

function cannotWrite(file: string, error: unknown): ReturnlintError {
  if (error instanceof ReturnlintError) return error;
  return new ReturnlintError(codeOf(error) === "EISDIR" ? "USAGE" : "ENVIRONMENT", `Cannot write ${file}: ${systemReason(error)}.`);
}
