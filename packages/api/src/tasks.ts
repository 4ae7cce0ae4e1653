import { closeSync, type Stats } from "node:fs";
import path from "node:path";
import { ARCHIVE_DIR, HANDOFF_FILE, METADATA_FILE, SPECS_DIR, taskOfFolder, codeOf, decodeUtf8, isObject, readPrefix, ReturnlintError, SafeDir, sameFile, uniqueSuffix, UnsafePathError, type Identity } from "@returnlint/core";
import { environmentError, systemReason } from "./environment.js";
import { maxInputBytes, tooLarge, type ReturnInput } from "./input.js";

const MAX_TASKS = 1000;

/**
 * `--task` values: `7`, `343-345`, or `337, 343-345, 350` (the range format
 * orchestration-validation.md validates). Duplicates are dropped, order is kept.
 */
export function parseTaskList(value: string): string[] {
  if (!/^[0-9,\s-]+$/.test(value) || value.trim() === "") {
    throw new ReturnlintError("USAGE", `Invalid --task "${value}": use a task number, a range (343-345) or a list (337, 343-345, 350).`);
  }
  const tasks = new Set<string>();
  for (const part of value.split(",").map((piece) => piece.trim())) {
    const range = /^(\d+)(?:\s*-\s*(\d+))?$/.exec(part);
    if (range === null) throw new ReturnlintError("USAGE", `Invalid --task "${value}": "${part}" is not a number or a range.`);
    const first = Number(range[1]);
    const last = range[2] === undefined ? first : Number(range[2]);
    if (last < first) throw new ReturnlintError("USAGE", `Invalid --task "${value}": the range ${part} runs backwards.`);
    if (last - first >= MAX_TASKS) throw new ReturnlintError("USAGE", `Invalid --task "${value}": ${part} is more than ${String(MAX_TASKS)} tasks; use "returnlint scan".`);
    for (let task = first; task <= last; task += 1) tasks.add(String(task));
  }
  return [...tasks];
}


/**
 * A metadata file opened inside the project through real directories only: the root
 * (the user's, symlinks and all), then each folder below it opened without following
 * a symlink, and the file itself with O_NOFOLLOW. It stays open until it is consumed
 * or closed, so that `consume` deletes the very file that was checked.
 */
export class MetadataFile implements ReturnInput {
  private constructor(
    readonly text: string,
    /** The absolute path, as it is shown. */
    readonly source: string,
    private readonly dir: SafeDir,
    private readonly name: string,
    private readonly fd: number,
    private readonly stats: Stats,
    private readonly bytes: Buffer,
  ) {}

  get identity(): Identity {
    return { dev: this.stats.dev, ino: this.stats.ino };
  }

  /**
   * Opens `root/<names...>`. A symlink anywhere below the root is refused with a
   * sentence (it may lead into another project); a missing file is RETURN_NOT_FOUND.
   */
  static open(root: string, names: readonly string[], what: string): MetadataFile {
    const shown = path.join(root, ...names);
    const relative = names.join("/");
    let opened: Inside;
    try {
      opened = openInside(root, names);
    } catch (error) {
      if (!(error instanceof UnsafePathError)) throw error instanceof ReturnlintError ? error : new ReturnlintError("INPUT_UNREADABLE", `Cannot read ${shown}: ${systemReason(error)}.`);
      if (error.kind === "missing") {
        throw new ReturnlintError("RETURN_NOT_FOUND", `${what}: no return metadata file at ${relative}. The agent wrote no return, or a postflight already consumed it.`);
      }
      const where = names.slice(0, names.indexOf(error.at) + 1).join("/") || error.at;
      const why = error.kind === "symlink" ? "is a symbolic link" : error.kind === "changed" ? "changed while it was opened" : "is not a regular file or folder";
      throw new ReturnlintError(
        "INPUT_UNREADABLE",
        `${what}: refusing to read ${relative}: ${where} ${why}. returnlint reads a metadata file only through real folders inside the project (a link may lead into another project).`,
      );
    }
    const { dir, name, fd, stats } = opened;
    try {
      // A file with another name may be that name outside the root: its content is not read, as an artifact's is not (files.ts).
      if (stats.nlink > 1) {
        throw new ReturnlintError(
          "INPUT_UNREADABLE",
          `${what}: refusing to read ${relative}: it is a hard link (the file has ${String(stats.nlink)} names), and another of its names may be outside the project. Write the return as a file of its own.`,
        );
      }
      const limit = maxInputBytes();
      if (stats.size > limit) throw tooLarge(shown, limit);
      const bytes = readPrefix(fd, stats.size);
      return new MetadataFile(decodeUtf8(bytes), shown, dir, name, fd, stats, bytes);
    } catch (error) {
      closeSync(fd);
      dir.close();
      throw error;
    }
  }

  /**
   * Deletes the metadata file, if it is still the very file that was read (same device
   * and inode, same bytes). The name is first renamed aside, which exactly one of many
   * processes can do: the others get RETURN_NOT_FOUND, as if they had started later. A
   * file that changed is put back and kept (RETURN_CHANGED).
   */
  consume(): void {
    const { name } = this;
    const aside = `${name}.${uniqueSuffix()}.consumed`;
    try {
      this.dir.rename(name, aside);
    } catch (error) {
      if (codeOf(error) === "ENOENT") {
        throw new ReturnlintError("RETURN_NOT_FOUND", `${this.source} was consumed by another process while this one checked it; this run deleted nothing and gives no verdict.`);
      }
      throw environmentError(`consume ${this.source}`, error);
    }
    const moved = this.dir.lstat(aside);
    const unchanged =
      moved !== undefined &&
      moved.isFile() &&
      sameFile(moved, this.stats) &&
      moved.size === this.bytes.length &&
      readPrefix(this.fd, this.bytes.length + 1).equals(this.bytes);
    if (unchanged) {
      this.dir.unlink(aside);
      return;
    }
    let kept = `it is back at ${this.source}`;
    try {
      this.dir.link(aside, name);
      this.dir.unlink(aside);
    } catch {
      kept = `a new ${name} took its place, so it was kept as ${path.join(path.dirname(this.source), aside)}`;
    }
    throw new ReturnlintError("RETURN_CHANGED", `${this.source} changed while it was being checked, so it was not deleted (${kept}). Check it again.`);
  }

  close(): void {
    closeSync(this.fd);
    this.dir.close();
  }
}

interface Inside {
  readonly dir: SafeDir;
  readonly name: string;
  readonly fd: number;
  readonly stats: Stats;
}

/**
 * Opens the regular file `root/<names…>` through real folders only (UnsafePathError
 * for a symlink or a missing name on the way). The caller closes `fd` and `dir`.
 */
function openInside(root: string, names: readonly string[]): Inside {
  let dir = SafeDir.open(root);
  try {
    for (const name of names.slice(0, -1)) {
      const child = dir.child(name);
      dir.close();
      dir = child;
    }
    const name = names.at(-1) ?? "";
    const { fd, stats } = dir.openFile(name);
    return { dir, name, fd, stats };
  } catch (error) {
    dir.close();
    throw error;
  }
}

/**
 * `--task N`: the metadata file of task N, whose folder may be padded (`specs/007_x`) or not
 * (`specs/7_x`); when the folder has no `.return-meta.json` but an `.orchestrator-handoff.json`
 * (an orchestrated implementation that stopped), that handoff.
 */
export function openTaskReturn(root: string, task: string): MetadataFile {
  if (!/^\d+$/.test(task)) throw new ReturnlintError("USAGE", `--task must be a task number; received "${task}".`);
  const folder = taskFolder(root, task);
  try {
    return MetadataFile.open(root, [SPECS_DIR, ...folder.split("/"), METADATA_FILE], `Task ${task}`);
  } catch (error) {
    if (!(error instanceof ReturnlintError) || error.code !== "RETURN_NOT_FOUND") throw error;
    try {
      return MetadataFile.open(root, [SPECS_DIR, ...folder.split("/"), HANDOFF_FILE], `Task ${task}`);
    } catch (handoffError) {
      if (handoffError instanceof ReturnlintError && handoffError.code === "RETURN_NOT_FOUND") throw error;
      throw handoffError;
    }
  }
}

/** A metadata file that should be there and is not: the agent's missing return (a finding, like any other). */
export interface MissingReturn {
  /** Where the file should be. */
  readonly missing: string;
}

/** Task N's metadata file, held open (see MetadataFile), or where it should be when the task's folder has none. */
export function openTask(root: string, task: string): MetadataFile | MissingReturn {
  try {
    return openTaskReturn(root, task);
  } catch (error) {
    if (!(error instanceof ReturnlintError) || error.code !== "RETURN_NOT_FOUND") throw error;
    return { missing: path.join(root, SPECS_DIR, taskFolder(root, task), METADATA_FILE) };
  }
}

/**
 * The folder of task N below specs/ (`042_slug`, `OC_42_slug`: see taskOfFolder), or below
 * specs/archive/ when the task is finished and archived there (`archive/042_slug`), listed through
 * real folders only. Two folders for one number is an error that names both.
 */
export function taskFolder(root: string, task: string): string {
  const number = Number(task);
  const specs = path.join(root, SPECS_DIR);
  let entries: string[];
  let archived: string[] = [];
  let dir: SafeDir | undefined;
  try {
    dir = SafeDir.open(root).child(SPECS_DIR);
    entries = dir.list();
    if (entries.includes(ARCHIVE_DIR)) archived = archivedFolders(dir);
  } catch (error) {
    if (error instanceof UnsafePathError && error.kind !== "missing") {
      throw new ReturnlintError("INPUT_UNREADABLE", `Cannot find task ${task}: ${specs} is not a real folder (${error.message}); returnlint reads tasks only through real folders inside the project.`);
    }
    throw new ReturnlintError("INPUT_UNREADABLE", `No specs/ directory under ${root}: cannot find task ${task}.`);
  } finally {
    dir?.close();
  }
  const isTask = (name: string) => {
    const found = taskOfFolder(name);
    return found !== undefined && Number(found) === number;
  };
  let matches = entries.filter(isTask);
  if (matches.length === 0) matches = archived.filter(isTask).map((name) => `archive/${name}`);
  if (matches.length === 0) {
    throw new ReturnlintError("INPUT_UNREADABLE", `No directory for task ${task} in ${specs} or ${path.join(specs, ARCHIVE_DIR)} (looked for ${String(number)}_*, zero-padded forms and prefixed ones such as OC_${String(number)}_*).`);
  }
  if (matches.length > 1) {
    const folders = matches.sort().map((name) => `${SPECS_DIR}/${name}`);
    const count = folders.length === 2 ? "Two" : String(folders.length);
    throw new ReturnlintError(
      "INPUT_UNREADABLE",
      `${count} folders are task ${task}: ${folders.slice(0, -1).join(", ")} and ${folders.at(-1) ?? ""}; returnlint cannot tell which holds its return. Check one by its path (returnlint check ${folders[0] ?? ""}/${METADATA_FILE}), or remove the stale one.`,
    );
  }
  return matches[0] ?? "";
}

/** The task folders in specs/archive/, when it is a real folder (a link there is not followed). */
function archivedFolders(specs: SafeDir): string[] {
  let archive: SafeDir | undefined;
  try {
    archive = specs.child(ARCHIVE_DIR);
    return archive.list();
  } catch (error) {
    if (error instanceof UnsafePathError) return [];
    throw error;
  } finally {
    archive?.close();
  }
}

/**
 * The task's type (`meta`, `lean`, …) as specs/state.json records it, if it does:
 * a project entry whose number is the task's, with `task_type`, `type` or `language`.
 */
export function taskTypeFromState(root: string, task: string): string | undefined {
  let state: unknown;
  try {
    const { dir, fd, stats } = openInside(root, [SPECS_DIR, "state.json"]);
    try {
      state = stats.size > maxInputBytes() ? undefined : (JSON.parse(readPrefix(fd, stats.size).toString("utf8")) as unknown);
    } finally {
      closeSync(fd);
      dir.close();
    }
  } catch {
    return undefined;
  }
  if (!isObject(state)) return undefined;
  for (const list of Object.values(state)) {
    if (!Array.isArray(list)) continue;
    for (const entry of list as unknown[]) {
      if (!isObject(entry)) continue;
      const number = entry.project_number ?? entry.task_number ?? entry.number;
      if (String(number) !== task) continue;
      const type = entry.task_type ?? entry.type ?? entry.language;
      return typeof type === "string" ? type : undefined;
    }
  }
  return undefined;
}
