import { constants } from "node:fs";
import { open, realpath, stat } from "node:fs/promises";
import path from "node:path";
import type { FileCheck, FileProblem, FileView } from "./types.js";

const WINDOWS_ABSOLUTE = /^(?:[a-zA-Z]:[\\/]|\\\\)/;
const PATH_MAX = 4096;
const NAME_MAX = 255;

/**
 * The only way rules reach the disk. Core alone decides what a path may reach:
 * relative paths inside the root, no `..` escape, no symlink leading out, and
 * nothing but regular files is ever opened (FIFOs, sockets, devices and
 * directories are classified with stat, which does not block).
 */
export function createFileView(root: string): FileView {
  const absoluteRoot = path.resolve(root);
  let realRoot: Promise<string> | undefined;
  const checks = new Map<string, Promise<FileCheck>>();

  async function classify(given: string): Promise<FileCheck> {
    const problem = (kind: FileProblem, extra?: string): FileCheck =>
      extra === undefined ? { ok: false, problem: kind, path: given } : { ok: false, problem: kind, path: given, kind: extra };

    if (given === "") return problem("emptyPath");
    if (given.includes("\0")) return problem("nulByte");
    // `~/x` is a home-directory path: the shell expands it, the file system does not.
    if (path.isAbsolute(given) || WINDOWS_ABSOLUTE.test(given) || /^~[^/]*(?:\/|$)/.test(given)) return problem("absolute");
    const normalized = path.normalize(given);
    if (normalized === ".." || normalized.startsWith(`..${path.sep}`)) return problem("escapesRoot");
    // What Linux and macOS refuse anyway; said the same way everywhere, and before any system call.
    if (Buffer.byteLength(normalized) >= PATH_MAX || normalized.split(path.sep).some((segment) => Buffer.byteLength(segment) > NAME_MAX)) return problem("nameTooLong");

    realRoot ??= realpath(absoluteRoot).catch(() => absoluteRoot);
    const rootReal = await realRoot;
    let real: string;
    try {
      real = await realpath(path.join(absoluteRoot, normalized));
    } catch (error) {
      return problem(problemOf(error));
    }
    if (real !== rootReal && !real.startsWith(rootReal + path.sep)) return problem("symlinkEscapesRoot");
    try {
      const stats = await stat(real);
      if (stats.isFile()) return { ok: true, kind: "file", size: stats.size, mtimeMs: stats.mtimeMs, path: given };
      return problem("notAFile", kindOf(stats));
    } catch (error) {
      return problem(problemOf(error));
    }
  }

  const view: FileView = {
    root: absoluteRoot,
    check(given) {
      let cached = checks.get(given);
      if (cached === undefined) {
        cached = classify(given);
        checks.set(given, cached);
      }
      return cached;
    },
    async read(given, maxBytes) {
      const checked = await view.check(given);
      if (!checked.ok) return null;
      // O_NONBLOCK: should the file have been swapped for a FIFO since the check, open must not wait.
      const handle = await open(path.join(absoluteRoot, given), constants.O_RDONLY | constants.O_NONBLOCK).catch(() => null);
      if (handle === null) return null;
      try {
        if (!(await handle.stat()).isFile()) return null;
        const buffer = Buffer.alloc(Math.min(maxBytes, checked.size));
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
        return buffer.subarray(0, bytesRead).toString("utf8");
      } finally {
        await handle.close();
      }
    },
  };
  return view;
}

function problemOf(error: unknown): FileProblem {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ENOENT" || code === "ENOTDIR") return "notFound";
  if (code === "ELOOP") return "symlinkLoop";
  if (code === "ENAMETOOLONG") return "nameTooLong";
  return "unreadable";
}

function kindOf(stats: import("node:fs").Stats): string {
  if (stats.isDirectory()) return "directory";
  if (stats.isFIFO()) return "FIFO";
  if (stats.isSocket()) return "socket";
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return "device";
  return "special file";
}
