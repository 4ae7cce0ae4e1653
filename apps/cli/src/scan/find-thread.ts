// The finding thread (find-ahead.ts): given entries of the scanned folder, walks them and reads
// their return files (find.ts), and answers each message with what it found, in order.
import { parentPort, workerData } from "node:worker_threads";
import { findIn } from "./find.js";
import type { FindThreadData } from "./find-ahead.js";
import type { TopEntry } from "./walk.js";

const { place, ready } = workerData as FindThreadData;
parentPort?.on("message", (entries: readonly TopEntry[]) => {
  parentPort?.postMessage([...findIn(place, entries)]);
});
// The scan's thread looks at this between its own batches: from now on, entries are handed here.
Atomics.store(ready, 0, 1);
