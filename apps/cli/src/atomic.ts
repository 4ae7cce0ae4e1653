import { closeSync, mkdirSync, openSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ReturnlintError } from "@returnlint/core";

// Synchronous fs and no crypto: these are quick calls, and every command's start-up
// would otherwise pay for loading node:fs/promises, node:crypto and node:timers/promises.
const unique = (): string => `${String(process.pid)}.${Date.now().toString(36)}.${Math.random().toString(36).slice(2, 10)}`;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The only ways returnlint writes: whole files replaced atomically (temp file +
 * rename, never truncated in place), and read-modify-write under a lock file, so
 * that many processes at once (parallel subagents, hooks) never lose or corrupt data.
 */

const LOCK_WAIT_MS = 10_000;
/** A lock older than this was left by a hook that died (hosts kill hooks on timeout). */
const LOCK_STALE_MS = 10_000;

/** Writes a file so that readers see the old content or the new, never a part. */
export function writeFileAtomic(file: string, content: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const temp = `${file}.${unique()}.tmp`;
  try {
    writeFileSync(temp, content, { flag: "wx" });
    renameSync(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/** Runs `action` while holding `lockFile` (created exclusively; a stale one is broken). */
export async function withLock<T>(lockFile: string, action: () => T | Promise<T>): Promise<T> {
  mkdirSync(path.dirname(lockFile), { recursive: true });
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      closeSync(openSync(lockFile, "wx"));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    if (breakIfStale(lockFile)) continue;
    if (Date.now() > deadline) {
      throw new ReturnlintError("INTERNAL", `Timed out after ${String(LOCK_WAIT_MS / 1000)} s waiting for the lock ${lockFile}; delete it if no returnlint hook is running.`);
    }
    await sleep(5 + Math.floor(Math.random() * 20));
  }
  try {
    return await action();
  } finally {
    rmSync(lockFile, { force: true });
  }
}

function breakIfStale(lockFile: string): boolean {
  try {
    if (Date.now() - statSync(lockFile).mtimeMs < LOCK_STALE_MS) return false;
    // Renaming first means only one waiter breaks it.
    const aside = `${lockFile}.${unique()}.stale`;
    renameSync(lockFile, aside);
    rmSync(aside, { force: true });
    return true;
  } catch {
    return true;
  }
}

