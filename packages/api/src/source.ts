import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { formatOfFileName, isReturnlintError, METADATA_FILE, relativeInside, SPECS_DIR, ReturnlintError, taskOfPath, type GitObjectCache, type Identity } from "@returnlint/core";
import { readReturnFile } from "./input.js";
import { MetadataFile, openTask } from "./tasks.js";

/**
 * Where a return comes from: what the caller read, or knows is not there. Sources are data; `lint`
 * opens nothing itself. Every caller (check, scan, audit, the hosts, the MCP server) makes sources
 * with the openers below and hands them to `lint`, which is the only place the rules are run.
 */
export type ReturnSource = TextSource | FileSource | MissingSource | GitSource;

interface Named {
  /** What output calls it: a path relative to the cwd, "<stdin>", "message", … */
  readonly name: string;
  /** The task the return is for (`check --task N`, or the task folder its path is in). */
  readonly task?: string;
}

/**
 * Text from a channel: standard input, a subagent's final message, a tool's argument, a file
 * with an ordinary name. The return may sit inside prose (a fenced block, a `<task_result>`),
 * and its format is told by its content.
 */
export interface TextSource extends Named {
  readonly kind: "text";
  readonly text: string;
  /** The file it was read from, if any: an artifact naming that file is not work. */
  readonly identity?: Identity;
  /**
   * Where the return is when the text holds none (a subagent's prose that names the metadata
   * file it wrote): asked only then; undefined when it is nowhere else either.
   */
  readonly otherwise?: () => ReturnSource | undefined;
}

/**
 * A return file (`.return-meta.json`, `.orchestrator-handoff.json`, `.return-meta-multi*.json`):
 * the return is its whole content, and its name says its format.
 */
export interface FileSource extends Named {
  readonly kind: "file";
  readonly text: string;
  /** Its path below the project root, "/"-separated, when it is inside it: rules look beside it. */
  readonly path?: string;
  readonly identity?: Identity;
  /** The file, still open, for a caller that deletes it once it passed (`check --consume`). */
  readonly held?: MetadataFile;
}

/**
 * A metadata file that should hold the return and is not there (the agent wrote none, or it was
 * consumed), or is there but may not be read (`unreadable`: why).
 */
export interface MissingSource extends Named {
  readonly kind: "missing";
  readonly unreadable?: string;
}

/** A return file as a commit holds it: checked against that commit's tree, not the disk. */
export interface GitSource extends Named {
  readonly kind: "git";
  readonly text: string;
  /** Its path in the repository. */
  readonly path: string;
  readonly commit: string;
  /** The commit's root tree. */
  readonly tree: string;
  /** The commit's time, milliseconds since the epoch: what time-dependent rules take as now. */
  readonly time: number;
  /** The repository's objects, shared by every source of one audit. */
  readonly cache: GitObjectCache;
}

/** Text from a channel, named as output should call it. */
export function textSource(text: string, name = "<text>"): TextSource {
  return { kind: "text", text, name };
}

/** A return file's version in a commit (`audit`): its text, and the commit whose tree its artifacts are looked for in. */
export function gitSource(blob: Omit<GitSource, "kind" | "name" | "task">): GitSource {
  const task = taskIn(blob.path);
  return { kind: "git", name: blob.path, ...blob, ...(task === undefined ? {} : { task }) };
}

/** Where a file is, and how output names it. */
interface Place {
  /** The project root: artifact paths are relative to it. */
  readonly root: string;
  /** What names are shown relative to (default: the root). */
  readonly cwd?: string;
}

/**
 * The return in FILE. A file named like a return file is a file source (its whole content, its
 * format by its name); any other file holds a console return, maybe inside prose. A
 * `.return-meta.json` that is not there, in a folder that is, is the agent's missing return;
 * any other path that cannot be read is an error (INPUT_UNREADABLE).
 */
export function openReturnFile(file: string, place: Place): ReturnSource {
  const absolute = path.resolve(place.cwd ?? place.root, file);
  const name = shownName(absolute, place);
  const below = relativeInside(place.root, absolute);
  const task = below === undefined ? undefined : taskIn(below);
  if (path.basename(absolute) === METADATA_FILE && !existsSync(absolute) && isDirectory(path.dirname(absolute))) return missing(name, task);
  const { text, identity } = readReturnFile(absolute);
  if (formatOfFileName(path.basename(absolute)) === undefined) return { kind: "text", text, name, ...(identity === undefined ? {} : { identity }) };
  return { kind: "file", text, name, ...(below === undefined ? {} : { path: slashed(below) }), ...(identity === undefined ? {} : { identity }), ...(task === undefined ? {} : { task }) };
}

const NOT_FOLLOWED = { followSymlink: false } as const;

/**
 * A return file a walk found (`scan`), opened as it was listed: a symbolic link swapped in since
 * is refused. `name` is how output shows it, `below` its path below the project root; `maxBytes`
 * the input limit (`maxInputBytes()`), read once by a caller that opens many.
 */
export function openWalkedFile(file: string, place: { readonly name: string; readonly below: string | undefined; readonly maxBytes?: number }): FileSource {
  const { name, below, maxBytes } = place;
  const { text } = readReturnFile(file, maxBytes === undefined ? NOT_FOLLOWED : { followSymlink: false, maxBytes });
  // One object of one shape per walked file: a scan opens thousands.
  return { kind: "file", text, name, path: below === undefined ? undefined : slashed(below), task: below === undefined ? undefined : taskIn(below) };
}

/**
 * FILE, inside the root, read through real folders only (a symbolic link on the way is refused:
 * it may lead into another project), as `openReturnFile` would name and classify it. `keepOpen`
 * holds a return file open, so that the very file checked is the one a caller deletes
 * (`check --consume`).
 */
export function openInsideRoot(file: string, place: Place & { readonly keepOpen?: boolean }): ReturnSource {
  // No file has such a name; the system's own error would name a path of returnlint's making.
  if (file.includes("\0")) throw new ReturnlintError("USAGE", "The path has a NUL character in it, which no file name can hold; give the path of the return file.");
  const absolute = path.resolve(place.cwd ?? place.root, file);
  const below = relativeInside(place.root, absolute);
  if (below === undefined || below === "") {
    throw new ReturnlintError("USAGE", `${file} is outside the project root (${place.root}); returnlint reads returns only inside it.`);
  }
  const name = shownName(absolute, place);
  const task = taskIn(below);
  let held: MetadataFile;
  try {
    held = MetadataFile.open(place.root, below.split(path.sep), name);
  } catch (error) {
    if (!isReturnlintError(error) || error.code !== "RETURN_NOT_FOUND") throw error;
    // A metadata file the agent did not write is a finding; any other missing file is a wrong path.
    if (path.basename(below) === METADATA_FILE) return missing(name, task);
    throw new ReturnlintError("INPUT_UNREADABLE", `Cannot read ${name}: there is no such file in the project root.`);
  }
  const returnFile = formatOfFileName(path.basename(below)) !== undefined;
  const keepOpen = returnFile && place.keepOpen === true;
  if (!keepOpen) held.close();
  return returnFile ? opened(held, name, below, task, keepOpen) : { kind: "text", text: held.text, name, identity: held.identity };
}

/**
 * Task N's metadata file (`specs/{N}_{SLUG}/.return-meta.json`, padded or not, archived or not;
 * a folder with only a handoff gives the handoff), held open; a task folder with neither is the
 * agent's missing return. `keepOpen` keeps the file open for the caller to consume or close.
 */
export function openTaskSource(task: string, place: Place & { readonly keepOpen?: boolean }): FileSource | MissingSource {
  const found = openTask(place.root, task);
  if ("missing" in found) return missing(shownName(found.missing, place), task);
  const keepOpen = place.keepOpen === true;
  if (!keepOpen) found.close();
  return opened(found, shownName(found.source, place), relativeInside(place.root, found.source) ?? "", task, keepOpen);
}

/**
 * The metadata file of a task a subagent's message names (its folder below specs/, `{N}_{SLUG}`): in that very
 * folder when it is there, else in the task's folder however it is padded or archived; read
 * through real folders only. Neither there: the agent's missing return, where the message said.
 */
export function openNamedTask(mentioned: string, folder: string, place: Place): FileSource | MissingSource {
  // The task as `--task` names it: `specs/003_x` and "task 3" are one task.
  const task = taskNumber(mentioned);
  const named = path.join(place.root, SPECS_DIR, folder, METADATA_FILE);
  try {
    const file = MetadataFile.open(place.root, [SPECS_DIR, folder, METADATA_FILE], `Task ${task}`);
    file.close();
    return opened(file, shownName(named, place), relativeInside(place.root, named) ?? "", task, false);
  } catch (error) {
    if (!isReturnlintError(error)) throw error;
    // There, but not the safe way (a task folder that is a link, a file too large): the return is refused, and says why.
    if (error.code !== "RETURN_NOT_FOUND") return { ...missing(shownName(named, place), task), unreadable: error.message };
  }
  let found: FileSource | MissingSource;
  try {
    found = openTaskSource(task, place);
  } catch (error) {
    if (!isReturnlintError(error) || error.code !== "INPUT_UNREADABLE") throw error;
    // No folder for the task at all (nor specs/): the return is missing where the message said; a task whose folder cannot be told is refused, and says why.
    return isDirectory(path.dirname(named)) ? { ...missing(shownName(named, place), task), unreadable: error.message } : missing(shownName(named, place), task);
  }
  return found.kind === "missing" ? missing(shownName(named, place), task) : found;
}

/**
 * A return file a subagent wrote during its run (its transcript says so), inside the root. One it
 * left where it may not be read the safe way (a task folder that is a link, a file too large) is
 * its finding, as for a task its message names: the return is refused and says why.
 */
export function openWrittenReturn(file: string, place: Place): ReturnSource {
  try {
    return openInsideRoot(file, place);
  } catch (error) {
    if (!isReturnlintError(error) || error.code === "USAGE") throw error;
    const below = relativeInside(place.root, path.resolve(place.root, file)) ?? "";
    return { ...missing(shownName(path.resolve(place.root, file), place), taskIn(below)), unreadable: error.message };
  }
}

/** A return file opened through real folders; `keepOpen`: still open, for the caller to consume or close. */
function opened(file: MetadataFile, name: string, below: string, task: string | undefined, keepOpen: boolean): FileSource {
  return { kind: "file", text: file.text, name, path: slashed(below), identity: file.identity, ...(keepOpen ? { held: file } : {}), ...(task === undefined ? {} : { task }) };
}

function missing(name: string, task: string | undefined): MissingSource {
  return { kind: "missing", name, ...(task === undefined ? {} : { task }) };
}

/** A path as output shows it: relative to the cwd (or the root). */
function shownName(absolute: string, place: Place): string {
  return path.relative(place.cwd ?? place.root, absolute) || absolute;
}

/** The task a return file's path is in (`specs/042_x/.return-meta.json` → "42"), as `--task` names it. */
function taskIn(file: string): string | undefined {
  const task = taskOfPath(file);
  return task === undefined ? undefined : taskNumber(task);
}

/** A task's digits without the padding of its folder (`042` → "42"). */
function taskNumber(digits: string): string {
  return String(Number(digits));
}

function slashed(relative: string): string {
  return path.sep === "/" ? relative : relative.replaceAll(path.sep, "/");
}

function isDirectory(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}
