import { opendirSync, type Stats } from "node:fs";
import path from "node:path";
import { openPath, readPath, sameFile, type Identity } from "./safe-fs.js";
import type { FileCheck, FileProblem, FileView } from "./types.js";

const WINDOWS_ABSOLUTE = /^(?:[a-zA-Z]:[\\/]|\\\\)/;
const HOME_RELATIVE = /^~[^/]*(?:\/|$)/;
const PATH_MAX = 4096;
const NAME_MAX = 255;
/** The name of the return metadata file (docs/formats-metadata-file.md): a return, never the work it reports. */
const RETURN_FILE = ".return-meta.json";
/** A real (absolute) path whose last name is RETURN_FILE ends with this. */
const RETURN_FILE_BELOW = path.sep + RETURN_FILE;
/** What separates the names of a path: a plain string where it is one character (a string split is the fast one). */
const SEPARATOR: string | RegExp = process.platform === "win32" ? /[\\/]/ : "/";

export interface FileViewOptions {
  /** Files that hold the return being checked: an artifact naming one is a `returnFile` problem. */
  readonly returnFiles?: readonly Identity[];
}

/** core's view, which can also be told what a folder held when its caller listed it (a scan's walk). */
export interface ListingFileView extends FileView {
  /**
   * `names`: what the folder `dir` (relative to the root, like the paths `check` is given)
   * held when it was listed just now. A name missing from it is `notFound` without a system
   * call; any name it holds is looked at as usual, so only absence is taken from the listing
   * (a marker that is not there: one lookup less per return in a scan). Folders with more
   * than a few dozen names are not kept.
   */
  listed(dir: string, names: readonly string[]): void;
}

/**
 * `file` relative to `root` when it is `root` itself ("") or below it; undefined when it
 * is elsewhere. A name that merely starts with two dots (`..notes.md`) is below it.
 */
export function relativeInside(root: string, file: string): string | undefined {
  const relative = path.relative(root, file);
  return relative === ".." || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative) ? undefined : relative;
}

/**
 * The only way rules reach the disk. Core alone decides what a path may reach:
 * relative paths inside the root, no `..` escape, no symlink leading out, and
 * nothing but regular files is ever opened for reading (FIFOs, sockets, devices and
 * directories are only classified).
 *
 * A path is judged by what the kernel opens for it, not by a walk that could be raced
 * (safe-fs.ts, `openPath`): a handle that reads nothing (O_PATH: it never blocks on a
 * FIFO, never wakes a device driver), `fstat` for what it is, and the kernel's word
 * (`/proc/self/fd/N`) for where it really is. A folder swapped for a symlink while a
 * check runs changes where the handle is, and that is what is judged: only where the
 * path ends up counts (a link may leave the root and a later one come back). `read`
 * reopens the file it checked and reads it only if it is the very file (device and
 * inode) that `check` saw, with one link, still inside the root.
 *
 * Synchronous on purpose: each call is a few microseconds, less than a round trip
 * through libuv's thread pool, and it keeps node:fs/promises out of the start-up.
 *
 * One view is one moment: share it between the returns of one batch (a scan), never
 * between runs that are minutes apart. It holds nothing open.
 */
export function createFileView(root: string, options: FileViewOptions = {}): ListingFileView {
  const absoluteRoot = resolvedRoot(root);
  const returnFiles = options.returnFiles ?? [];
  let realRoot: RealRoot | { readonly problem: FileProblem } | undefined;
  const checks = boundedMap<Classified>();
  const listings = boundedMap<readonly string[]>();

  /** The root's real path (symlinks in it are the user's), once per view. */
  function theRoot(): RealRoot | { readonly problem: FileProblem } {
    if (realRoot === undefined) {
      const opened = openPath(absoluteRoot);
      if (typeof opened === "string") realRoot = { problem: problemOf(opened) };
      else {
        const { real } = opened;
        const top = real === path.parse(real).root;
        realRoot = { real, top, below: top ? real : real + path.sep };
      }
    }
    return realRoot;
  }

  /** Whether a real path is the root or below it; every path is below the file system's root (`--root /`). */
  function inside(real: string): boolean {
    const base = theRoot();
    if ("problem" in base) return false;
    if (base.top) return path.isAbsolute(real);
    return real === base.real || real.startsWith(base.below);
  }

  function classify(given: string): Classified {
    if (given === "") return refused(given, "emptyPath");
    if (given.includes("\0")) return refused(given, "nulByte");
    // `~/x` is a home-directory path: the shell expands it, the file system does not.
    if (given.charCodeAt(0) === TILDE && HOME_RELATIVE.test(given)) return refused(given, "homeRelative");
    if (path.isAbsolute(given) || ((given.charCodeAt(1) === COLON || given.charCodeAt(0) === BACKSLASH) && WINDOWS_ABSOLUTE.test(given))) return refused(given, "absolute");
    // What Linux and macOS refuse anyway, said the same way everywhere, before any system call and
    // before the path is taken apart: the work below is linear in the length, but needs no doing.
    if (given.length >= PATH_MAX && Buffer.byteLength(given) >= PATH_MAX) return refused(given, "nameTooLong");
    const lexical = segmentsOf(given);
    if (lexical === "escapes") return refused(given, "escapesRoot");
    const { relative, directory } = lexical;
    if (hasLongName(relative)) return refused(given, "nameTooLong");

    const base = theRoot();
    if ("problem" in base) return refused(given, base.problem);
    if (!directory && absentFromListing(listings, relative)) return { check: { ok: false, problem: "notFound", path: given }, remember: false };
    // `real.md/` names a directory: the kernel says ENOTDIR for a file.
    const target = (relative === "" ? base.real : base.below + (path.sep === "/" ? relative : relative.replaceAll("/", path.sep))) + (directory ? "/" : "");
    const opened = openPath(target);
    if (typeof opened === "string") return refused(given, problemOf(opened));
    if (!inside(opened.real)) return refused(given, "symlinkEscapesRoot");
    const { stats } = opened;
    if (!stats.isFile()) return refused(given, "notAFile", kindOf(stats));
    if (opened.real.endsWith(RETURN_FILE_BELOW) || returnFiles.some((identity) => sameFile(identity, stats))) return refused(given, "returnFile");
    const check: FileCheck = { ok: true, kind: "file", size: stats.size, mtimeMs: stats.mtimeMs, path: given, links: stats.nlink };
    return { check, target, identity: { dev: stats.dev, ino: stats.ino } };
  }

  /** What `classify` says of `given`, remembered unless a listing said it (as cheap to ask again as to remember). */
  function classified(given: string): Classified {
    let known = checks.get(given);
    if (known === undefined) {
      known = classify(given);
      if (known.remember !== false) checks.set(given, known);
    }
    return known;
  }

  return {
    root: absoluteRoot,
    listed(dir, names) {
      if (names.length > MAX_LISTED_NAMES) return;
      const key = listingKey(dir);
      if (key !== undefined) listings.set(key, names);
    },
    check: (given) => classified(given).check,
    list(folder) {
      const lexical = segmentsOf(folder);
      const base = theRoot();
      if (lexical === "escapes" || "problem" in base || folder.includes("\0")) return null;
      const { relative } = lexical;
      const opened = openPath(relative === "" ? base.real : base.below + (path.sep === "/" ? relative : relative.replaceAll("/", path.sep)));
      if (typeof opened === "string" || !opened.stats.isDirectory() || !inside(opened.real)) return null;
      return namesIn(opened.real);
    },
    read(given, maxBytes) {
      const { check, target, identity } = classified(given);
      if (!check.ok || target === undefined || identity === undefined) return null;
      // Not another file under the checked name, nor a hard link that may be a file outside the root, nor one moved out.
      const accept = (opened: { real: string; stats: Stats }) => sameFile(opened.stats, identity) && opened.stats.nlink === 1 && inside(opened.real);
      return readPath(target, Math.min(maxBytes, check.size), accept)?.toString("utf8") ?? null;
    },
  };
}

/** The most names `list` reads from one folder: a near miss is looked for among a task folder's few. */
const MAX_FOLDER_NAMES = 1000;

/** The first MAX_FOLDER_NAMES names of a folder, sorted; null when it cannot be read. */
function namesIn(folder: string): string[] | null {
  let dir;
  try {
    dir = opendirSync(folder);
  } catch {
    return null;
  }
  const names: string[] = [];
  try {
    for (let entry = dir.readSync(); entry !== null && names.length < MAX_FOLDER_NAMES; entry = dir.readSync()) names.push(entry.name);
  } catch {
    return null;
  } finally {
    dir.closeSync();
  }
  return names.sort();
}

const TILDE = 0x7e;
const COLON = 0x3a;
const BACKSLASH = 0x5c;

/** A refused path's answer. */
function refused(given: string, problem: FileProblem, kind?: string): Classified {
  return { check: kind === undefined ? { ok: false, problem, path: given } : { ok: false, problem, path: given, kind } };
}

let lastRoot: { readonly given: string; readonly cwd: string | undefined; readonly resolved: string } | undefined;

/**
 * `path.resolve(root)`; the last answer is kept (with the cwd a relative root was resolved in): a
 * batch of returns shares one root. An absolute root never asks for the cwd, which may be deleted.
 */
function resolvedRoot(root: string): string {
  const cwd = path.isAbsolute(root) ? undefined : process.cwd();
  if (lastRoot !== undefined && lastRoot.given === root && lastRoot.cwd === cwd) return lastRoot.resolved;
  const resolved = path.resolve(root);
  lastRoot = { given: root, cwd, resolved };
  return resolved;
}

interface RealRoot {
  readonly real: string;
  /** The root is the file system's own (`/`): everything is below it. */
  readonly top: boolean;
  /** What a path below it starts with: its real path and a separator. */
  readonly below: string;
}

interface Classified {
  readonly check: FileCheck;
  /** The path that was opened, and the file found there: `read` must find that very file again. */
  readonly target?: string;
  readonly identity?: Identity;
  /** false: said by a listing, not remembered. */
  readonly remember?: false;
}

/**
 * A relative path with `.` and `..` taken out as the text says (not as symlinks would): its
 * names joined by "/" ("" for the start itself), in one pass; "escapes" when a `..` climbs
 * above the start. A path that is plain already (no empty, `.` or `..` name: an artifact path
 * as returns write it) is its own answer and is not taken apart.
 */
function segmentsOf(given: string): { readonly relative: string; readonly directory: boolean } | "escapes" {
  if (SEPARATOR === "/" && !NOT_PLAIN.test(given)) return { relative: given, directory: false };
  const names: string[] = [];
  const parts = given.split(SEPARATOR);
  for (const name of parts) {
    if (name === "" || name === ".") continue;
    if (name !== "..") names.push(name);
    else if (names.pop() === undefined) return "escapes";
  }
  // `real.md/` names a directory: the kernel says ENOTDIR for a file.
  const last = parts.at(-1);
  return { relative: names.join("/"), directory: parts.length > 1 && (last === "" || last === ".") };
}

/** Whether a name of `relative` (names joined by "/") is over NAME_MAX bytes: none can be in a path of a quarter of that many characters. */
function hasLongName(relative: string): boolean {
  return relative.length > NAME_MAX / 4 && relative.split("/").some((name) => name.length > NAME_MAX / 4 && Buffer.byteLength(name) > NAME_MAX);
}

/** Task folders hold a handful of names; a folder of thousands is not worth keeping. */
const MAX_LISTED_NAMES = 64;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** A `.` or `..` name, or an empty one (a leading, doubled or trailing separator). */
const NOT_PLAIN = /(?:^|\/)\.{0,2}(?:\/|$)/;

/** The key of a listed folder (relative to the root): its names joined by "/", undefined when a `..` climbs out. */
function listingKey(dir: string): string | undefined {
  const lexical = segmentsOf(dir);
  return lexical === "escapes" ? undefined : lexical.relative;
}

/**
 * Whether the last name of `relative` (names joined by "/") is surely not in the folder the
 * others name, as its listing showed: never said for a folder not listed, nor where case or
 * Unicode folding could make another spelling the same name (the kernel's lookup would then
 * find it). The listing is compared only when asked.
 */
function absentFromListing(listings: { get(key: string): readonly string[] | undefined }, relative: string): boolean {
  if (relative === "") return false;
  const slash = relative.lastIndexOf("/");
  const name = relative.slice(slash + 1);
  const listing = listings.get(slash === -1 ? "" : relative.slice(0, slash));
  if (listing === undefined || listing.includes(name) || !PRINTABLE_ASCII.test(name)) return false;
  const folded = name.toLowerCase();
  for (const listed of listing) {
    if (!PRINTABLE_ASCII.test(listed) || listed.toLowerCase() === folded) return false;
  }
  return true;
}

const MAX_ENTRIES = 4096;

/**
 * A map that forgets everything once it is full. Bounded: a view shared by a whole
 * scan meets every artifact and folder once, and its memory must stay flat.
 */
function boundedMap<T>(): { get(key: string): T | undefined; set(key: string, value: T): void } {
  // Made on the first entry: a view whose return names no artifact costs no map.
  let seen: Map<string, T> | undefined;
  return {
    get: (key) => seen?.get(key),
    set(key, value) {
      seen ??= new Map<string, T>();
      if (seen.size >= MAX_ENTRIES) seen.clear();
      seen.set(key, value);
    },
  };
}

function problemOf(code: string): FileProblem {
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
