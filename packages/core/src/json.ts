import { lineAndColumn } from "./text-position.js";
import type { ParseNotes, ParseOutcome } from "./types.js";
import { findDuplicateKeys, mayHaveDuplicateKeys } from "./json/duplicate-keys.js";
import { locateJsonError } from "./json/syntax-error.js";

/**
 * Text that was meant as JSON, broken or not: it opens like an object, an array or a string, or
 * it is one scalar and nothing else. Prose is anything else, even when it starts like a number
 * or a literal ("- Wrote the report", "1. Research done", "the plan is…") or quotes `{N}`. Bytes
 * that are not text (a BOM, what was not UTF-8) before it do not make it prose. Everything
 * JSON.parse accepts is meant as JSON, so prose is known not to parse without parsing it (a
 * failed JSON.parse costs a SyntaxError and its stack, as much as parsing a whole return).
 */
const MEANT_AS_JSON = /^[\s\uFEFF\uFFFD\uD800-\uDFFF]*(?:[{["]|(?:-?\d[\d.eE+-]*|true|false|null)\s*$)/;

export function meantAsJson(text: string): boolean {
  return MEANT_AS_JSON.test(text);
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
  if (parsed === undefined && !meantAsJson(text)) return unparsed(text, notes, true);
  let value: unknown = parsed?.value;
  try {
    if (parsed === undefined) value = JSON.parse(text) as unknown;
  } catch {
    return unparsed(text, notes, false);
  }
  const duplicateKeys = mayHaveDuplicateKeys(text, value) ? findDuplicateKeys(text) : undefined;
  // The common outcome (well-formed text, no key written twice) is built without a spread.
  if (notes === NO_NOTES && (duplicateKeys === undefined || duplicateKeys.length === 0)) return { ok: true, value };
  return { ok: true, value, ...notes, ...(duplicateKeys === undefined || duplicateKeys.length === 0 ? {} : { duplicateKeys }) };
}

/** Why and where a text that does not parse fails: prose holds no return; JSON is broken at a line and column. */
function unparsed(text: string, notes: ParseNotes, prose: boolean): ParseOutcome {
  const found = locateJsonError(text);
  const where = lineAndColumn(text, found.offset);
  if (prose) {
    return { ok: false, kind: "noReturn", reason: "no JSON object was found in the message", ...where, ...notes };
  }
  return { ok: false, kind: found.trailing ? "trailing" : "syntax", reason: found.reason, ...where, ...notes };
}

// A lone surrogate: `u` mode reads a well-formed pair as one code point, outside this range.
// (The same set as \p{Cs}, whose Unicode property table costs ~0.2 ms to build at start-up.)
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

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
