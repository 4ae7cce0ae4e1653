import { closeSync, type Stats } from "node:fs";
import path from "node:path";
import { ReturnlintError, codeOf, readPrefix, sameFile, uniqueSuffix, type Identity, type SafeDir } from "@returnlint/core";
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

/** A lock that has not changed hands for this long is given up on (its holder is stuck, or it cannot be removed). */
const LOCK_WAIT_MS = 10_000;
/** A lock that names no process of this machine (written by something else, or on another host) is abandoned at this age. */
const LOCK_STALE_MS = 10_000;
/** What a lock file says of its holder: `returnlint-lock PID HOST TOKEN`. */
const HOLDER = /^returnlint-lock (\d+) (\S+) (\S+)\n$/;
/** Longer than any holder line; a bigger lock file is not one of ours. */
const MAX_HOLDER_BYTES = 512;

interface Holder {
  readonly stats: Stats;
  /** The lock file's content, or null when it cannot be read as a file (a symlink, a FIFO). */
  readonly text: string | null;
  readonly pid?: number;
  readonly host?: string;
  readonly token?: string;
}

/**
 * Runs `action` while holding the lock file `name` in `dir` (created exclusively,
 * never through a symlink). The file names its holder (process id, host, a token used
 * once). Waiting has a real deadline: it gives up after LOCK_WAIT_MS in which the lock
 * did not change hands, so that many writers queue for as long as they make progress,
 * and a lock nobody releases ends in a sentence, never a spin.
 *
 * A lock is abandoned only when its holder is certainly gone: its process no longer exists on
 * this host (hosts kill hooks on timeout), or, for a lock that names no process of this host (a
 * dangling symlink, a file returnlint did not write), when it is older than LOCK_STALE_MS. A
 * live holder is never broken, however long it takes, so two writers are never inside at once.
 */
export async function withLock<T>(dir: SafeDir, name: string, action: () => T | Promise<T>): Promise<T> {
  const shown = path.join(dir.real, name);
  const token = uniqueSuffix();
  const host = hostName();
  let seen = "";
  let deadline = Date.now() + LOCK_WAIT_MS;
  let stuck: string | undefined;
  let mine: Identity;
  for (;;) {
    try {
      mine = dir.createExclusive(name, `returnlint-lock ${String(process.pid)} ${host} ${token}\n`);
      break;
    } catch (error) {
      if (codeOf(error) !== "EEXIST") throw environmentError(`create the lock ${shown}`, error);
    }
    const holder = readHolder(dir, name);
    if (holder === undefined) continue;
    const identity = `${String(holder.stats.dev)}:${String(holder.stats.ino)}:${String(holder.stats.mtimeMs)}`;
    if (identity !== seen) {
      seen = identity;
      deadline = Date.now() + LOCK_WAIT_MS;
    }
    if (abandoned(holder, host)) {
      const broken = breakAbandoned(dir, name, holder);
      if (broken === true) continue;
      stuck = broken;
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
    // Nobody breaks a live holder's lock, so the name is still ours; checked all the same.
    const now = dir.lstat(name);
    if (now !== undefined && sameFile(now, mine)) dir.unlink(name);
  }
}

function hostName(): string {
  return process.getBuiltinModule("node:os").hostname().replace(/\s+/g, "_") || "localhost";
}

/** Who holds the lock `name`; undefined when it is gone. */
function readHolder(dir: SafeDir, name: string): Holder | undefined {
  const stats = dir.lstat(name);
  if (stats === undefined) return undefined;
  if (!stats.isFile()) return { stats, text: null };
  let text: string;
  try {
    const { fd } = dir.openFile(name);
    try {
      text = readPrefix(fd, MAX_HOLDER_BYTES).toString("utf8");
    } finally {
      closeSync(fd);
    }
  } catch {
    return { stats, text: null };
  }
  const match = HOLDER.exec(text);
  if (match === null) return { stats, text };
  return { stats, text, pid: Number(match[1]), host: match[2], token: match[3] };
}

function abandoned(holder: Holder, host: string): boolean {
  if (holder.pid !== undefined && holder.pid > 0 && holder.host === host) return !processExists(holder.pid);
  return Date.now() - holder.stats.mtimeMs >= LOCK_STALE_MS;
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, and belongs to another user.
    return codeOf(error) !== "ESRCH";
  }
}

/**
 * Removes the abandoned lock `holder`, or says why it cannot be. Several waiters may find
 * the same abandoned lock: the right to remove it is a file named for that very lock, created
 * exclusively, so exactly one of them may. The lock it checks under that right can only be the
 * abandoned one or a different one (only the abandoned lock's holder, which is gone, or the
 * right's owner removes it), never a fresh lock that happens to look the same: a lock's token
 * is used once. True when the lock is gone (removed, or changed hands), else why it is still there.
 */
function breakAbandoned(dir: SafeDir, name: string, holder: Holder): true | string {
  const { stats } = holder;
  const right = `${name}.break-${holder.token ?? `${String(stats.dev)}-${String(stats.ino)}-${String(Math.trunc(stats.mtimeMs * 1000))}`}`;
  try {
    dir.createExclusive(right, `${String(process.pid)}\n`);
  } catch (error) {
    // Another waiter is removing it; if that one died doing so, the deadline ends the wait.
    return codeOf(error) === "EEXIST" ? `another returnlint was removing it, and ${path.join(dir.real, right)} is still there` : systemReason(error);
  }
  try {
    const now = readHolder(dir, name);
    if (now === undefined || !sameHolder(now, holder)) return true;
    dir.unlink(name);
    return true;
  } catch (error) {
    return codeOf(error) === "ENOENT" ? true : systemReason(error);
  } finally {
    try {
      dir.unlink(right);
    } catch {
      // Already gone: nothing to tidy.
    }
  }
}

function sameHolder(a: Holder, b: Holder): boolean {
  return sameFile(a.stats, b.stats) && a.stats.mtimeMs === b.stats.mtimeMs && a.text === b.text;
}
