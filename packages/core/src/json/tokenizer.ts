/**
 * The one JSON tokenizer: syntax errors (syntax-error.ts), duplicate keys
 * (duplicate-keys.ts) and the offset of a pointer's value (locate.ts) all walk text
 * with it. Iterative, with an explicit stack, so that nesting as deep as the text
 * allows never overflows the call stack. It checks the grammar as it goes: the first
 * thing that is not JSON ends the walk with an "error" token that says what and where.
 */

/**
 * `{` `[` open a container and `}` `]` close one; `key` is a property name (a string
 * before a colon); `scalar` is a string, number, true, false or null in value position;
 * `end` follows the one top-level value; `error` is the first thing that is not JSON.
 */
export type JsonToken = "{" | "}" | "[" | "]" | "key" | "scalar" | "end" | "error";

const enum Expect {
  Value,
  ValueOrClose,
  KeyOrClose,
  Key,
  Colon,
  CommaOrClose,
  Done,
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
// eslint-disable-next-line no-control-regex -- control characters are what a JSON string may not hold
const PLAIN_RUN = /[^"\\\u0000-\u001f]+/y;
const LITERALS = ["true", "false", "null"] as const;
const OBJECT = 0x7b; /* { */
const ARRAY = 0x5b; /* [ */

export class JsonTokenizer {
  /** Where the last token starts (for `error`, where the text stops being JSON). */
  start = 0;
  /** Where the last token ends: the offset just after it. */
  end = 0;
  /** For `error`: what is wrong, as messages say it. */
  reason = "";
  /** For `error`: the text holds one whole value, and something follows it. */
  trailing = false;

  readonly #text: string;
  /** The open containers, innermost last: `{` or `[` as char codes. */
  readonly #open: number[] = [];
  #expect = Expect.Value;
  #offset: number;
  #finished: "end" | "error" | undefined;

  constructor(text: string, from = 0) {
    this.#text = text;
    this.#offset = from;
  }

  /** How many containers are open after the last token. */
  get depth(): number {
    return this.#open.length;
  }

  next(): JsonToken {
    if (this.#finished !== undefined) return this.#finished;
    const text = this.#text;
    for (;;) {
      const i = skipWhitespace(text, this.#offset);
      if (i >= text.length) {
        if (this.#expect !== Expect.Done) return this.#fail(i, "unexpected end of input");
        this.start = this.end = i;
        this.#finished = "end";
        return "end";
      }
      const code = text.charCodeAt(i);
      switch (this.#expect) {
        case Expect.Done:
          return this.#fail(i, `unexpected ${describe(text, i)} after the JSON value`, true);
        case Expect.Colon:
          if (code !== 0x3a /* : */) return this.#fail(i, `expected ':' after a property name, found ${describe(text, i)}`);
          this.#offset = i + 1;
          this.#expect = Expect.Value;
          continue;
        case Expect.CommaOrClose: {
          const inObject = this.#open.at(-1) === OBJECT;
          if (code === 0x2c /* , */) {
            this.#offset = i + 1;
            this.#expect = inObject ? Expect.Key : Expect.Value;
            continue;
          }
          const closer = inObject ? 0x7d : 0x5d;
          if (code !== closer) return this.#fail(i, `expected ',' or '${String.fromCharCode(closer)}', found ${describe(text, i)}`);
          return this.#close(i);
        }
        case Expect.KeyOrClose:
        case Expect.Key: {
          if (code === 0x7d /* } */ && this.#expect === Expect.KeyOrClose) return this.#close(i);
          if (code !== 0x22 /* " */) return this.#fail(i, `expected a property name in double quotes, found ${describe(text, i)}`);
          const end = scanString(text, i);
          if (typeof end === "string") return this.#fail(i, end);
          this.#expect = Expect.Colon;
          return this.#token("key", i, end);
        }
        case Expect.ValueOrClose:
        case Expect.Value:
          if (code === 0x5d /* ] */ && this.#expect === Expect.ValueOrClose) return this.#close(i);
          return this.#value(i, code);
      }
    }
  }

  #value(i: number, code: number): JsonToken {
    const text = this.#text;
    if (code === OBJECT || code === ARRAY) {
      this.#open.push(code);
      this.#expect = code === OBJECT ? Expect.KeyOrClose : Expect.ValueOrClose;
      return this.#token(code === OBJECT ? "{" : "[", i, i + 1);
    }
    let end: number | string;
    if (code === 0x22 /* " */) {
      end = scanString(text, i);
    } else if (code === 0x2d /* - */ || (code >= 0x30 && code <= 0x39)) {
      NUMBER.lastIndex = i;
      end = NUMBER.test(text) ? NUMBER.lastIndex : "invalid number";
    } else {
      const literal = LITERALS.find((word) => text.startsWith(word, i));
      end = literal === undefined ? `expected a JSON value, found ${describe(text, i)}` : i + literal.length;
    }
    if (typeof end === "string") return this.#fail(i, end);
    this.#expect = this.#open.length > 0 ? Expect.CommaOrClose : Expect.Done;
    return this.#token("scalar", i, end);
  }

  #close(i: number): JsonToken {
    const kind = this.#open.pop() === OBJECT ? "}" : "]";
    this.#expect = this.#open.length > 0 ? Expect.CommaOrClose : Expect.Done;
    return this.#token(kind, i, i + 1);
  }

  #token(kind: JsonToken, start: number, end: number): JsonToken {
    this.start = start;
    this.end = end;
    this.#offset = end;
    return kind;
  }

  #fail(offset: number, reason: string, trailing = false): "error" {
    this.start = this.end = offset;
    this.reason = reason;
    this.trailing = trailing;
    this.#finished = "error";
    return "error";
  }
}

/** The offset of the first character at or after `from` that is not JSON whitespace. */
export function skipWhitespace(text: string, from: number): number {
  let i = from;
  for (let code = text.charCodeAt(i); code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09; code = text.charCodeAt(i)) i += 1;
  return i;
}

/** The value of the (valid) string token `text.slice(start, end)`, quotes included. */
export function stringValue(text: string, start: number, end: number): string {
  const raw = text.slice(start + 1, end - 1);
  return raw.includes("\\") ? (JSON.parse(text.slice(start, end)) as string) : raw;
}

/** The offset after the closing quote of the string that opens at `start`, or what is wrong with it. */
function scanString(text: string, start: number): number | string {
  for (let i = start + 1; i < text.length; i += 1) {
    // Runs of plain characters are skipped in one native step.
    PLAIN_RUN.lastIndex = i;
    if (PLAIN_RUN.test(text)) i = PLAIN_RUN.lastIndex;
    if (i >= text.length) break;
    const code = text.charCodeAt(i);
    if (code === 0x22) return i + 1;
    if (code < 0x20) return "unescaped control character in a string";
    if (code === 0x5c) {
      const escape = text.charAt(i + 1);
      if (escape === "u") {
        if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) return "invalid \\u escape in a string";
        i += 5;
      } else if ('"\\/bfnrt'.includes(escape) && escape !== "") {
        i += 1;
      } else {
        return "invalid escape in a string";
      }
    }
  }
  return "unterminated string";
}

/** The character at `i`, as an error message names it. */
function describe(text: string, i: number): string {
  const c = text.charAt(i);
  if (text.startsWith("//", i) || text.startsWith("/*", i)) return "a comment (JSON has no comments)";
  if (c === "'") return "a single quote (JSON strings use double quotes)";
  const code = c.codePointAt(0) ?? 0;
  if (code < 0x20 || code === 0x7f) return `control character U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
  return `'${String.fromCodePoint(text.codePointAt(i) ?? 0)}'`;
}
