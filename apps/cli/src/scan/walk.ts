import { opendirSync, readdirSync, type Dir, type Dirent } from "node:fs";
import path from "node:path";
import { formatOfFileName } from "@returnlint/core";
import { below } from "./names.js";

/** An entry of the scanned folder that may hold returns: a folder (a task's, usually) or a return file. Plain data. */
export interface TopEntry {
  readonly name: string;
  readonly folder: boolean;
}

type OnProblem = (dir: string, reason: string) => void;
type OnListing = (dir: string, names: readonly string[]) => void;

/**
 * The entries of `dir` a walk goes into, in the order the system lists them: folders and files
 * named like a return (core's `formatOfFileName`: `.return-meta.json`,
 * `.orchestrator-handoff.json`, `.return-meta-multi*.json`). Symlinks (to directories or files)
 * are never followed, so a link loop cannot trap the walk. This is the folder that grows with
 * the project (one folder per task), so it is streamed entry by entry.
 */
export function* topEntries(dir: string, onProblem: OnProblem): Generator<TopEntry> {
  let handle: Dir;
  try {
    handle = opendirSync(dir, { bufferSize: 256 });
  } catch (error) {
    onProblem(dir, reasonOf(error));
    return;
  }
  try {
    for (let entry = handle.readSync(); entry !== null; entry = handle.readSync()) {
      if (entry.isDirectory()) yield { name: entry.name, folder: true };
      else if (isReturnFile(entry)) yield { name: entry.name, folder: false };
    }
  } catch (error) {
    onProblem(dir, reasonOf(error));
  } finally {
    handle.closeSync();
  }
}

/**
 * Every return file in `entry` of `dir` (the file itself, or the files below the folder), depth
 * first. The folders below `dir` are small and are each listed in one call, which costs a third
 * of the CPU of a directory handle (Node 20). The calls are synchronous on purpose: a directory
 * read is a few microseconds, a round trip through libuv's thread pool tens of them. `onListing`
 * is told what each folder listed in one call held, if it holds a return file, before that file
 * is yielded: a folder a return is in is the one rules ask about by names that may not be there
 * (a marker).
 */
export function* walkEntry(dir: string, entry: TopEntry, onProblem: OnProblem, onListing?: OnListing): Generator<string> {
  if (entry.folder) yield* folder(below(dir) + entry.name, onProblem, onListing);
  else yield below(dir) + entry.name;
}

/** The return files in a folder below `dir` and in its own folders: one generator per folder, none per file. */
function* folder(dir: string, onProblem: OnProblem, onListing: OnListing | undefined): Generator<string> {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    onProblem(dir, reasonOf(error));
    return;
  }
  const prefix = dir + path.sep;
  let told = false;
  for (const entry of entries) {
    if (entry.isDirectory()) yield* folder(prefix + entry.name, onProblem, onListing);
    else if (isReturnFile(entry)) {
      if (!told) onListing?.(dir, entries.map(nameOf));
      told = true;
      yield prefix + entry.name;
    }
  }
}

function nameOf(entry: Dirent): string {
  return entry.name;
}

/** A regular file (never a symlink) named like a return. */
function isReturnFile(entry: Dirent): boolean {
  return entry.isFile() && formatOfFileName(entry.name) !== undefined;
}

function reasonOf(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "EACCES") return "permission denied";
  if (code === "ENOENT") return "it disappeared during the scan";
  return error instanceof Error ? error.message : String(error);
}
