import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { ReturnlintError } from "@returnlint/core";
import { findIn, type Found, type FindPlace } from "./find.js";
import { topEntries, type TopEntry } from "./walk.js";

/** Entries of the scanned folder per batch (a task folder each, usually): enough that a message costs little beside what it carries. */
const BATCH = 64;
/** Batches handed to the finding thread and not yet taken back: how far it may run ahead of the checks. */
const BATCHES_AHEAD = 4;
/**
 * A scanned folder with fewer entries than this is walked by the scan's own thread. Starting a
 * thread costs the scan's thread about 15 ms here, and the thread takes about 90 ms to start
 * (Node 20 on a 2-core VM); a few hundred returns are checked in that time.
 */
const THREAD_FROM = 1024;

/**
 * The finding thread keeps nothing from one batch to the next, so the smallest young generation is
 * enough. A 100,000-return scan's peak RSS, 2026-11-27, two runs each: 125-135 MB with this, 144-146
 * MB with 2 MB, 140-154 MB with V8's default (16 MB semi-spaces); 117-128 MB without the thread.
 */
const THREAD_YOUNG_MB = 1;

/** What the scan hands the finding thread. */
export interface FindThreadData {
  readonly place: FindPlace;
  /** [0]: 1 once the thread takes entries. */
  readonly ready: Int32Array;
}

/** Where the bin's loader says the finding thread's script is (dist/chunks/find-thread.cjs, or the vendored copy's file). */
const FIND_THREAD = Symbol.for("returnlint.findThread");

/**
 * What a scan of `place` finds (find.ts), in batches, in the walk's order. The walk and the
 * reads are file system calls, as many as the checks make, so in a large folder they run in a
 * thread of their own, the finding thread, while the scan's thread lints: this thread lists the
 * scanned folder, finds the returns of its first entries itself while the finding thread starts,
 * then hands it the rest, a few batches ahead. A small folder, a process that may use one core
 * only, or a finding thread that cannot start, is walked here alone.
 */
export async function* findAhead(place: FindPlace): AsyncGenerator<readonly Found[]> {
  const problems: Found[] = [];
  const entries = topEntries(place.dir, (where, reason) => problems.push({ where, reason }));
  const first = take(entries, THREAD_FROM);
  // On one core the thread only adds its start and its messages (a tenth more time for 10,000 returns).
  const script = first.length === THREAD_FROM && availableParallelism() > 1 ? threadScript() : undefined;
  const thread = script === undefined ? undefined : FindThread.start(script, place);
  try {
    const queued = first[Symbol.iterator]();
    const next = (): TopEntry[] => {
      const batch = take(queued, BATCH);
      return batch.length === BATCH ? batch : [...batch, ...take(entries, BATCH - batch.length)];
    };
    for (let batch = next(); batch.length > 0; batch = next()) {
      if (thread?.ready === true) {
        yield* thread.handOver(batch, next);
        break;
      }
      yield [...findIn(place, batch)];
    }
  } finally {
    thread?.stop();
  }
  if (problems.length > 0) yield problems;
}

function take<T>(items: Iterator<T>, count: number): T[] {
  const taken: T[] = [];
  while (taken.length < count) {
    const next = items.next();
    if (next.done === true) break;
    taken.push(next.value);
  }
  return taken;
}

function threadScript(): string | undefined {
  const script = (globalThis as Record<symbol, unknown>)[FIND_THREAD];
  return typeof script === "string" && existsSync(script) ? script : undefined;
}

/** The finding thread, seen from the scan's thread. */
class FindThread {
  private readonly worker: Worker;
  private readonly started = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
  private readonly answers: (readonly Found[])[] = [];
  private failure: string | undefined;
  private wake: (() => void) | undefined;

  /** The thread, starting; undefined when Node cannot start one (the scan's thread then walks alone). */
  static start(script: string, place: FindPlace): FindThread | undefined {
    try {
      return new FindThread(script, place);
    } catch {
      return undefined;
    }
  }

  private constructor(script: string, place: FindPlace) {
    const data: FindThreadData = { place, ready: this.started };
    this.worker = new Worker(script, { workerData: data, stdout: false, stderr: false, resourceLimits: { maxYoungGenerationSizeMb: THREAD_YOUNG_MB } });
    this.worker.on("message", (found: readonly Found[]) => {
      this.answers.push(found);
      this.wake?.();
    });
    this.worker.on("error", (error: Error) => {
      this.failure ??= error.message;
      this.wake?.();
    });
    this.worker.on("exit", (code) => {
      this.failure ??= `it ended (exit code ${String(code)}) before the walk did`;
      this.wake?.();
    });
  }

  /** Whether the thread takes entries yet: read without waiting for an event. */
  get ready(): boolean {
    return Atomics.load(this.started, 0) === 1;
  }

  /** Hands the thread `batch` and every batch `next` gives, BATCHES_AHEAD at most ahead, and yields what it found, in order. */
  async *handOver(batch: TopEntry[], next: () => TopEntry[]): AsyncGenerator<readonly Found[]> {
    let handed = 0;
    let entries = batch;
    for (;;) {
      for (; entries.length > 0 && handed < BATCHES_AHEAD; entries = next()) {
        this.worker.postMessage(entries);
        handed += 1;
      }
      if (handed === 0) return;
      yield await this.answer();
      handed -= 1;
    }
  }

  private async answer(): Promise<readonly Found[]> {
    for (;;) {
      const found = this.answers.shift();
      if (found !== undefined) return found;
      if (this.failure !== undefined) throw new ReturnlintError("INTERNAL", `The scan's finding thread failed: ${this.failure.replace(/\.$/, "")}.`);
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
      this.wake = undefined;
    }
  }

  stop(): void {
    this.worker.removeAllListeners("exit");
    void this.worker.terminate();
  }
}
