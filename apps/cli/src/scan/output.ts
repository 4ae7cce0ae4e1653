import type { CommandIo } from "../commands/io.js";

/** Output is written in pieces of about this size: one write per return would be one syscall per return. */
const FLUSH_AT = 64 * 1024;

/** Buffers standard output so that a large scan is written in large pieces. */
export class Output {
  private buffer = "";
  constructor(private readonly io: CommandIo) {}

  write(text: string): void {
    this.buffer += text;
    if (this.buffer.length >= FLUSH_AT) this.flush();
  }

  flush(): void {
    if (this.buffer === "") return;
    this.io.stdout(this.buffer);
    this.buffer = "";
  }
}
