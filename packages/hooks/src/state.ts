import { closeSync } from "node:fs";
import path from "node:path";
import { codeOf, isObject, readPrefix, ReturnlintError, SafeDir, UnsafePathError } from "@returnlint/core";
import { withLock } from "./lock.js";
import { environmentError } from "@returnlint/api";

/**
 * The hook's own state, under `.returnlint/` in the project: a ledger of attempts
 * per session and agent, and one verdict file per validated return. Parallel
 * subagents run their stop hooks at the same time, so every file is replaced
 * atomically (temp file + rename) and the ledger's read-modify-write holds a lock.
 *
 * A subagent can write in the project, so it can plant symlinks here: every name is
 * reached through descriptors of real directories (core's SafeDir), `.returnlint` and
 * `verdicts` must be real directories, files are created with O_EXCL and O_NOFOLLOW,
 * and a symlink by a file's name is replaced, never followed.
 */
export const STATE_DIR = ".returnlint";

const LEDGER_KEEP_MS = 7 * 24 * 60 * 60 * 1000;
const LEDGER = "ledger.json";
/** The ledger is small; a larger one is someone else's file and is started afresh. */
const MAX_LEDGER_BYTES = 16 * 1024 * 1024;

/**
 * Opens (creating it when missing) the state directory `stateDir`, a real directory,
 * with a .gitignore so that its files are never committed by accident; throws a sentence
 * when it is a symlink or cannot be made. The caller closes it.
 */
export function openStateDir(stateDir: string): SafeDir {
  let project: SafeDir;
  try {
    project = SafeDir.open(path.dirname(stateDir));
  } catch (error) {
    throw environmentError(`open the project ${path.dirname(stateDir)}`, error);
  }
  try {
    const state = project.child(path.basename(stateDir), { create: true });
    // Anything by that name (a symlink included) is left as it is.
    if (state.lstat(".gitignore") === undefined) {
      try {
        state.createExclusive(".gitignore", "# Written by returnlint hook: runtime state, not source.\n*\n");
      } catch (error) {
        if (codeOf(error) !== "EEXIST") throw error;
      }
    }
    return state;
  } catch (error) {
    throw stateError(stateDir, error);
  } finally {
    project.close();
  }
}

function stateError(where: string, error: unknown): ReturnlintError {
  if (error instanceof UnsafePathError) {
    return new ReturnlintError(
      "ENVIRONMENT",
      `Cannot keep the hook's state in ${where}: ${error.message}. returnlint writes its state only into real directories, never through a link (a subagent may have planted it); remove it.`,
    );
  }
  return environmentError(`keep the hook's state in ${where}`, error);
}

/** Replaces `<state>/<names…>` (its folders are made, real directories only) with `content`. */
export function writeStateFile(state: SafeDir, names: readonly string[], content: string): void {
  let dir = state;
  try {
    for (const name of names.slice(0, -1)) {
      const child = dir.child(name, { create: true });
      if (dir !== state) dir.close();
      dir = child;
    }
    dir.replace(names.at(-1) ?? "", content);
  } catch (error) {
    throw stateError(path.join(state.real, ...names.slice(0, -1)), error);
  } finally {
    if (dir !== state) dir.close();
  }
}

/** One subagent's current run of attempts: it ends when a return passes or the hook lets it stop. */
export interface LedgerEntry {
  readonly sessionId: string;
  readonly agent: string;
  /** Returns validated in this run, passes included. */
  readonly attempts: number;
  /** Times the hook blocked the stop in this run. */
  readonly blocks: number;
  /** A digest of the problems last sent back, to stop when the same feedback would be sent twice. */
  readonly lastProblems: string | null;
  /** False once the run ended; the next stop starts a new run. */
  readonly open: boolean;
  readonly updatedAt: string;
}

interface Ledger {
  readonly version: 1;
  readonly entries: Record<string, unknown>;
}

/**
 * The open entry for `key`, read without the lock (the ledger is replaced whole, so this is one
 * version of it): undefined when this agent has no run in progress. Only the agent itself
 * changes its entry, and its stops come one after another.
 */
export function openEntry(dir: SafeDir, key: string): LedgerEntry | undefined {
  return openEntryIn(readLedger(dir), key);
}

function openEntryIn(ledger: Ledger, key: string): LedgerEntry | undefined {
  const current = Object.hasOwn(ledger.entries, key) ? ledger.entries[key] : undefined;
  return isOpenEntry(current) ? current : undefined;
}

/**
 * Reads the entry for `key`, lets `update` decide the next one, and writes it back,
 * all under the ledger's lock. Entries older than a week are dropped on the way.
 */
export async function updateLedger<T>(
  dir: SafeDir,
  key: string,
  update: (entry: LedgerEntry | undefined) => { entry: LedgerEntry; result: T },
): Promise<T> {
  return await withLock(dir, "ledger.lock", () => {
    const ledger = readLedger(dir);
    const { entry, result } = update(openEntryIn(ledger, key));
    const cutoff = Date.now() - LEDGER_KEEP_MS;
    // Keys are session and agent names: a map without a prototype keeps "__proto__" a name.
    const entries = Object.create(null) as Record<string, unknown>;
    for (const [other, value] of Object.entries(ledger.entries)) {
      if (isObject(value) && typeof value.updatedAt === "string" && Date.parse(value.updatedAt) >= cutoff) entries[other] = value;
    }
    entries[key] = entry;
    try {
      dir.replace(LEDGER, `${JSON.stringify({ version: 1, entries } satisfies Ledger, null, 2)}\n`);
    } catch (error) {
      throw stateError(dir.real, error);
    }
    return result;
  });
}

/** The ledger, or a fresh one when it is missing, unreadable, not a regular file or not a ledger: it only bounds retries. */
function readLedger(dir: SafeDir): Ledger {
  const fresh = (): Ledger => ({ version: 1, entries: Object.create(null) as Record<string, unknown> });
  // Absent at most stops (no run in progress): asked without opening it, which would make an exception for ENOENT.
  if (dir.lstat(LEDGER) === undefined) return fresh();
  let text: string;
  try {
    const { fd, stats } = dir.openFile(LEDGER);
    try {
      if (stats.size > MAX_LEDGER_BYTES) return fresh();
      text = readPrefix(fd, stats.size).toString("utf8");
    } finally {
      closeSync(fd);
    }
  } catch {
    return fresh();
  }
  try {
    const value = JSON.parse(text) as unknown;
    if (isObject(value) && isObject(value.entries)) return { version: 1, entries: Object.assign(Object.create(null) as Record<string, unknown>, value.entries) };
  } catch {
    // Fall through: unreadable is the same as absent.
  }
  return fresh();
}

function isOpenEntry(entry: unknown): entry is LedgerEntry {
  return isObject(entry) && entry.open === true && typeof entry.attempts === "number" && typeof entry.blocks === "number";
}

/**
 * The time `ms` as `Date.prototype.toISOString` writes it (UTC, milliseconds, `Z`), written field by
 * field: on Node 20, `toISOString` first works out the host's time zone, which reads its zone files
 * at every subagent stop for a timestamp that never uses them.
 */
export function isoTimestamp(ms: number): string {
  const date = new Date(ms);
  const two = (value: number) => String(value).padStart(2, "0");
  const day = `${String(date.getUTCFullYear()).padStart(4, "0")}-${two(date.getUTCMonth() + 1)}-${two(date.getUTCDate())}`;
  return `${day}T${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())}.${String(date.getUTCMilliseconds()).padStart(3, "0")}Z`;
}

/** A file name made of the parts, safe on every file system. */
export function safeName(...parts: readonly string[]): string {
  return parts.map((part) => part.replace(/[^\w.-]+/g, "_").replace(/^\.+/, "_").slice(0, 80)).join("--");
}
