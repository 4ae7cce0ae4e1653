import {
  chmodSync,
  closeSync,
  constants,
  existsSync,
  fstatSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readlinkSync,
  readSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  writeSync,
  type Stats,
} from "node:fs";
import path from "node:path";

/**
 * The one way returnlint touches a path that someone else may control (a project a
 * subagent writes in): every read, write, delete and lock below a directory goes
 * through a `SafeDir`, an open descriptor of that directory.
 *
 * On Linux a name below a `SafeDir` is reached as `/proc/self/fd/N/name`: the kernel
 * resolves the directory from the descriptor, not from a path that may have been swapped
 * for a symlink since, so a check and the open or delete that follows it see the same
 * directory. Subdirectories are opened with O_NOFOLLOW, files with O_NOFOLLOW and
 * O_NONBLOCK (a FIFO never blocks an open), and what was opened is compared with what
 * was checked (device and inode). Where /proc is not mounted (macOS, Windows, some
 * containers) the same checks run on paths: a directory swapped between two system
 * calls is then not excluded (SECURITY.md says so).
 */

const PROC_FD = "/proc/self/fd";
/** Opens a directory for lookups only: no read permission needed, no side effect (Linux's O_PATH, not in fs.constants). */
const O_PATH = 0o10000000;
const NOFOLLOW = constants.O_NOFOLLOW;
const NONBLOCK = constants.O_NONBLOCK;
const DIRECTORY = constants.O_DIRECTORY;
const NOCTTY = constants.O_NOCTTY;

let throughDescriptors: boolean | undefined;

/** Whether names below an open directory can be reached through its descriptor. */
export function descriptorsResolve(): boolean {
  throughDescriptors ??= process.platform === "linux" && existsSync(PROC_FD) && typeof NOFOLLOW === "number";
  return throughDescriptors;
}

/** Why a path below a `SafeDir` was refused. */
export type UnsafeKind = "symlink" | "notDirectory" | "missing" | "notFile" | "changed";

export class UnsafePathError extends Error {
  override readonly name = "UnsafePathError";
  constructor(
    readonly kind: UnsafeKind,
    /** The path as the caller named it (relative to where the walk started). */
    readonly at: string,
    message: string,
  ) {
    super(message);
  }
}

/** A file's identity while it exists: the same device and inode is the same file. */
export interface Identity {
  readonly dev: number;
  readonly ino: number;
}

export const sameFile = (a: Identity, b: Identity): boolean => a.dev === b.dev && a.ino === b.ino;

const unique = (): string => `${String(process.pid)}.${Date.now().toString(36)}.${Math.random().toString(36).slice(2, 10)}`;

/** An open directory, and the only way to reach the names inside it. */
export class SafeDir {
  private closed = false;

  private constructor(
    /** Its real path when it was opened: for containment checks and messages. */
    readonly real: string,
    /** The descriptor, where descriptors resolve (Linux); undefined elsewhere. */
    private readonly fd: number | undefined,
    readonly identity: Identity,
  ) {}

  /** Opens a directory the user named (symlinks in `dir` are the user's and are followed). */
  static open(dir: string): SafeDir {
    const real = realpathSync.native(dir);
    if (!descriptorsResolve()) {
      const stats = statSync(real);
      if (!stats.isDirectory()) throw Object.assign(new Error(`ENOTDIR: not a directory, open '${dir}'`), { code: "ENOTDIR" });
      return new SafeDir(real, undefined, stats);
    }
    const fd = openSync(real, O_PATH | DIRECTORY);
    return new SafeDir(real, fd, fstatSync(fd));
  }

  /** The path through which system calls reach `name` in this directory. */
  at(name: string): string {
    if (this.closed) throw new Error(`internal: ${this.real} was used after it was closed`);
    return this.fd === undefined ? path.join(this.real, name) : `${PROC_FD}/${String(this.fd)}/${name}`;
  }

  /** What `name` is, without following it; undefined when there is nothing by that name. */
  lstat(name: string): Stats | undefined {
    // Nothing there is an answer, not an error: no exception is made for it (a stop's hook asks for files that are usually absent).
    return lstatSync(this.at(name), { throwIfNoEntry: false });
  }

  readlink(name: string): string {
    return readlinkSync(this.at(name));
  }

  /**
   * The subdirectory `name`, never through a symlink. `create` makes it when it is
   * missing (mode 0o777 less the umask, like mkdir).
   */
  child(name: string, options: { readonly create?: boolean } = {}): SafeDir {
    if (name === "" || name === "." || name === ".." || name.includes("/")) throw new Error(`internal: "${name}" is not a single path component`);
    let stats = this.lstat(name);
    // Made only when missing: a failed mkdir costs an Error and its stack, at every hook stop.
    if (stats === undefined && options.create === true) {
      try {
        mkdirSync(this.at(name));
      } catch (error) {
        if (codeOf(error) !== "EEXIST") throw error;
      }
      stats = this.lstat(name);
    }
    if (stats === undefined) throw new UnsafePathError("missing", name, `${name} does not exist`);
    if (stats.isSymbolicLink()) throw new UnsafePathError("symlink", name, `${name} is a symbolic link`);
    if (!stats.isDirectory()) throw new UnsafePathError("notDirectory", name, `${name} is not a directory`);
    if (this.fd === undefined) return new SafeDir(path.join(this.real, name), undefined, stats);
    let fd: number;
    try {
      fd = openSync(this.at(name), O_PATH | DIRECTORY | NOFOLLOW);
    } catch (error) {
      // Swapped for a symlink or a file since the lstat.
      if (codeOf(error) === "ENOTDIR" || codeOf(error) === "ELOOP") throw new UnsafePathError("changed", name, `${name} changed while it was opened`);
      throw error;
    }
    const opened = fstatSync(fd);
    if (!sameFile(opened, stats)) {
      closeSync(fd);
      throw new UnsafePathError("changed", name, `${name} changed while it was opened`);
    }
    return new SafeDir(path.join(this.real, name), fd, opened);
  }

  /** The parent directory, as the kernel sees it (`..` of this very directory). */
  parent(): SafeDir {
    if (this.fd === undefined) return SafeDir.open(path.dirname(this.real));
    const fd = openSync(this.at(".."), O_PATH | DIRECTORY);
    return new SafeDir(path.dirname(this.real), fd, fstatSync(fd));
  }

  /** Opens `name` for reading: never through a symlink, never blocking on a FIFO; throws UnsafePathError for anything but a regular file. */
  openFile(name: string): { readonly fd: number; readonly stats: Stats } {
    let fd: number;
    try {
      fd = openSync(this.at(name), constants.O_RDONLY | NOFOLLOW | NONBLOCK | NOCTTY);
    } catch (error) {
      if (codeOf(error) === "ELOOP") throw new UnsafePathError("symlink", name, `${name} is a symbolic link`);
      if (codeOf(error) === "ENOENT") throw new UnsafePathError("missing", name, `${name} does not exist`);
      throw error;
    }
    const stats = fstatSync(fd);
    if (!stats.isFile()) {
      closeSync(fd);
      throw new UnsafePathError("notFile", name, `${name} is not a regular file`);
    }
    return { fd, stats };
  }

  /** Creates `name` with `content`, failing with EEXIST when anything (a symlink included) has that name. */
  createExclusive(name: string, content: string | Buffer, mode = 0o666): Identity {
    const fd = openSync(this.at(name), constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, mode);
    try {
      writeFully(fd, typeof content === "string" ? Buffer.from(content) : content);
      return fstatSync(fd);
    } finally {
      closeSync(fd);
    }
  }

  /**
   * Replaces `name` with `content` so that readers see the old content or the new,
   * never a part: written to a temporary file in this directory, then renamed over.
   * A symlink by that name is replaced, never followed; a directory is refused by the kernel.
   */
  replace(name: string, content: string | Buffer, mode?: number): void {
    const temp = `${name}.${unique()}.tmp`;
    try {
      this.createExclusive(temp, content, mode);
      if (mode !== undefined) chmodSync(this.at(temp), mode);
      renameSync(this.at(temp), this.at(name));
    } catch (error) {
      rmSync(this.at(temp), { force: true });
      throw error;
    }
  }

  rename(from: string, to: string): void {
    renameSync(this.at(from), this.at(to));
  }

  /** A second name for the file `from`; EEXIST when `to` exists (never replaces). */
  link(from: string, to: string): void {
    linkSync(this.at(from), this.at(to));
  }

  unlink(name: string): void {
    unlinkSync(this.at(name));
  }

  list(): string[] {
    return readdirSync(this.fd === undefined ? this.real : `${PROC_FD}/${String(this.fd)}`);
  }

  /** Whether `real`, a real path, is this directory or below it. Every path is below the file system's root. */
  contains(real: string): boolean {
    if (this.real === path.parse(this.real).root) return path.isAbsolute(real);
    return real === this.real || real.startsWith(this.real + path.sep);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.fd !== undefined) closeSync(this.fd);
  }
}

/** What a path leads to: where it really is, and what is there. */
export interface OpenedPath {
  readonly real: string;
  readonly stats: Stats;
}

/**
 * What `target` leads to, judged on a handle that reads nothing: opened with O_PATH
 * (symlinks followed by the kernel; a FIFO does not block, a device's driver is not
 * woken), `fstat` for what it is and `/proc/self/fd/N` for where it really is, so the
 * answer is about one file, whatever is swapped along the path meanwhile. The handle
 * is closed again. An errno code when there is nothing there. Without /proc:
 * realpath, then stat (a swap between the two is not excluded).
 */
export function openPath(target: string): OpenedPath | string {
  if (!descriptorsResolve()) {
    try {
      const real = realpathSync.native(target);
      return { real, stats: statSync(real) };
    } catch (error) {
      return codeOf(error) ?? "EIO";
    }
  }
  const fd = openForLookup(target);
  if (typeof fd === "string") return fd;
  try {
    const stats = fstatSync(fd);
    const real = readlinkSync(`${PROC_FD}/${String(fd)}`);
    // Unlinked since it was opened: nothing is there any more.
    if (stats.nlink === 0) return "ENOENT";
    return { real, stats };
  } catch (error) {
    return codeOf(error) ?? "EIO";
  } finally {
    closeSync(fd);
  }
}

/**
 * `target` opened with O_PATH, or the errno code of the failure. A path that leads nowhere is a
 * common answer (a marker that is not there, an artifact never written), and a thrown error
 * captures the stack first, which costs more than the system call (scan: one a return): only
 * its code is kept here, so it is thrown without a stack.
 */
function openForLookup(target: string): number | string {
  const limit = Error.stackTraceLimit;
  const quiet = stackLimitWritable();
  if (quiet) Error.stackTraceLimit = 0;
  try {
    return openSync(target, O_PATH);
  } catch (error) {
    return codeOf(error) ?? "EIO";
  } finally {
    if (quiet) Error.stackTraceLimit = limit;
  }
}

let stackLimitIsWritable: boolean | undefined;

/** Whether `Error.stackTraceLimit` may be set (not under --frozen-intrinsics). */
function stackLimitWritable(): boolean {
  if (stackLimitIsWritable === undefined) {
    const descriptor = Object.getOwnPropertyDescriptor(Error, "stackTraceLimit");
    stackLimitIsWritable = descriptor === undefined ? Object.isExtensible(Error) : descriptor.writable === true || descriptor.set !== undefined;
  }
  return stackLimitIsWritable;
}

/**
 * Reads up to `limit` bytes of the regular file `target` leads to, if `accept` takes
 * what is there (its identity, its links, where it is). The file read is the one
 * judged: on Linux it is reopened for reading through the very handle that was judged.
 */
export function readPath(target: string, limit: number, accept: (opened: OpenedPath) => boolean): Buffer | null {
  if (!descriptorsResolve()) {
    const judged = openPath(target);
    if (typeof judged === "string" || !judged.stats.isFile() || !accept(judged)) return null;
    try {
      const fd = openSync(judged.real, constants.O_RDONLY | NOFOLLOW | NONBLOCK);
      try {
        return sameFile(fstatSync(fd), judged.stats) ? readPrefix(fd, limit) : null;
      } finally {
        closeSync(fd);
      }
    } catch {
      return null;
    }
  }
  const handle = openForLookup(target);
  if (typeof handle === "string") return null;
  try {
    const stats = fstatSync(handle);
    if (!stats.isFile() || !accept({ real: readlinkSync(`${PROC_FD}/${String(handle)}`), stats })) return null;
    const fd = openSync(`${PROC_FD}/${String(handle)}`, constants.O_RDONLY | NONBLOCK | NOCTTY);
    try {
      return sameFile(fstatSync(fd), stats) ? readPrefix(fd, limit) : null;
    } finally {
      closeSync(fd);
    }
  } catch {
    return null;
  } finally {
    closeSync(handle);
  }
}

/** Why a file returnlint reads for itself was not read. */
export type RefusalKind = "missing" | "notFile" | "tooLarge" | "unreadable";

export class FileRefusedError extends Error {
  override readonly name = "FileRefusedError";
  constructor(
    readonly kind: RefusalKind,
    readonly file: string,
    /** Why, in words a sentence can end with: "it is a FIFO, not a regular file". */
    readonly reason: string,
  ) {
    super(`${file}: ${reason}`);
  }
}

export interface FileRead {
  readonly bytes: Buffer;
  readonly stats: Stats;
  /** More than `maxBytes` were there, and only `maxBytes` were read (`overLimit: "truncate"`). */
  readonly truncated: boolean;
}

/**
 * Reads a file returnlint reads for itself, which the project (and so a subagent) may
 * have put there: a config, a package.json, an agent definition, a transcript, a host's
 * settings. Symlinks are followed, as a user's config may be one, but only a regular file
 * is read: a FIFO, a socket, a device (or a link to /dev/zero) is refused from a handle
 * that reads nothing (O_PATH, where /proc resolves; else an open with O_NONBLOCK), so no
 * open waits for a writer and no driver is woken. At most `maxBytes` are read, and never
 * more than the size fstat gave, so a file that grows while it is read cannot keep the
 * read going: a regular file is read without waiting on anyone, which is this read's deadline.
 * Throws FileRefusedError, with the reason in words, for anything it does not read.
 */
export function readRegularFile(target: string, options: { readonly maxBytes: number; readonly overLimit?: "refuse" | "truncate" }): FileRead {
  const { maxBytes, overLimit = "refuse" } = options;
  const { handle, stats } = judgedHandle(target, overLimit === "refuse" ? maxBytes : Infinity);
  let fd: number | undefined;
  try {
    fd = descriptorsResolve() ? openSync(`${PROC_FD}/${String(handle)}`, constants.O_RDONLY | NONBLOCK | NOCTTY) : handle;
    if (!sameFile(fstatSync(fd), stats)) throw new FileRefusedError("unreadable", target, "it changed while it was opened");
    return { bytes: readPrefix(fd, Math.min(stats.size, maxBytes)), stats, truncated: stats.size > maxBytes };
  } catch (error) {
    throw error instanceof FileRefusedError ? error : refusal(target, error);
  } finally {
    if (fd !== undefined && fd !== handle) closeSync(fd);
    closeSync(handle);
  }
}

/**
 * readRegularFile for a file too large to hold at once (a transcript of 100 MB): its first
 * `maxBytes` handed to `onChunk` a chunk at a time (while it returns true), from one descriptor
 * judged as readRegularFile judges it. Returns what was opened, and whether the file goes on past `maxBytes`.
 */
export function streamRegularFile(target: string, options: { readonly maxBytes: number; readonly chunkBytes: number }, onChunk: (chunk: Buffer) => boolean): { readonly stats: Stats; readonly truncated: boolean } {
  const { handle, stats } = judgedHandle(target, Infinity);
  let fd: number | undefined;
  try {
    fd = descriptorsResolve() ? openSync(`${PROC_FD}/${String(handle)}`, constants.O_RDONLY | NONBLOCK | NOCTTY) : handle;
    if (!sameFile(fstatSync(fd), stats)) throw new FileRefusedError("unreadable", target, "it changed while it was opened");
    const buffer = Buffer.allocUnsafe(options.chunkBytes);
    let position = 0;
    while (position < options.maxBytes) {
      const read = readSync(fd, buffer, 0, Math.min(options.chunkBytes, options.maxBytes - position), position);
      if (read === 0) break;
      position += read;
      if (!onChunk(buffer.subarray(0, read))) break;
    }
    return { stats, truncated: stats.size > options.maxBytes };
  } catch (error) {
    throw error instanceof FileRefusedError ? error : refusal(target, error);
  } finally {
    if (fd !== undefined && fd !== handle) closeSync(fd);
    closeSync(handle);
  }
}

/**
 * streamRegularFile a line at a time: `onLine` gets each line's bytes, its newline left out, while
 * it returns true; the bytes after the last newline (a last line with none, or one cut by
 * `maxBytes`) come back as `rest`. A line within one chunk is a view of the reused buffer, valid
 * only during the call; one that spans chunks is copied together. With `marks` (byte strings with
 * no newline), `onLine` also gets which of them the line holds, bit `i` for `marks[i]`: they are
 * looked for once per chunk, not once per line (`markedIn` for `rest`).
 */
export function streamLines(
  target: string,
  options: { readonly maxBytes: number; readonly chunkBytes: number; readonly marks?: readonly Buffer[] },
  onLine: (raw: Buffer, marked: number) => boolean,
): { readonly stats: Stats; readonly truncated: boolean; readonly rest: Buffer } {
  const marks = options.marks ?? [];
  let carried: Buffer[] = [];
  const reading = { on: true };
  const opened = streamRegularFile(target, options, (chunk) => {
    const found = marks.map((mark) => occurrences(chunk, mark));
    const passed = marks.map(() => 0);
    let start = 0;
    for (let newline = chunk.indexOf(0x0a); reading.on && newline !== -1; newline = chunk.indexOf(0x0a, start)) {
      const piece = chunk.subarray(start, newline);
      if (carried.length === 0) {
        let marked = 0;
        for (let index = 0; index < found.length; index++) {
          const at = found[index] ?? [];
          let next = passed[index] ?? 0;
          while (next < at.length && (at[next] ?? 0) < start) next += 1;
          passed[index] = next;
          if (next < at.length && (at[next] ?? 0) < newline) marked |= 1 << index;
        }
        reading.on = onLine(piece, marked);
      } else {
        const line = Buffer.concat([...carried, piece]);
        reading.on = onLine(line, markedIn(line, marks));
      }
      carried = [];
      start = newline + 1;
    }
    if (reading.on) carried.push(Buffer.from(chunk.subarray(start)));
    return reading.on;
  });
  return { ...opened, rest: Buffer.concat(carried) };
}

/** Which of `marks` a line holds, bit `i` for `marks[i]` (streamLines' `marked`). */
export function markedIn(line: Buffer, marks: readonly Buffer[]): number {
  let marked = 0;
  marks.forEach((mark, index) => {
    if (line.includes(mark)) marked |= 1 << index;
  });
  return marked;
}

function occurrences(chunk: Buffer, mark: Buffer): number[] {
  const at: number[] = [];
  for (let index = chunk.indexOf(mark); index !== -1; index = chunk.indexOf(mark, index + mark.length)) at.push(index);
  return at;
}

/**
 * What readRegularFile judges, without reading: that `target` leads to a regular file of at most
 * `maxBytes` (for a file another reader opens, such as a config module Node imports). Throws
 * FileRefusedError as readRegularFile does.
 */
export function judgeRegularFile(target: string, options: { readonly maxBytes: number }): Stats {
  const { handle, stats } = judgedHandle(target, options.maxBytes);
  closeSync(handle);
  return stats;
}

/** `target` opened on a handle that reads nothing, and judged: a regular file of at most `maxBytes`. The caller closes the handle. */
function judgedHandle(target: string, maxBytes: number): { readonly handle: number; readonly stats: Stats } {
  let handle: number;
  try {
    handle = descriptorsResolve() ? openSync(target, O_PATH) : openSync(target, constants.O_RDONLY | NONBLOCK | NOCTTY);
  } catch (error) {
    throw refusal(target, error);
  }
  try {
    const stats = fstatSync(handle);
    if (!stats.isFile()) throw new FileRefusedError("notFile", target, `it is ${kindOf(stats)}, not a regular file`);
    if (stats.size > maxBytes) throw new FileRefusedError("tooLarge", target, `it is larger than ${describeSize(maxBytes)} (${describeSize(stats.size)})`);
    return { handle, stats };
  } catch (error) {
    closeSync(handle);
    throw error instanceof FileRefusedError ? error : refusal(target, error);
  }
}

function refusal(target: string, error: unknown): FileRefusedError {
  const code = codeOf(error);
  if (code === "ENOENT") return new FileRefusedError("missing", target, "it does not exist");
  if (code === "ENOTDIR") return new FileRefusedError("missing", target, "a part of its path is not a folder");
  if (code === "ELOOP") return new FileRefusedError("unreadable", target, "symbolic links on its path form a loop");
  if (code === "EACCES" || code === "EPERM") return new FileRefusedError("unreadable", target, "permission denied");
  return new FileRefusedError("unreadable", target, `it cannot be read (${code ?? (error instanceof Error ? error.message : String(error))})`);
}

/** What a file that is not a regular file is, for a sentence: "a FIFO", "a character device". */
export function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return "a directory";
  if (stats.isFIFO()) return "a FIFO (named pipe)";
  if (stats.isCharacterDevice()) return "a character device";
  if (stats.isBlockDevice()) return "a block device";
  if (stats.isSocket()) return "a socket";
  if (stats.isSymbolicLink()) return "a symbolic link";
  return stats.isFile() ? "a regular file" : "not a file";
}

function describeSize(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${String(Math.round((bytes / 1024 / 1024) * 10) / 10)} MiB`;
  if (bytes >= 1024) return `${String(Math.round((bytes / 1024) * 10) / 10)} KiB`;
  return `${String(bytes)} bytes`;
}

/** Reads up to `limit` bytes from the start of an open file. */
export function readPrefix(fd: number, limit: number): Buffer {
  const buffer = Buffer.allocUnsafe(limit);
  let filled = 0;
  for (let read = -1; read !== 0 && filled < limit; filled += read) {
    read = readSync(fd, buffer, filled, limit - filled, filled);
  }
  return buffer.subarray(0, filled);
}

function writeFully(fd: number, buffer: Buffer): void {
  for (let written = 0; written < buffer.length; ) written += writeSync(fd, buffer, written, buffer.length - written);
}

export function codeOf(error: unknown): string | undefined {
  return typeof error === "object" && error !== null ? (error as NodeJS.ErrnoException).code : undefined;
}

export { unique as uniqueSuffix };
