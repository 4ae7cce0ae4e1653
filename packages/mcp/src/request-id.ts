import type { RequestId } from "@modelcontextprotocol/sdk/types.js";

/** Longer ids are not echoed: an answer never repeats more of a request than this. */
export const MAX_ID_LENGTH = 200;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;

/**
 * The top-level `"id"` of a JSON object read as a stream of bytes, without keeping the
 * object: a request too large to parse still gets its error under its own id, so the
 * client waiting for that id is answered (the SDK's client writes the id last). One pass,
 * constant memory; anything it cannot read for certain is no id (the answer's id is then null).
 */
export class TopLevelId {
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** What is being read at depth 1: a key, the id's value (a string or a number), or nothing. */
  private reading: "key" | "string" | "number" | undefined;
  private text = "";
  private expectKey = false;
  private idIsNext = false;
  private lastKey = "";
  private found: RequestId | undefined;
  private settled = false;

  get id(): RequestId | undefined {
    return this.found;
  }

  feed(bytes: Uint8Array): void {
    for (const byte of bytes) {
      if (this.settled) return;
      this.step(byte);
    }
  }

  private step(byte: number): void {
    if (this.inString) {
      if (this.escaped) this.escaped = false;
      else if (byte === BACKSLASH) this.escaped = true;
      else if (byte === QUOTE) {
        this.inString = false;
        this.endString();
        return;
      }
      if (this.reading !== undefined) this.append(byte);
      return;
    }
    if (this.reading === "number") {
      // Digits, sign, fraction and exponent: a number is read whole, then kept only when it is an integer.
      if ((byte >= 0x30 && byte <= 0x39) || byte === 0x2d || byte === 0x2b || byte === 0x2e || byte === 0x65 || byte === 0x45) {
        this.append(byte);
        return;
      }
      const value = Number(this.text);
      if (this.text !== "" && Number.isSafeInteger(value)) this.settle(value);
      this.reading = undefined;
    }
    switch (byte) {
      case QUOTE:
        this.inString = true;
        this.text = "";
        this.reading = this.depth !== 1 ? undefined : this.expectKey ? "key" : this.idIsNext ? "string" : undefined;
        this.idIsNext = false;
        return;
      case 0x7b: // {
      case 0x5b: // [
        this.depth += 1;
        this.expectKey = this.depth === 1 && byte === 0x7b;
        this.idIsNext = false;
        return;
      case 0x7d: // }
      case 0x5d: // ]
        this.depth -= 1;
        if (this.depth <= 0) this.settled = true;
        return;
      case COLON:
        if (this.depth !== 1) return;
        this.expectKey = false;
        this.idIsNext = this.lastKey === "id";
        return;
      case COMMA:
        if (this.depth === 1) this.expectKey = true;
        return;
      default:
        if (this.depth === 1 && this.idIsNext && ((byte >= 0x30 && byte <= 0x39) || byte === 0x2d)) {
          this.idIsNext = false;
          this.reading = "number";
          this.text = "";
          this.append(byte);
        } else if (byte > 0x20) {
          // null, true, an object…: not an id a response can carry.
          this.idIsNext = false;
        }
    }
  }

  private append(byte: number): void {
    // Byte by byte, as Latin-1: ids and keys are compared and echoed only when they are short ASCII.
    if (this.text.length <= MAX_ID_LENGTH) this.text += String.fromCharCode(byte);
  }

  private endString(): void {
    const { reading, text } = this;
    this.reading = undefined;
    if (reading === "key") this.lastKey = text;
    else if (reading === "string" && text.length <= MAX_ID_LENGTH && /^[\x20-\x7e]*$/.test(text) && !text.includes("\\")) this.settle(text);
  }

  private settle(id: RequestId): void {
    this.found = id;
    this.settled = true;
  }
}
