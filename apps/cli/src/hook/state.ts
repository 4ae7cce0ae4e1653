import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { isObject } from "@returnlint/core";
import { withLock, writeFileAtomic } from "../atomic.js";

/**
 * The hook's own state, under `.returnlint/` in the project: a ledger of attempts
 * per session and agent, and one verdict file per validated return. Parallel
 * subagents run their stop hooks at the same time, so every file is replaced
 * atomically (temp file + rename) and the ledger's read-modify-write holds a lock.
 */
export const STATE_DIR = ".returnlint";


const LEDGER_KEEP_MS = 7 * 24 * 60 * 60 * 1000;

/** Creates the state directory with a .gitignore, so that its files are never committed by accident. */
export function prepareStateDir(stateDir: string): void {
  mkdirSync(stateDir, { recursive: true });
  const ignore = path.join(stateDir, ".gitignore");
  if (!existsSync(ignore)) writeFileSync(ignore, "# Written by returnlint hook: runtime state, not source.\n*\n");
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
 * Reads the entry for `key`, lets `update` decide the next one, and writes it back,
 * all under the ledger's lock. Entries older than a week are dropped on the way.
 */
export async function updateLedger<T>(
  stateDir: string,
  key: string,
  update: (entry: LedgerEntry | undefined) => { entry: LedgerEntry; result: T },
): Promise<T> {
  const file = path.join(stateDir, "ledger.json");
  return withLock(path.join(stateDir, "ledger.lock"), () => {
    const ledger = readLedger(file);
    const current = ledger.entries[key];
    const { entry, result } = update(isOpenEntry(current) ? current : undefined);
    const cutoff = Date.now() - LEDGER_KEEP_MS;
    const entries: Record<string, unknown> = {};
    for (const [other, value] of Object.entries(ledger.entries)) {
      if (isObject(value) && typeof value.updatedAt === "string" && Date.parse(value.updatedAt) >= cutoff) entries[other] = value;
    }
    entries[key] = entry;
    writeFileAtomic(file, `${JSON.stringify({ version: 1, entries } satisfies Ledger, null, 2)}\n`);
    return result;
  });
}

function readLedger(file: string): Ledger {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return { version: 1, entries: {} };
  }
  try {
    const value = JSON.parse(text) as unknown;
    // A ledger someone edited into another shape is started afresh: it only bounds retries.
    if (isObject(value) && isObject(value.entries)) return { version: 1, entries: value.entries };
  } catch {
    // Fall through: unreadable is the same as absent.
  }
  return { version: 1, entries: {} };
}

function isOpenEntry(entry: unknown): entry is LedgerEntry {
  return isObject(entry) && entry.open === true && typeof entry.attempts === "number" && typeof entry.blocks === "number";
}

/** A file name made of the parts, safe on every file system. */
export function safeName(...parts: readonly string[]): string {
  return parts.map((part) => part.replace(/[^\w.-]+/g, "_").replace(/^\.+/, "_").slice(0, 80)).join("--");
}
