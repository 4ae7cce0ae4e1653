import type { Stats } from "node:fs";
import path from "node:path";
import { ReturnlintError, codeOf, sameFile, uniqueSuffix, type Identity, type SafeDir } from "@returnlint/core";
import { environmentError, systemReason } from "@returnlint/api";

/**
 * The lock the hook's ledger and the CLI's `--log-errors` hold around their
 * read-modify-write: a lock file beside what they change, created exclusively through
 * core's SafeDir. The `returnlint` CLI imports it by the package's `./lock` entry, so
 * that a check loads none of the hook.
 *
 * No timers/promises: a check's start-up would otherwise pay for loading node:timers/promises.
 */

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A lock that has not changed hands for this long is given up on (its holder is stuck or dead). */
const LOCK_WAIT_MS = 10_000;
/** A lock older than this was left by a process that died (hosts kill hooks on timeout). */
const LOCK_STALE_MS = 10_000;

/**
 * Runs `action` while holding the lock file `name` in `dir` (created exclusively,
 * never through a symlink). Waiting has a real deadline: it gives up after
 * LOCK_WAIT_MS in which the lock did not change hands, so that many writers queue
 * for as long as they make progress, and a lock nobody releases (a dangling
 * symlink, a holder that died, a stale lock returnlint may not remove) ends in a
 * sentence, never a spin. A lock older than LOCK_STALE_MS is broken, by renaming it
 * aside first so that only one waiter breaks it.
 */
export async function withLock<T>(dir: SafeDir, name: string, action: () => T | Promise<T>): Promise<T> {
  const shown = path.join(dir.real, name);
  let holder = "";
  let deadline = Date.now() + LOCK_WAIT_MS;
  let stuck: string | undefined;
  let mine: Identity;
  for (;;) {
    try {
      mine = dir.createExclusive(name, `${String(process.pid)}\n`);
      break;
    } catch (error) {
      if (codeOf(error) !== "EEXIST") throw environmentError(`create the lock ${shown}`, error);
    }
    const stats = dir.lstat(name);
    if (stats === undefined) continue;
    const seen = `${String(stats.dev)}:${String(stats.ino)}:${String(stats.mtimeMs)}`;
    if (seen !== holder) {
      holder = seen;
      deadline = Date.now() + LOCK_WAIT_MS;
    }
    if (Date.now() - stats.mtimeMs >= LOCK_STALE_MS) {
      stuck = breakStale(dir, name, stats);
      if (stuck === undefined) continue;
    }
    if (Date.now() > deadline) {
      throw new ReturnlintError(
        "ENVIRONMENT",
        `Timed out after ${String(LOCK_WAIT_MS / 1000)} s waiting for the lock ${shown}: it did not change hands in that time${stuck === undefined ? "" : `, and it cannot be removed (${stuck})`}. Delete it if no returnlint is running.`,
      );
    }
    await sleep(5 + Math.floor(Math.random() * 20));
  }
  try {
    return await action();
  } finally {
    // Only our own lock: one broken as stale and taken by another waiter is theirs now.
    const now = dir.lstat(name);
    if (now !== undefined && sameFile(now, mine)) dir.unlink(name);
  }
}

/** Breaks a stale lock; undefined when it is gone, else why it cannot be removed. */
function breakStale(dir: SafeDir, name: string, stale: Stats): string | undefined {
  const aside = `${name}.${uniqueSuffix()}.stale`;
  try {
    dir.rename(name, aside);
  } catch (error) {
    return codeOf(error) === "ENOENT" ? undefined : systemReason(error);
  }
  const moved = dir.lstat(aside);
  // Another waiter broke it first and a fresh lock took its name: put that one back.
  if (moved !== undefined && !sameFile(moved, stale)) {
    try {
      dir.link(aside, name);
    } catch {
      // A third lock has the name already: the fresh one we moved is lost, and its holder will not unlink ours.
    }
  }
  try {
    dir.unlink(aside);
  } catch {
    // Nothing to clean up.
  }
  return undefined;
}
