import type { CommandIo } from "../commands/io.js";
import { count } from "./stylish.js";
import type { Summary } from "./summary.js";

const PROGRESS_INTERVAL_MS = 100;

/** One line on standard error, redrawn in place; only on a terminal. */
export class Progress {
  private shown = false;
  private last = 0;
  private readonly started = performance.now();
  constructor(
    private readonly io: CommandIo,
    private readonly dir: string,
    readonly enabled: boolean,
  ) {}

  tick(summary: Summary): void {
    if (!this.enabled) return;
    const now = performance.now();
    if (now - this.last < PROGRESS_INTERVAL_MS) return;
    this.last = now;
    this.io.stderr(`\r\u001b[KScanning ${this.dir}: ${count(summary.total, "return")} checked, ${String(summary.failed)} failed`);
    this.shown = true;
  }

  clear(): void {
    if (!this.shown) return;
    this.io.stderr("\r\u001b[K");
    this.shown = false;
  }

  finish(summary: Summary): void {
    if (!this.enabled) return;
    const seconds = ((performance.now() - this.started) / 1000).toFixed(2);
    this.io.stderr(`\r\u001b[KScanned ${count(summary.total, "return")} below ${this.dir} in ${seconds} s: ${String(summary.passed)} passed, ${String(summary.failed)} failed\n`);
  }
}
