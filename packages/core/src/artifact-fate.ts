import { editDistance } from "./suggest.js";
import { isObject } from "./pointer.js";
import type { FileCheck, FileProblem, FileView } from "./types.js";
import { ARCHIVE_DIR, METADATA_FILE, SPECS_DIR } from "./vocabulary.js";

/**
 * What became of one artifact a return claims, looked at through a file view (the disk now, or a
 * commit's tree). Each fate says what it is, so that output can say it too: a claimed file that is
 * simply not there is told apart from one that is elsewhere under another spelling.
 */
export type ArtifactFate =
  /** A regular file inside the root, with content. */
  | { readonly fate: "exists"; readonly size: number }
  /** A regular file inside the root with nothing in it. */
  | { readonly fate: "empty" }
  /** No such file, and nothing close by that it could have meant. */
  | { readonly fate: "missing" }
  /** No such file, but its folder holds a name one typo away. */
  | { readonly fate: "near-miss"; readonly didYouMean: string }
  /** No such file in its task folder, but the task was archived and the file is in `specs/archive/…`. */
  | { readonly fate: "archived"; readonly movedTo: string }
  /** An absolute (or `~/`) path; `insideRoot` when the same file exists at a path relative to the root. */
  | { readonly fate: "absolute"; readonly insideRoot?: string }
  /** A path that leads outside the root (`..`, or a symbolic link out). */
  | { readonly fate: "outside-root" }
  /** A folder where a file was claimed. */
  | { readonly fate: "folder" }
  /** Anything else that is no file a return may point to: a FIFO or device, a return file, a NUL byte, an unreadable path. */
  | { readonly fate: "invalid"; readonly problem: FileProblem };

export type FateName = ArtifactFate["fate"];

/**
 * How many different paths one return's artifacts are looked up by: a return is judged on the
 * artifacts it names, each path once however often it is named, and a return naming more paths
 * than this is no account of work (the artifacts rule fails it, `tooManyArtifacts`), so that a
 * ten-megabyte list of made-up paths costs a bounded number of system calls, not one per entry.
 */
export const MAX_ARTIFACT_PATHS = 10_000;

/**
 * What an entry of `artifacts` names, as the artifacts rule reads it: a bare path (itself a
 * finding), or an object's `path`. An entry that names no path is the rule's to report, not a
 * claim of a file.
 */
export function artifactPath(entry: unknown): string | undefined {
  if (typeof entry === "string") return entry;
  return isObject(entry) && typeof entry.path === "string" ? entry.path : undefined;
}

/** The files a return names, each looked up once: the first MAX_ARTIFACT_PATHS different paths. */
export interface JudgedPaths {
  /** How many entries name a path past those: a rule fails the return, since it was not judged whole. */
  readonly unjudged: number;
  /** What the view says of `path`, asked once however often it is named; undefined for a path past the limit. */
  check(path: string): FileCheck | undefined;
}

/**
 * The paths a rule looks up: each once however often it is named (a list of a million entries
 * naming one file costs one lookup), and the first MAX_ARTIFACT_PATHS different ones, so that a
 * ten-megabyte list of made-up paths costs a bounded number of lookups. A rule says `unjudged`
 * before its other findings, so that it is never cut off by the runner's listing limits.
 */
export function judgedPaths(paths: Iterable<string | undefined>, files: FileView): JudgedPaths {
  const judged = new Map<string, FileCheck | undefined>();
  let unjudged = 0;
  for (const path of paths) {
    if (path === undefined || judged.has(path)) continue;
    if (judged.size < MAX_ARTIFACT_PATHS) judged.set(path, undefined);
    else unjudged += 1;
  }
  return {
    unjudged,
    check(path) {
      if (!judged.has(path)) return undefined;
      let checked = judged.get(path);
      if (checked === undefined) {
        checked = files.check(path);
        judged.set(path, checked);
      }
      return checked;
    },
  };
}

/**
 * The fates that mean the claimed file is not there inside the root: what phantom work is made of.
 * A near miss is one of them (the file claimed does not exist; a neighbour's name is only a hint,
 * and often an older report of the same task), as is an empty file. An archived file, an absolute
 * path to a file inside the root, a folder or a path outside the root are something else, and are
 * reported as what they are.
 */
export const ABSENT_FATES: ReadonlySet<FateName> = new Set<FateName>(["missing", "near-miss", "empty"]);

/** `specs/{N}_{SLUG}/rest` (not already archived): the task folder and the rest of the path. */
const IN_TASK_FOLDER = new RegExp(`^${SPECS_DIR}/(?!${ARCHIVE_DIR}/)(\\d+_[^/]+)/(.+)$`);

/** How many trailing parts of an absolute path are tried inside the root, at most. */
const MAX_SUFFIXES = 16;

/**
 * The fate of one claimed path, from the evidence in this order:
 *
 * 1. the view finds a regular file there: it exists (or is empty);
 * 2. the path is absolute or home-relative: absolute, with the path inside the root that holds the
 *    same file when there is one (the root's own prefix taken off, else the longest trailing part
 *    of two names or more that is a file: `/home/u/repo/specs/1_x/a.md` → `specs/1_x/a.md`);
 * 3. it leads outside the root: outside-root;
 * 4. it names a folder: folder;
 * 5. it is not found: archived when its task folder's archived twin holds it
 *    (`specs/archive/{N}_{SLUG}/…`), a near miss when its folder holds a name a typo away (an edit
 *    for every five characters of a name of eight or more), else missing;
 * 6. anything else: invalid, with the view's reason.
 *
 * `hints: false` looks at the claimed path alone (no archived twin, no near miss, no path inside
 * the root for an absolute one): for a return that claims more artifacts than are worth a hint.
 * `alsoClaimed` is the return's list of claimed artifacts: a neighbour it claims too is no near
 * miss (the file claimed is simply missing).
 */
export function fateOf(claimed: string, files: FileView, options: { readonly hints?: boolean; readonly alsoClaimed?: ClaimedList } = {}): ArtifactFate {
  const checked = files.check(claimed);
  // Without hints (the thousandth missing artifact of a return), no other path is looked at: the fate the view gives.
  if (options.hints === false && !checked.ok) return checked.problem === "notFound" ? { fate: "missing" } : plainFate(checked.problem, checked.kind);
  if (checked.ok) return checked.size > 0 ? { fate: "exists", size: checked.size } : { fate: "empty" };
  switch (checked.problem) {
    case "absolute":
    case "homeRelative":
      return absoluteFate(claimed, files);
    case "escapesRoot":
    case "symlinkEscapesRoot":
      return { fate: "outside-root" };
    case "notAFile":
      return checked.kind === "directory" ? { fate: "folder" } : { fate: "invalid", problem: "notAFile" };
    case "notFound":
      return notFoundFate(claimed, files, options.alsoClaimed);
    default:
      return { fate: "invalid", problem: checked.problem };
  }
}

function plainFate(problem: FileProblem, kind: string | undefined): ArtifactFate {
  if (problem === "absolute" || problem === "homeRelative") return { fate: "absolute" };
  if (problem === "escapesRoot" || problem === "symlinkEscapesRoot") return { fate: "outside-root" };
  if (problem === "notAFile" && kind === "directory") return { fate: "folder" };
  return { fate: "invalid", problem };
}

function absoluteFate(claimed: string, files: FileView): ArtifactFate {
  const names = claimed.split(/[\\/]+/).filter((name) => name !== "" && name !== "~");
  const root = files.root.split(/[\\/]+/).filter((name) => name !== "");
  const underRoot = root.length < names.length && root.every((name, index) => names[index] === name);
  const candidates = underRoot ? [names.slice(root.length).join("/")] : trailingParts(names);
  const insideRoot = candidates.find((candidate) => files.check(candidate).ok);
  return insideRoot === undefined ? { fate: "absolute" } : { fate: "absolute", insideRoot };
}

/** The trailing parts of a path's names, longest first, two names at least. */
function trailingParts(names: readonly string[]): string[] {
  const parts: string[] = [];
  for (let start = 1; start <= names.length - 2 && parts.length < MAX_SUFFIXES; start += 1) parts.push(names.slice(start).join("/"));
  return parts;
}

/** Where a path in a task folder (`specs/{N}_{SLUG}/rest`) is once its task is archived (`specs/archive/{N}_{SLUG}/rest`); undefined for any other path. */
export function archivedPath(claimed: string): string | undefined {
  const inTask = IN_TASK_FOLDER.exec(claimed);
  return inTask === null ? undefined : `${SPECS_DIR}/${ARCHIVE_DIR}/${inTask[1] ?? ""}/${inTask[2] ?? ""}`;
}

/** A return's list of claimed artifacts, as the claims give it (read more than once). */
type ClaimedList = Iterable<{ readonly path: string }> & object;

/** The paths of each list, made when a near miss first asks: the artifacts rule and the facts read one return's list alike. */
const CLAIMED_PATHS = new WeakMap<ClaimedList, ReadonlySet<string>>();

function claimedPaths(list: ClaimedList): ReadonlySet<string> {
  let paths = CLAIMED_PATHS.get(list);
  if (paths === undefined) {
    paths = new Set(Array.from(list, (entry) => entry.path));
    CLAIMED_PATHS.set(list, paths);
  }
  return paths;
}

function notFoundFate(claimed: string, files: FileView, alsoClaimed: ClaimedList | undefined): ArtifactFate {
  const movedTo = archivedPath(claimed);
  if (movedTo !== undefined && files.check(movedTo).ok) return { fate: "archived", movedTo };
  const slash = claimed.lastIndexOf("/");
  const folder = slash === -1 ? "" : claimed.slice(0, slash);
  const name = claimed.slice(slash + 1);
  const names = files.list?.(folder);
  if (names === undefined || names === null || name === "") return { fate: "missing" };
  const near = nearestName(name, names);
  if (near === undefined) return { fate: "missing" };
  const didYouMean = folder === "" ? near : `${folder}/${near}`;
  if (alsoClaimed !== undefined && claimedPaths(alsoClaimed).has(didYouMean)) return { fate: "missing" };
  return files.check(didYouMean).ok ? { fate: "near-miss", didYouMean } : { fate: "missing" };
}

/** Names shorter than this get no near miss: `a.md` is one letter from `b.md`, and that says nothing. */
const MIN_HINTED_NAME = 8;

/** The name in a folder one typo away from `name` (an edit for every five characters, at most), if one is. */
function nearestName(name: string, names: readonly string[]): string | undefined {
  if (name.length < MIN_HINTED_NAME) return undefined;
  const bound = Math.floor(name.length / 5);
  let best: string | undefined;
  let bestDistance = bound + 1;
  for (const candidate of names) {
    // The distance is at least the difference in length.
    if (candidate === name || candidate === METADATA_FILE || Math.abs(candidate.length - name.length) > bound) continue;
    const distance = editDistance(name, candidate);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}
