import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, open, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { isObject, ReturnlintError } from "@returnlint/core";

/**
 * The hook's own state, under `.returnlint/` in the project: a ledger of attempts
 * per session and agent, and one verdict file per validated return. Parallel
 * subagents run their stop hooks at the same time, so every file is replaced
 * atomically (temp file + rename) and the ledger's read-modify-write holds a lock.
 */
export const STATE_DIR = ".returnlint";

const LOCK_WAIT_MS = 10_000;
/** A lock older than this was left by a hook that died (hosts kill hooks on timeout). */
const LOCK_STALE_MS = 10_000;
const LEDGER_KEEP_MS = 7 * 24 * 60 * 60 * 1000;

/** Writes a file so that readers see the old content or the new, never a part. */
export async function writeFileAtomic(file: string, content: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const temp = `${file}.${String(process.pid)}.${randomBytes(4).toString("hex")}.tmp`;
  try {
    await writeFile(temp, content, { flag: "wx" });
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/** Runs `action` while holding `lockFile` (created exclusively; a stale one is broken). */
export async function withLock<T>(lockFile: string, action: () => Promise<T>): Promise<T> {
  await mkdir(path.dirname(lockFile), { recursive: true });
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      await (await open(lockFile, "wx")).close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    if (await breakIfStale(lockFile)) continue;
    if (Date.now() > deadline) {
      throw new ReturnlintError("INTERNAL", `Timed out after ${String(LOCK_WAIT_MS / 1000)} s waiting for the lock ${lockFile}; delete it if no returnlint hook is running.`);
    }
    await sleep(5 + Math.floor(Math.random() * 20));
  }
  try {
    return await action();
  } finally {
    await rm(lockFile, { force: true });
  }
}

async function breakIfStale(lockFile: string): Promise<boolean> {
  try {
    if (Date.now() - (await stat(lockFile)).mtimeMs < LOCK_STALE_MS) return false;
    // Renaming first means only one waiter breaks it.
    const aside = `${lockFile}.${randomBytes(4).toString("hex")}.stale`;
    await rename(lockFile, aside);
    await rm(aside, { force: true });
    return true;
  } catch {
    return true;
  }
}

/** Creates the state directory with a .gitignore, so that its files are never committed by accident. */
export async function prepareStateDir(stateDir: string): Promise<void> {
  await mkdir(stateDir, { recursive: true });
  const ignore = path.join(stateDir, ".gitignore");
  if (!existsSync(ignore)) await writeFile(ignore, "# Written by returnlint hook: runtime state, not source.\n*\n");
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
  return withLock(path.join(stateDir, "ledger.lock"), async () => {
    const ledger = await readLedger(file);
    const current = ledger.entries[key];
    const { entry, result } = update(isOpenEntry(current) ? current : undefined);
    const cutoff = Date.now() - LEDGER_KEEP_MS;
    const entries: Record<string, unknown> = {};
    for (const [other, value] of Object.entries(ledger.entries)) {
      if (isObject(value) && typeof value.updatedAt === "string" && Date.parse(value.updatedAt) >= cutoff) entries[other] = value;
    }
    entries[key] = entry;
    await writeFileAtomic(file, `${JSON.stringify({ version: 1, entries } satisfies Ledger, null, 2)}\n`);
    return result;
  });
}

async function readLedger(file: string): Promise<Ledger> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
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
