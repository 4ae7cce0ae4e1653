import { randomBytes } from "node:crypto";
import { mkdir, open, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { ReturnlintError } from "@returnlint/core";

/**
 * The only ways returnlint writes: whole files replaced atomically (temp file +
 * rename, never truncated in place), and read-modify-write under a lock file, so
 * that many processes at once (parallel subagents, hooks) never lose or corrupt data.
 */

const LOCK_WAIT_MS = 10_000;
/** A lock older than this was left by a hook that died (hosts kill hooks on timeout). */
const LOCK_STALE_MS = 10_000;

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

