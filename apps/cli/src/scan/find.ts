import { isReturnlintError } from "@returnlint/core";
import { openWalkedFile, type FileSource } from "@returnlint/api";
import { relativeBelow } from "./names.js";
import { walkEntry, type TopEntry } from "./walk.js";

/** Where a scan looks, and how it names what it finds. Plain data: it crosses into the finding thread. */
export interface FindPlace {
  /** The folder walked (resolved). */
  readonly dir: string;
  /** Output names files relative to it. */
  readonly cwd: string;
  /** The project root: artifact paths and folder listings are relative to it. */
  readonly root: string;
  /** RETURNLINT_MAX_INPUT_BYTES, read once; undefined: each file's read says what is wrong with it. */
  readonly maxBytes: number | undefined;
}

/** A return file read, ready to lint. */
export interface FoundSource {
  readonly source: FileSource;
}

/** A return file that could not be read, and why (the sentence scan prints). */
export interface Unreadable {
  readonly source: string;
  readonly unreadable: string;
}

/** What a folder that holds a return listed, by its path below the root: the file view needs no lookup for a name not in it. */
export interface Listing {
  readonly listed: string;
  readonly names: readonly string[];
}

/** A folder the walk could not read. */
export interface WalkProblem {
  readonly where: string;
  readonly reason: string;
}

/** What the walk finds, in the order it finds it: a folder's listing comes before the returns in it. */
export type Found = FoundSource | Unreadable | Listing | WalkProblem;

/**
 * The returns in `entries` of `place.dir` (scan/walk.ts), each return file read, never through a
 * symlink (api's `openWalkedFile`): the part of a scan that is file system calls and no rule. The
 * scan's thread runs it, and the finding thread (find-thread.ts) for the entries handed to it.
 */
export function* findIn(place: FindPlace, entries: Iterable<TopEntry>): Generator<Found> {
  const { dir, cwd, root, maxBytes } = place;
  const belowCwd = relativeBelow(cwd, dir);
  const belowRoot = relativeBelow(root, dir);
  // The walk reports listings and problems through callbacks, between the files it yields.
  const told: Found[] = [];
  const onProblem = (where: string, reason: string): void => {
    told.push({ where, reason });
  };
  const onListing = (folder: string, names: readonly string[]): void => {
    const listed = belowRoot(folder);
    if (listed !== undefined) told.push({ listed, names });
  };
  for (const entry of entries) {
    for (const file of walkEntry(dir, entry, onProblem, onListing)) {
      if (told.length > 0) yield* told.splice(0);
      const name = belowCwd(file) ?? file;
      try {
        yield { source: openWalkedFile(file, { name, below: belowRoot(file), maxBytes }) };
      } catch (error) {
        yield { source: name, unreadable: isReturnlintError(error) ? error.message : `Cannot read ${file}: ${String(error)}.` };
      }
    }
    if (told.length > 0) yield* told.splice(0);
  }
}
