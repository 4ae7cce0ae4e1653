import type { ParseOutcome } from "./types.js";

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
 * and where: line and column, 1-based.
 */
export function parseReturn(text: string): ParseOutcome {
  if (text.trim() === "") {
    return { ok: false, kind: "empty", reason: "the input is empty", line: 1, column: 1 };
  }
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    const found = locateJsonError(text);
    const where = lineAndColumn(text, found.offset);
    const start = text.search(/\S/);
    if (!found.trailing && !CAN_START_JSON.test(text.charAt(start)) && !text.includes("{")) {
      return { ok: false, kind: "noReturn", reason: "no JSON object was found in the message", ...where };
    }
    return { ok: false, kind: found.trailing ? "trailing" : "syntax", reason: found.reason, ...where };
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
