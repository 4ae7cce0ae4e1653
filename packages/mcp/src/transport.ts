import type { Readable, Writable } from "node:stream";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ErrorCode, type JSONRPCMessage, type RequestId } from "@modelcontextprotocol/sdk/types.js";
import { screenMessage, type Refusal, type ScreenRequest } from "./envelope.js";
import { TopLevelId } from "./request-id.js";

const NEWLINE = 0x0a;

/** No answer the server writes is larger: past it, the answer is an error saying so. */
export const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

export interface LineTransportOptions {
  readonly input: Readable;
  readonly output: Writable;
  /** The longest line read; a longer one is refused (-32600) and skipped, not buffered. */
  readonly maxLineBytes: number;
  readonly screen: ScreenRequest;
  /** One line on standard error per error answered, and per notification ignored. */
  readonly log: (line: string) => void;
}

/**
 * MCP's stdio transport, one JSON-RPC message per line, in which nothing the client sends can
 * end the server: every line is bounded before it is parsed, and a line that is too long,
 * not JSON, or not a request the server takes gets its JSON-RPC error (-32700, -32600,
 * -32602) and a line on standard error, while the next line is read as usual. (The SDK's
 * transport closes itself on a long line and drops the others without an answer.)
 */
export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private parts: Buffer[] = [];
  private lineBytes = 0;
  /** Set while a line over the limit is skipped: it still finds the line's id. */
  private skipped: TopLevelId | undefined;
  private closed = false;

  constructor(private readonly options: LineTransportOptions) {}

  start(): Promise<void> {
    const { input, output } = this.options;
    input.on("data", this.onData);
    input.on("end", this.onEnd);
    input.on("error", this.onStreamError);
    // A client that stops reading (EPIPE) has gone: the connection is over.
    output.on("error", this.onStreamError);
    return Promise.resolve();
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return Promise.resolve();
    if ("error" in message) this.options.log(`answered request ${JSON.stringify(message.id ?? null)} with ${String(message.error.code)}: ${message.error.message}`);
    let line = `${JSON.stringify(message)}\n`;
    const bytes = Buffer.byteLength(line);
    if (bytes > MAX_ANSWER_BYTES && "id" in message && message.id !== undefined) {
      this.options.log(`the answer to request ${JSON.stringify(message.id)} would have been ${String(bytes)} bytes; sent an error instead.`);
      line = `${JSON.stringify(errorAnswer(message.id, { code: ErrorCode.InternalError, message: `returnlint's answer was larger than ${String(MAX_ANSWER_BYTES)} bytes, the most this server writes in one message.` }))}\n`;
    }
    return new Promise((resolve) => {
      if (this.options.output.write(line)) resolve();
      else this.options.output.once("drain", resolve);
    });
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.closed = true;
    const { input, output } = this.options;
    input.off("data", this.onData);
    input.off("end", this.onEnd);
    input.off("error", this.onStreamError);
    output.off("error", this.onStreamError);
    input.pause();
    this.parts = [];
    this.onclose?.();
    return Promise.resolve();
  }

  private readonly onEnd = () => {
    void this.close();
  };

  private readonly onStreamError = (error: Error) => {
    this.onerror?.(error);
    void this.close();
  };

  private readonly onData = (chunk: Buffer | string) => {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    let start = 0;
    for (let end = bytes.indexOf(NEWLINE); end !== -1; end = bytes.indexOf(NEWLINE, start)) {
      this.take(bytes.subarray(start, end));
      this.endLine();
      start = end + 1;
      if (this.closed) return;
    }
    if (start < bytes.length) this.take(bytes.subarray(start));
  };

  private take(piece: Buffer): void {
    if (this.skipped !== undefined) {
      this.skipped.feed(piece);
      return;
    }
    this.lineBytes += piece.length;
    if (this.lineBytes > this.options.maxLineBytes) {
      this.skipped = new TopLevelId();
      for (const part of this.parts) this.skipped.feed(part);
      this.skipped.feed(piece);
      this.parts = [];
      return;
    }
    if (piece.length > 0) this.parts.push(piece);
  }

  private endLine(): void {
    const { skipped, parts, lineBytes } = this;
    this.parts = [];
    this.lineBytes = 0;
    this.skipped = undefined;
    if (skipped !== undefined) {
      this.refuse(skipped.id ?? null, {
        code: ErrorCode.InvalidRequest,
        message: `The request is larger than ${String(this.options.maxLineBytes)} bytes, the most this server reads in one message; it was skipped. A return to check is at most RETURNLINT_MAX_INPUT_BYTES (10 MiB by default).`,
      });
      return;
    }
    const line = Buffer.concat(parts, lineBytes).toString("utf8");
    if (line.trim() === "") return;
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      this.refuse(null, { code: ErrorCode.ParseError, message: "The line is not JSON; send one JSON-RPC message per line." });
      return;
    }
    const screened = screenMessage(message, this.options.screen);
    if ("accepted" in screened) this.onmessage?.(screened.accepted);
    else if (screened.answer) this.refuse(screened.id, screened.refused);
    else this.options.log(`ignored a notification: ${screened.refused.message}`);
  }

  private refuse(id: RequestId | null, refusal: Refusal): void {
    void this.send(errorAnswer(id, refusal));
  }
}

/** A JSON-RPC error answer; the id is null when the request's could not be read (JSON-RPC 2.0, section 5). */
function errorAnswer(id: RequestId | null, refusal: Refusal): JSONRPCMessage {
  return { jsonrpc: "2.0", id, error: { code: refusal.code, message: refusal.message } } as unknown as JSONRPCMessage;
}
