import { opendirSync, readdirSync, type Dir, type Dirent } from "node:fs";
import path from "node:path";
import { formatOfFileName } from "@returnlint/core";
import { below } from "./names.js";

/**
 * Every return file (a name core's `formatOfFileName` knows: `.return-meta.json`, `.orchestrator-handoff.json`, `.return-meta-multi*.json`) below
 * `dir`, depth first. Symlinks (to directories or files) are never followed, so a link
 * loop cannot trap the walk. The directory that grows with the project, `dir` itself
 * (one folder per task), is streamed entry by entry; the folders below it are small and
 * are each listed in one call, which costs a third of the CPU of a directory handle
 * (Node 20). The calls are synchronous on purpose: a directory read is a few
 * microseconds, a round trip through libuv's thread pool tens of them, and the walk
 * only advances as fast as the checks consume it. `onListing` is told what each folder
 * listed in one call held, if it holds a return file, before that file is yielded: a folder
 * a return is in is the one rules ask about by names that may not be there (a marker).
 */
export function* walkReturnFiles(
  dir: string,
  onProblem: (dir: string, reason: string) => void,
  onListing?: (dir: string, names: readonly string[]) => void,
): Generator<string> {
  let handle: Dir;
  try {
    handle = opendirSync(dir, { bufferSize: 256 });
  } catch (error) {
    onProblem(dir, reasonOf(error));
    return;
  }
  const prefix = below(dir);
  try {
    for (let entry = handle.readSync(); entry !== null; entry = handle.readSync()) {
      if (entry.isDirectory()) yield* folder(prefix + entry.name, onProblem, onListing);
      else if (isReturnFile(entry)) yield prefix + entry.name;
    }
  } catch (error) {
    onProblem(dir, reasonOf(error));
  } finally {
    handle.closeSync();
  }
}

/** The return files in a folder below `dir` and in its own folders: one generator per folder, none per file. */
function* folder(
  dir: string,
  onProblem: (dir: string, reason: string) => void,
  onListing: ((dir: string, names: readonly string[]) => void) | undefined,
): Generator<string> {
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
