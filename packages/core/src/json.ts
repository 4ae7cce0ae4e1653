import { pointerOf } from "./pointer.js";
import type { DuplicateKey, ParseNotes, ParseOutcome } from "./types.js";

const BOM = "\uFEFF";
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const CAN_START_JSON = /[{["\-0-9tfn]/;

/** Removes a leading byte-order mark, which editors and some shells add. */
export function stripBom(text: string): string {
  return text.startsWith(BOM) ? text.slice(1) : text;
}

/**
 * Parses a return once, for every rule. On failure it says what kind of failure
 * (nothing at all, prose with no JSON in it, a syntax error, text after the value)
 * and where: line and column, 1-based. `parsed` is the value of a caller that already
 * parsed this very text (extractReturn, while finding it): it is not parsed again.
 */
export function parseReturn(text: string, parsed?: { readonly value: unknown }): ParseOutcome {
  const notes = notesOf(text);
  if (text.trim() === "") {
    return { ok: false, kind: "empty", reason: "the input is empty", line: 1, column: 1, ...notes };
  }
  let value: unknown = parsed?.value;
  try {
    if (parsed === undefined) value = JSON.parse(text) as unknown;
  } catch {
    const found = locateJsonError(text);
    const where = lineAndColumn(text, found.offset);
    const start = text.search(/\S/);
    if (!found.trailing && !CAN_START_JSON.test(text.charAt(start)) && !text.includes("{")) {
      return { ok: false, kind: "noReturn", reason: "no JSON object was found in the message", ...where, ...notes };
    }
    return { ok: false, kind: found.trailing ? "trailing" : "syntax", reason: found.reason, ...where, ...notes };
  }
  const duplicateKeys = mayHaveDuplicateKeys(text, value) ? findDuplicateKeys(text) : [];
  return { ok: true, value, ...notes, ...(duplicateKeys.length === 0 ? {} : { duplicateKeys }) };
}

// The end of a key: a quote, then a colon. Inside a string a quote is escaped, so `\":`
// can match too; the count is never below the number of keys written.
const KEY_END = /"\s*:/g;

/**
 * False when the text cannot hold a key written twice: it has no more key ends than
 * the parsed value has keys (JSON.parse keeps one key per name). Only a text that
 * may hold one pays for the full scan.
 */
function mayHaveDuplicateKeys(text: string, value: unknown): boolean {
  let written = 0;
  KEY_END.lastIndex = 0;
  while (KEY_END.test(text)) written += 1;
  return written > keyCount(value);
}

function keyCount(value: unknown): number {
  let count = 0;
  const pending: unknown[] = [value];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (typeof next !== "object" || next === null) continue;
    if (Array.isArray(next)) {
      for (const item of next) pending.push(item);
    } else {
      for (const key in next) {
        count += 1;
        pending.push((next as Record<string, unknown>)[key]);
      }
    }
  }
  return count;
}

// A lone surrogate: `u` mode reads a well-formed pair as one code point, which is not Cs.
const LONE_SURROGATE = /\p{Cs}/u;

const NO_NOTES: ParseNotes = Object.freeze({});

/** String.prototype.isWellFormed: in Node 20, typed only by TypeScript's ES2024 lib, which this project does not target. */
interface WellFormed {
  isWellFormed(): boolean;
}

function notesOf(text: string): ParseNotes {
  // isWellFormed is one native pass; only text that holds a lone surrogate pays for the search.
  if ((text as unknown as WellFormed).isWellFormed()) return NO_NOTES;
  const invalid = text.search(LONE_SURROGATE);
  return invalid === -1 ? {} : { invalidUtf8: lineAndColumn(text, invalid) };
}

// Made on first use: creating a TextDecoder at load time is a measurable part of start-up.
let strictUtf8: InstanceType<typeof TextDecoder> | undefined;

/**
 * Decodes input bytes as UTF-8. A byte that is not part of valid UTF-8 becomes the
 * lone surrogate U+DC00 + byte (Python's "surrogateescape"), so that parseReturn can
 * say where the input stopped being text: a replacement character would hide it,
 * since valid text may hold U+FFFD but never a lone surrogate. A leading byte-order
 * mark is dropped.
 */
export function decodeUtf8(bytes: Uint8Array): string {
  try {
    strictUtf8 ??= new TextDecoder("utf-8", { fatal: true });
    return strictUtf8.decode(bytes);
  } catch {
    // Not UTF-8 throughout: decoded by hand below, escaping what is not.
  }
  // One UTF-16 unit per byte at most: a 4-byte sequence becomes a pair.
  const units = new Uint16Array(bytes.length);
  let count = 0;
  const at = (index: number): number => bytes[index] ?? 0;
  for (let i = at(0) === 0xef && at(1) === 0xbb && at(2) === 0xbf ? 3 : 0; i < bytes.length; ) {
    const lead = at(i);
    const length = utf8SequenceLength(bytes, i);
    if (length === 0) {
      units[count++] = 0xdc00 + lead;
      i += 1;
    } else if (length === 4) {
      const point = (((lead & 0x07) << 18) | ((at(i + 1) & 0x3f) << 12) | ((at(i + 2) & 0x3f) << 6) | (at(i + 3) & 0x3f)) - 0x10000;
      units[count++] = 0xd800 + (point >> 10);
      units[count++] = 0xdc00 + (point & 0x3ff);
      i += 4;
    } else {
      units[count++] =
        length === 1 ? lead : length === 2 ? ((lead & 0x1f) << 6) | (at(i + 1) & 0x3f) : ((lead & 0x0f) << 12) | ((at(i + 1) & 0x3f) << 6) | (at(i + 2) & 0x3f);
      i += length;
    }
  }
  const parts: string[] = [];
  for (let start = 0; start < count; start += 8192) parts.push(String.fromCharCode(...units.subarray(start, Math.min(count, start + 8192))));
  return parts.join("");
}

/** The length of the well-formed UTF-8 sequence at `i` (RFC 3629's table), or 0. */
function utf8SequenceLength(bytes: Uint8Array, i: number): number {
  const lead = bytes[i] ?? 0;
  if (lead < 0x80) return 1;
  const continues = (offset: number, low = 0x80, high = 0xbf): boolean => {
    const byte = bytes[i + offset];
    return byte !== undefined && byte >= low && byte <= high;
  };
  if (lead >= 0xc2 && lead <= 0xdf) return continues(1) ? 2 : 0;
  if (lead >= 0xe0 && lead <= 0xef) {
    // E0 would be an overlong encoding below A0; ED A0 and above are surrogates.
    return continues(1, lead === 0xe0 ? 0xa0 : 0x80, lead === 0xed ? 0x9f : 0xbf) && continues(2) ? 3 : 0;
  }
  if (lead >= 0xf0 && lead <= 0xf4) {
    // F0 below 90 is overlong; F4 90 and above is past U+10FFFF.
    return continues(1, lead === 0xf0 ? 0x90 : 0x80, lead === 0xf4 ? 0x8f : 0xbf) && continues(2) && continues(3) ? 4 : 0;
  }
  return 0;
}

const DUPLICATE_LIMIT = 50;

interface OpenObject {
  readonly kind: "object";
  readonly counts: Map<string, number>;
  expectingKey: boolean;
  key: string;
  /** This object's entries in the list, to update their count. */
  listed?: Map<string, { count: number }>;
}

interface OpenArray {
  readonly kind: "array";
  index: number;
}

/**
 * The keys that appear twice in one object, at any depth. `text` must be valid JSON
 * (JSON.parse accepted it), so this only has to follow the nesting: one pass with an
 * explicit stack, jumping from quote to quote through strings.
 */
export function findDuplicateKeys(text: string): DuplicateKey[] {
  const found: { pointer: string; key: string; count: number }[] = [];
  const open: (OpenObject | OpenArray)[] = [];
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code === 0x22 /* " */) {
      const end = endOfString(text, i);
      const container = open.at(-1);
      if (container?.kind === "object" && container.expectingKey) {
        const raw = text.slice(i + 1, end - 1);
        const key = raw.includes("\\") ? (JSON.parse(text.slice(i, end)) as string) : raw;
        container.expectingKey = false;
        container.key = key;
        const count = (container.counts.get(key) ?? 0) + 1;
        container.counts.set(key, count);
        const listed = count > 2 ? container.listed?.get(key) : undefined;
        if (listed !== undefined) listed.count = count;
        else if (count === 2 && found.length < DUPLICATE_LIMIT) {
          const entry = { pointer: pointerOf(...open.slice(0, -1).map(tokenOf)), key, count };
          found.push(entry);
          container.listed ??= new Map();
          container.listed.set(key, entry);
        }
      }
      i = end - 1;
    } else if (code === 0x7b /* { */) {
      open.push({ kind: "object", counts: new Map(), expectingKey: true, key: "" });
    } else if (code === 0x5b /* [ */) {
      open.push({ kind: "array", index: 0 });
    } else if (code === 0x7d /* } */ || code === 0x5d /* ] */) {
      open.pop();
    } else if (code === 0x2c /* , */) {
      const container = open.at(-1);
      if (container?.kind === "object") container.expectingKey = true;
      else if (container !== undefined) container.index += 1;
    }
  }
  return found;
}

function tokenOf(container: OpenObject | OpenArray): string | number {
  return container.kind === "object" ? container.key : container.index;
}

/** The offset after the closing quote of the (valid) string that opens at `start`. */
function endOfString(text: string, start: number): number {
  let from = start + 1;
  for (;;) {
    const quote = text.indexOf('"', from);
    if (quote === -1) return text.length;
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === 0x5c) backslashes += 1;
    if (backslashes % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}

export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let index = text.indexOf("\n"); index !== -1 && index < offset; index = text.indexOf("\n", index + 1)) {
    line += 1;
    lineStart = index + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

type Expect = "value" | "valueOrClose" | "keyOrClose" | "key" | "colon" | "commaOrClose" | "done";

/**
 * Walks the text with an explicit stack (no recursion, so deep nesting is safe)
 * and returns the offset and a description of the first thing that is not JSON.
 */
export function locateJsonError(text: string): { offset: number; reason: string; trailing: boolean } {
  const stack: string[] = [];
  let expect: Expect = "value";
  let i = 0;
  const fail = (reason: string, trailing = false) => ({ offset: i, reason, trailing });

  for (;;) {
    while (i < text.length && " \t\n\r".includes(text.charAt(i))) i += 1;
    if (i >= text.length) {
      return expect === "done" ? fail("no error found") : fail("unexpected end of input");
    }
    const c = text.charAt(i);
    const closer = stack.at(-1) === "{" ? "}" : "]";

    if (expect === "done") return fail(`unexpected ${describe(text, i)} after the JSON value`, true);
    if (expect === "colon") {
      if (c !== ":") return fail(`expected ':' after a property name, found ${describe(text, i)}`);
      i += 1;
      expect = "value";
      continue;
    }
    if (expect === "commaOrClose") {
      if (c === ",") {
        i += 1;
        expect = stack.at(-1) === "{" ? "key" : "value";
        continue;
      }
      if (c !== closer) return fail(`expected ',' or '${closer}', found ${describe(text, i)}`);
      stack.pop();
      i += 1;
      expect = stack.length > 0 ? "commaOrClose" : "done";
      continue;
    }
    if ((expect === "keyOrClose" && c === "}") || (expect === "valueOrClose" && c === "]")) {
      stack.pop();
      i += 1;
      expect = stack.length > 0 ? "commaOrClose" : "done";
      continue;
    }
    if (expect === "key" || expect === "keyOrClose") {
      if (c !== '"') return fail(`expected a property name in double quotes, found ${describe(text, i)}`);
      const end = scanString(text, i);
      if (typeof end === "string") return fail(end);
      i = end;
      expect = "colon";
      continue;
    }
    // expect is "value" or "valueOrClose"
    if (c === "{" || c === "[") {
      stack.push(c);
      i += 1;
      expect = c === "{" ? "keyOrClose" : "valueOrClose";
      continue;
    }
    let end: number | string;
    if (c === '"') {
      end = scanString(text, i);
    } else if (c === "-" || (c >= "0" && c <= "9")) {
      NUMBER.lastIndex = i;
      end = NUMBER.test(text) ? NUMBER.lastIndex : "invalid number";
    } else {
      const literal = ["true", "false", "null"].find((word) => text.startsWith(word, i));
      end = literal === undefined ? `expected a JSON value, found ${describe(text, i)}` : i + literal.length;
    }
    if (typeof end === "string") return fail(end);
    i = end;
    expect = stack.length > 0 ? "commaOrClose" : "done";
  }
}

/** Returns the offset after the closing quote, or what is wrong with the string. */
function scanString(text: string, start: number): number | string {
  for (let i = start + 1; i < text.length; i += 1) {
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

function describe(text: string, i: number): string {
  const c = text.charAt(i);
  if (text.startsWith("//", i) || text.startsWith("/*", i)) return "a comment (JSON has no comments)";
  if (c === "'") return "a single quote (JSON strings use double quotes)";
  const code = c.codePointAt(0) ?? 0;
  if (code < 0x20 || code === 0x7f) return `control character U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
  return `'${String.fromCodePoint(text.codePointAt(i) ?? 0)}'`;
}
