import { lineAndColumn, tokensOf } from "@returnlint/core";
import type { FormatterInput } from "@returnlint/api";

const WHITESPACE = new Set([" ", "\t", "\n", "\r"]);

function skipWhitespace(text: string, index: number): number {
  let i = index;
  while (i < text.length && WHITESPACE.has(text.charAt(i))) i += 1;
  return i;
}

/** The offset just after the string that starts at `index`. */
function endOfString(text: string, index: number): number {
  let i = index + 1;
  while (i < text.length) {
    const c = text.charAt(i);
    if (c === "\\") i += 2;
    else if (c === '"') return i + 1;
    else i += 1;
  }
  return text.length;
}

/** The offset just after the value that starts at `index` (iterative, so deep nesting is safe). */
function endOfValue(text: string, index: number): number {
  let depth = 0;
  let i = index;
  while (i < text.length) {
    const c = text.charAt(i);
    if (c === '"') {
      i = endOfString(text, i);
      if (depth === 0) return i;
      continue;
    }
    if (c === "{" || c === "[") depth += 1;
    else if (c === "}" || c === "]") {
      if (depth === 0) return i; // the end of the container a scalar is in
      depth -= 1;
      if (depth === 0) return i + 1;
    } else if (depth === 0 && (c === "," || WHITESPACE.has(c))) return i;
    i += 1;
  }
  return i;
}

/** Moves from the start of a container to the start of its member `token`, or returns undefined. */
function member(text: string, start: number, token: string): number | undefined {
  const open = text.charAt(start);
  if (open !== "{" && open !== "[") return undefined;
  const wanted = open === "[" ? (/^(0|[1-9]\d*)$/.test(token) ? Number(token) : -1) : -1;
  let i = skipWhitespace(text, start + 1);
  for (let position = 0; i < text.length && text.charAt(i) !== "}" && text.charAt(i) !== "]"; position += 1) {
    let found = position === wanted;
    if (open === "{") {
      const keyEnd = endOfString(text, i);
      found = (JSON.parse(text.slice(i, keyEnd)) as string) === token;
      i = skipWhitespace(text, skipWhitespace(text, keyEnd) + 1); // past the colon
    }
    if (found) return i;
    i = skipWhitespace(text, endOfValue(text, i));
    if (text.charAt(i) === ",") i = skipWhitespace(text, i + 1);
  }
  return undefined;
}

/**
 * The 1-based line, in the input, of the value a JSON Pointer names, or of its
 * nearest ancestor that exists (a missing field points at its parent); the return's
 * first line when it is not JSON or there is no pointer.
 */
export function lineOf({ text, firstLine, value }: Pick<FormatterInput, "text" | "firstLine" | "value">, pointer: string | undefined): number {
  if (value === undefined || pointer === undefined) return firstLine;
  let offset = skipWhitespace(text, 0);
  for (const token of tokensOf(pointer)) {
    const next = member(text, offset, token);
    if (next === undefined) break;
    offset = next;
  }
  return firstLine - 1 + lineAndColumn(text, offset).line;
}
