import { closeSync, type Stats } from "node:fs";
import path from "node:path";
import { SafeDir, UnsafePathError, codeOf, readPrefix, realPathOfDescriptor, sameFile, type Identity } from "./safe-fs.js";
import type { FileCheck, FileProblem, FileView } from "./types.js";

const WINDOWS_ABSOLUTE = /^(?:[a-zA-Z]:[\\/]|\\\\)/;
const HOME_RELATIVE = /^~[^/]*(?:\/|$)/;
const PATH_MAX = 4096;
const NAME_MAX = 255;
/** What the kernel follows before it says ELOOP (Linux's MAXSYMLINKS). */
const MAX_SYMLINKS = 40;
/** The name of the seeds' return metadata file: a return, never the work it reports. */
const RETURN_FILE = ".return-meta.json";
const SEPARATOR = process.platform === "win32" ? /[\\/]/ : /\//;

export interface FileViewOptions {
  /** Files that hold the return being checked: an artifact naming one is a `returnFile` problem. */
  readonly returnFiles?: readonly Identity[];
}

/** core's file view: a `FileView` whose descriptors can be released early (it releases them itself when it is garbage). */
export interface ClosableFileView extends FileView {
  close(): void;
}

/**
 * The only way rules reach the disk. Core alone decides what a path may reach:
 * relative paths inside the root, no `..` escape, no symlink leading out, and
 * nothing but regular files is ever opened (FIFOs, sockets, devices and
 * directories are classified with lstat, which does not block).
 *
 * A path is resolved one component at a time from the root, through descriptors of
 * the directories on the way (safe-fs.ts): a directory swapped for a symlink while a
 * check runs is seen as the symlink it is, never walked through unseen. Symlinks are
 * followed by hand, and only where the path ends up counts: a link may leave the root
 * and a later one come back. `read` opens the file it checked, through the same
 * descriptors, with O_NOFOLLOW, and reads it only if it is the very file (device and
 * inode) that `check` saw, with one link, and still inside the root.
 *
 * Synchronous on purpose: each call is a few microseconds, less than a round trip
 * through libuv's thread pool, and it keeps node:fs/promises out of the start-up.
 *
 * One view is one moment: share it between the returns of one batch (a scan), never
 * between runs that are minutes apart, and close it when the batch is done.
 */
export function createFileView(root: string, options: FileViewOptions = {}): ClosableFileView {
  const absoluteRoot = path.resolve(root);
  const state = new ViewState(absoluteRoot);
  const returnFiles = options.returnFiles ?? [];
  const checks = memo((given: string) => state.settle(() => classify(given)));

  function classify(given: string): Classified {
    const problem = (kind: FileProblem, extra?: string): Classified => ({
      check: extra === undefined ? { ok: false, problem: kind, path: given } : { ok: false, problem: kind, path: given, kind: extra },
    });
    if (given === "") return problem("emptyPath");
    if (given.includes("\0")) return problem("nulByte");
    // `~/x` is a home-directory path: the shell expands it, the file system does not.
    if (HOME_RELATIVE.test(given)) return problem("homeRelative");
    if (path.isAbsolute(given) || WINDOWS_ABSOLUTE.test(given)) return problem("absolute");
    // What Linux and macOS refuse anyway, said the same way everywhere, before any system call and
    // before the path is taken apart: the work below is linear in the length, but needs no doing.
    if (given.length >= PATH_MAX && Buffer.byteLength(given) >= PATH_MAX) return problem("nameTooLong");
    const lexical = segmentsOf(given);
    if (lexical === "escapes") return problem("escapesRoot");
    if (lexical.names.some((name) => name.length > NAME_MAX / 4 && Buffer.byteLength(name) > NAME_MAX)) return problem("nameTooLong");

    const found = state.resolve(lexical.names);
    if ("problem" in found) return problem(found.problem);
    if (lexical.directory && found.kind !== "directory") return problem("notFound");
    if (!state.inside(found.real)) return problem("symlinkEscapesRoot");
    if (found.kind !== "file") return problem("notAFile", found.kind);
    const { stats } = found;
    if (path.basename(found.real) === RETURN_FILE || returnFiles.some((identity) => sameFile(identity, stats))) return problem("returnFile");
    const check: FileCheck = { ok: true, kind: "file", size: stats.size, mtimeMs: stats.mtimeMs, path: given, links: stats.nlink };
    return { check, identity: { dev: stats.dev, ino: stats.ino } };
  }

  const view: ClosableFileView = {
    root: absoluteRoot,
    check: (given) => checks(given).check,
    read(given, maxBytes) {
      const checked = checks(given);
      if (!checked.check.ok || checked.identity === undefined) return null;
      const { identity } = checked;
      return state.settle(() => state.readChecked(segmentsOf(given), identity, Math.min(maxBytes, checked.check.ok ? checked.check.size : 0)));
    },
    close() {
      state.close();
    },
  };
  closeWhenCollected.register(view, state);
  return view;
}

/** A view dropped without close() gives its descriptors back when it is collected. */
const closeWhenCollected = new FinalizationRegistry<ViewState>((state) => {
  state.close();
});

interface Classified {
  readonly check: FileCheck;
  /** The file `check` saw, which `read` must find again. */
  readonly identity?: Identity;
}

type Found =
  | { readonly kind: "file"; readonly real: string; readonly stats: Stats; readonly dir: SafeDir; readonly name: string }
  | { readonly kind: Kind; readonly real: string }
  | { readonly problem: FileProblem };

type Entry =
  | { readonly kind: "file" | Kind; readonly stats: Stats }
  | { readonly kind: "symlink"; readonly stats: Stats; readonly target: string }
  | { readonly kind: "missing"; readonly problem: FileProblem };

/** How many directory descriptors a view keeps open; more are reopened when needed. */
const MAX_OPEN_DIRECTORIES = 64;

/** The descriptors and what was seen through them, for one view. */
class ViewState {
  private rootDir: SafeDir | FileProblem | undefined;
  private fileSystemRoot: SafeDir | undefined;
  /** Open directories by real path, least recently used first. */
  private readonly directories = new Map<string, SafeDir>();
  /** Evicted during a call; closed when the call ends, since the walk may still hold one. */
  private readonly retired: SafeDir[] = [];
  /** What lstat found at a real path (a folder that several artifacts share is looked at once). */
  private readonly entries = boundedMap<Entry>();
  private closed = false;

  constructor(private readonly absoluteRoot: string) {}

  /** Runs one public call, then closes what it retired. */
  settle<T>(call: () => T): T {
    try {
      return call();
    } finally {
      for (const dir of this.retired.splice(0)) dir.close();
    }
  }

  inside(real: string): boolean {
    const root = this.root();
    return root instanceof SafeDir && root.contains(real);
  }

  private root(): SafeDir | FileProblem {
    if (this.closed) throw new Error("internal: a file view was used after it was closed");
    if (this.rootDir === undefined) {
      try {
        this.rootDir = SafeDir.open(this.absoluteRoot);
      } catch (error) {
        this.rootDir = problemOf(error);
      }
    }
    return this.rootDir;
  }

  /** Walks `names` from the root, following symlinks by hand; where it ends, or why it could not. */
  resolve(names: readonly string[]): Found {
    const start = this.root();
    if (!(start instanceof SafeDir)) return { problem: start };
    let dir = start;
    // Names still to walk, the next one last: a symlink's target is pushed in front of the rest.
    const pending = names.slice().reverse();
    let links = 0;
    let last: { entry: Entry & { kind: "file" | Kind }; name: string; dir: SafeDir } | undefined;
    while (pending.length > 0) {
      const name = pending.pop() ?? "";
      if (name === "" || name === ".") continue;
      // A file in the middle of a path is ENOTDIR to the kernel: not found, as realpath says.
      if (last !== undefined) return { problem: "notFound" };
      if (name === "..") {
        dir = this.parentOf(dir);
        continue;
      }
      const entry = this.lookup(dir, name);
      if (entry.kind === "missing") return { problem: entry.problem };
      if (entry.kind === "symlink") {
        links += 1;
        if (links > MAX_SYMLINKS) return { problem: "symlinkLoop" };
        if (path.isAbsolute(entry.target)) dir = this.fsRoot();
        for (const part of entry.target.split(SEPARATOR).reverse()) pending.push(part);
        continue;
      }
      if (entry.kind === "directory") {
        const child = this.subdirectory(dir, name, entry.stats);
        if (typeof child === "string") return { problem: child };
        dir = child;
        continue;
      }
      last = { entry, name, dir };
    }
    if (last === undefined) return { kind: "directory", real: dir.real };
    const real = path.join(last.dir.real, last.name);
    return last.entry.kind === "file" ? { kind: "file", real, stats: last.entry.stats, dir: last.dir, name: last.name } : { kind: last.entry.kind, real };
  }

  /** Opens the file `check` saw, through the same directories, and reads it if it is still that file. */
  readChecked(lexical: ReturnType<typeof segmentsOf>, identity: Identity, limit: number): string | null {
    if (lexical === "escapes") return null;
    const found = this.resolve(lexical.names);
    if (!("dir" in found)) return null;
    let opened: { fd: number; stats: Stats };
    try {
      opened = found.dir.openFile(found.name);
    } catch {
      return null;
    }
    const { fd, stats } = opened;
    try {
      // Another file under the checked name, or a hard link that may be a file outside the root.
      if (!sameFile(stats, identity) || stats.nlink > 1) return null;
      const now = realPathOfDescriptor(fd);
      if (now !== undefined && !this.inside(now)) return null;
      return readPrefix(fd, Math.min(limit, stats.size)).toString("utf8");
    } catch {
      return null;
    } finally {
      closeSync(fd);
    }
  }

  private lookup(dir: SafeDir, name: string): Entry {
    const key = path.join(dir.real, name);
    const seen = this.entries.get(key);
    if (seen !== undefined) return seen;
    let entry: Entry;
    try {
      const stats = dir.lstat(name);
      if (stats === undefined) entry = { kind: "missing", problem: "notFound" };
      else if (stats.isSymbolicLink()) entry = { kind: "symlink", stats, target: dir.readlink(name) };
      else entry = { kind: stats.isFile() ? "file" : kindOf(stats), stats };
    } catch (error) {
      entry = { kind: "missing", problem: problemOf(error) };
    }
    this.entries.set(key, entry);
    return entry;
  }

  private subdirectory(parent: SafeDir, name: string, stats: Stats): SafeDir | FileProblem {
    const real = path.join(parent.real, name);
    const cached = this.directories.get(real);
    if (cached !== undefined && sameFile(cached.identity, stats)) {
      this.directories.delete(real);
      this.directories.set(real, cached);
      return cached;
    }
    let child: SafeDir;
    try {
      child = parent.child(name);
    } catch (error) {
      // Swapped between the lstat and the open: what is there now is not what was looked at.
      if (error instanceof UnsafePathError) return error.kind === "missing" ? "notFound" : "unreadable";
      return problemOf(error);
    }
    this.remember(real, child);
    return child;
  }

  private parentOf(dir: SafeDir): SafeDir {
    const real = path.dirname(dir.real);
    if (real === dir.real) return dir;
    const cached = this.directories.get(real);
    if (cached !== undefined) return cached;
    const parent = dir.parent();
    this.remember(real, parent);
    return parent;
  }

  private fsRoot(): SafeDir {
    this.fileSystemRoot ??= SafeDir.open(path.parse(this.absoluteRoot).root);
    return this.fileSystemRoot;
  }

  private remember(real: string, dir: SafeDir): void {
    const previous = this.directories.get(real);
    if (previous !== undefined) this.retired.push(previous);
    this.directories.delete(real);
    this.directories.set(real, dir);
    if (this.directories.size > MAX_OPEN_DIRECTORIES) {
      const [oldest] = this.directories;
      if (oldest !== undefined) {
        this.directories.delete(oldest[0]);
        this.retired.push(oldest[1]);
      }
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const dir of [...this.directories.values(), ...this.retired.splice(0)]) dir.close();
    this.directories.clear();
    if (this.rootDir instanceof SafeDir) this.rootDir.close();
    this.fileSystemRoot?.close();
  }
}

/**
 * The names of a relative path with `.` and `..` taken out as the text says (not as
 * symlinks would), in one pass; "escapes" when a `..` climbs above the start.
 */
function segmentsOf(given: string): { readonly names: string[]; readonly directory: boolean } | "escapes" {
  const names: string[] = [];
  const parts = given.split(SEPARATOR);
  for (const name of parts) {
    if (name === "" || name === ".") continue;
    if (name !== "..") names.push(name);
    else if (names.pop() === undefined) return "escapes";
  }
  // `real.md/` names a directory: the kernel says ENOTDIR for a file.
  const last = parts.at(-1);
  return { names, directory: parts.length > 1 && (last === "" || last === ".") };
}

const MAX_ENTRIES = 4096;

/**
 * A map that forgets everything once it is full. Bounded: a view shared by a whole
 * scan meets every artifact and folder once, and its memory must stay flat.
 */
function boundedMap<T>(): { get(key: string): T | undefined; set(key: string, value: T): void } {
  const seen = new Map<string, T>();
  return {
    get: (key) => seen.get(key),
    set(key, value) {
      if (seen.size >= MAX_ENTRIES) seen.clear();
      seen.set(key, value);
    },
  };
}

/** `compute`, remembered by its argument. */
function memo<T>(compute: (key: string) => T): (key: string) => T {
  const seen = boundedMap<T>();
  return (key) => {
    let value = seen.get(key);
    if (value === undefined) {
      value = compute(key);
      seen.set(key, value);
    }
    return value;
  };
}

function problemOf(error: unknown): FileProblem {
  const code = codeOf(error);
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
