import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, realpathSync, statSync, type Stats } from "node:fs";
import path from "node:path";
import type { FileCheck, FileProblem, FileView } from "./types.js";

const WINDOWS_ABSOLUTE = /^(?:[a-zA-Z]:[\\/]|\\\\)/;
const HOME_RELATIVE = /^~[^/]*(?:\/|$)/;
const PATH_MAX = 4096;
const NAME_MAX = 255;

/**
 * The only way rules reach the disk. Core alone decides what a path may reach:
 * relative paths inside the root, no `..` escape, no symlink leading out, and
 * nothing but regular files is ever opened (FIFOs, sockets, devices and
 * directories are classified with stat, which does not block).
 *
 * Paths are resolved one component at a time from the root's real path, with
 * lstat: a folder that several artifacts share is looked at once, a symlink is
 * resolved where it is met, and the last lstat already gives the file's kind and
 * size. That is a third of the system calls of realpath + stat per artifact.
 * Synchronous on purpose: each call is a few microseconds, less than a round trip
 * through libuv's thread pool, and it keeps node:fs/promises out of the start-up.
 *
 * One view is one moment: share it between the returns of one batch (a scan),
 * never between runs that are minutes apart.
 */
export function createFileView(root: string): FileView {
  const absoluteRoot = path.resolve(root);
  let realRoot: string | undefined;
  /** What lstat (or, for a symlink, realpath and stat) found at a real path. */
  const entryAt = memo(look);

  function classify(given: string): FileCheck {
    const problem = (kind: FileProblem, extra?: string): FileCheck =>
      extra === undefined ? { ok: false, problem: kind, path: given } : { ok: false, problem: kind, path: given, kind: extra };

    if (given === "") return problem("emptyPath");
    if (given.includes("\0")) return problem("nulByte");
    // `~/x` is a home-directory path: the shell expands it, the file system does not.
    if (path.isAbsolute(given) || WINDOWS_ABSOLUTE.test(given) || HOME_RELATIVE.test(given)) return problem("absolute");
    const normalized = path.normalize(given);
    if (normalized === ".." || normalized.startsWith(`..${path.sep}`)) return problem("escapesRoot");
    // What Linux and macOS refuse anyway; said the same way everywhere, and before any system call.
    if (tooLong(normalized)) return problem("nameTooLong");

    realRoot ??= realpathOr(absoluteRoot);
    let entry: Entry = { real: realRoot, kind: "directory", size: 0, mtimeMs: 0 };
    for (const name of normalized.split(path.sep)) {
      if (name === "" || name === ".") continue;
      // A file in the middle of a path is ENOTDIR to the kernel: not found, as realpath says.
      if (entry.kind !== "directory") return problem(entry.problem ?? "notFound");
      entry = entryAt(path.join(entry.real, name));
    }
    if (entry.kind === "missing") return problem(entry.problem ?? "notFound");
    // Only where the path ends up counts: a link may leave the root and a later one come back.
    if (entry.real !== realRoot && !entry.real.startsWith(realRoot + path.sep)) return problem("symlinkEscapesRoot");
    if (entry.kind === "file") return { ok: true, kind: "file", size: entry.size, mtimeMs: entry.mtimeMs, path: given };
    return problem("notAFile", entry.kind);
  }

  const view: FileView = {
    root: absoluteRoot,
    check: memo(classify),
    read(given, maxBytes) {
      const checked = view.check(given);
      if (!checked.ok) return null;
      let fd: number;
      try {
        // O_NONBLOCK: should the file have been swapped for a FIFO since the check, open must not wait.
        fd = openSync(path.join(absoluteRoot, given), constants.O_RDONLY | constants.O_NONBLOCK);
      } catch {
        return null;
      }
      try {
        if (!fstatSync(fd).isFile()) return null;
        const buffer = Buffer.alloc(Math.min(maxBytes, checked.size));
        const bytesRead = readSync(fd, buffer, 0, buffer.length, 0);
        return buffer.subarray(0, bytesRead).toString("utf8");
      } catch {
        return null;
      } finally {
        closeSync(fd);
      }
    },
  };
  return view;
}

const MAX_ENTRIES = 4096;

/**
 * `compute`, remembered by its argument. Bounded: a view shared by a whole scan
 * meets every artifact and folder once, and its memory must stay flat.
 */
function memo<T>(compute: (key: string) => T): (key: string) => T {
  const seen = new Map<string, T>();
  return (key) => {
    let value = seen.get(key);
    if (value === undefined) {
      value = compute(key);
      if (seen.size >= MAX_ENTRIES) seen.clear();
      seen.set(key, value);
    }
    return value;
  };
}

interface Entry {
  /** The real path: symlinks resolved. */
  readonly real: string;
  readonly kind: "file" | Kind | "missing";
  readonly size: number;
  readonly mtimeMs: number;
  readonly problem?: FileProblem;
}

/** What is at `candidate`, whose parent is a real path; a symlink is followed to where it leads. */
function look(candidate: string): Entry {
  try {
    let stats = lstatSync(candidate);
    let real = candidate;
    if (stats.isSymbolicLink()) {
      real = realpathSync.native(candidate);
      stats = statSync(real);
    }
    return { real, kind: stats.isFile() ? "file" : kindOf(stats), size: stats.size, mtimeMs: stats.mtimeMs };
  } catch (error) {
    return { real: candidate, kind: "missing", size: 0, mtimeMs: 0, problem: problemOf(error) };
  }
}

function realpathOr(fallback: string): string {
  try {
    return realpathSync.native(fallback);
  } catch {
    return fallback;
  }
}

function tooLong(normalized: string): boolean {
  // Only a long path can break a limit: skip the byte counting for the usual short one.
  if (normalized.length < NAME_MAX / 4) return false;
  return Buffer.byteLength(normalized) >= PATH_MAX || normalized.split(path.sep).some((segment) => Buffer.byteLength(segment) > NAME_MAX);
}

function problemOf(error: unknown): FileProblem {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ENOENT" || code === "ENOTDIR") return "notFound";
  if (code === "ELOOP") return "symlinkLoop";
  if (code === "ENAMETOOLONG") return "nameTooLong";
  return "unreadable";
}

type Kind = "directory" | "FIFO" | "socket" | "device" | "special file";

/** What a path that is not a regular file is, in the words messages use. */
function kindOf(stats: Stats): Kind {
  if (stats.isDirectory()) return "directory";
  if (stats.isFIFO()) return "FIFO";
  if (stats.isSocket()) return "socket";
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return "device";
  return "special file";
}
