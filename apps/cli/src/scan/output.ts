import type { CommandIo } from "../commands/io.js";

/** Output is written in pieces of about this size: one write per return would be one syscall per return. */
const FLUSH_AT = 64 * 1024;

/** UTF-8 takes at most three bytes for one UTF-16 code unit (a surrogate pair: four for two). */
const MAX_BYTES_PER_UNIT = 3;

/**
 * Buffers standard output so that a large scan is written in large pieces. Where the process takes
 * bytes, each piece is encoded into one buffer as it comes: text appended to text would be a long
 * string to flatten and encode again at every flush (a quarter of what `scan --format json` adds to
 * the checks, its report objects holding non-ASCII text such as "→").
 */
export class Output {
  private text = "";
  private bytes: Buffer | undefined;
  private used = 0;
  constructor(private readonly io: CommandIo) {}

  write(text: string): void {
    if (this.io.stdoutBytes === undefined) {
      this.text += text;
      if (this.text.length >= FLUSH_AT) this.flush();
      return;
    }
    const most = text.length * MAX_BYTES_PER_UNIT;
    if (this.bytes === undefined || this.used + most > this.bytes.length) {
      this.flush();
      if (this.bytes === undefined || most > this.bytes.length) this.bytes = Buffer.allocUnsafe(Math.max(2 * FLUSH_AT, most));
    }
    this.used += this.bytes.write(text, this.used);
    if (this.used >= FLUSH_AT) this.flush();
  }

  flush(): void {
    if (this.bytes !== undefined && this.used > 0) {
      this.io.stdoutBytes?.(this.bytes.subarray(0, this.used));
      this.used = 0;
    }
    if (this.text === "") return;
    this.io.stdout(this.text);
    this.text = "";
  }
}
