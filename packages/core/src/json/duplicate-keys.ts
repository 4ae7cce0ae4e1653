import { pointerOf } from "../pointer.js";
import type { DuplicateKey } from "../types.js";
import { JsonTokenizer, stringValue } from "./tokenizer.js";

const DUPLICATE_LIMIT = 50;

/**
 * False when the text cannot hold a key written twice: it has no more key ends (a quote,
 * JSON whitespace, a colon) than the parsed value has keys (JSON.parse keeps one key per
 * name). Inside a string a quote is escaped, so `\":` counts too: the count is never
 * below the number of keys written. Only a text that may hold one pays for the full scan.
 */
export function mayHaveDuplicateKeys(text: string, value: unknown): boolean {
  return keyEnds(text) > keyCount(value);
}

/** The colons that follow a quote and JSON whitespace: one indexOf per colon, no regex. */
function keyEnds(text: string): number {
  let written = 0;
  for (let colon = text.indexOf(":"); colon !== -1; colon = text.indexOf(":", colon + 1)) {
    let before = colon - 1;
    let code = text.charCodeAt(before);
    while (code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09) {
      before -= 1;
      code = text.charCodeAt(before);
    }
    if (code === 0x22) written += 1;
  }
  return written;
}

/** keyCount's work list of objects and arrays, kept between calls (keyCount calls nothing that could reenter it): a return allocates none. */
const pending: object[] = [];

function keyCount(value: unknown): number {
  if (typeof value !== "object" || value === null) return 0;
  let count = 0;
  pending.push(value);
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (Array.isArray(next)) {
      for (const item of next as unknown[]) if (typeof item === "object" && item !== null) pending.push(item);
    } else {
      for (const key in next) {
        count += 1;
        const item = (next as Record<string, unknown>)[key];
        if (typeof item === "object" && item !== null) pending.push(item);
      }
    }
  }
  return count;
}

interface OpenObject {
  readonly kind: "object";
  readonly counts: Map<string, number>;
  key: string;
  /** This object's entries in the list, to update their count. */
  listed?: Map<string, { count: number }>;
}

interface OpenArray {
  readonly kind: "array";
  /** The element being read: -1 before the first. */
  index: number;
}

/**
 * The keys that appear twice in one object, at any depth, with the pointer of that
 * object, in the order their second appearance is written (at most 50). `text` is
 * meant to be JSON (JSON.parse accepted it); the scan stops where it is not.
 */
export function findDuplicateKeys(text: string): DuplicateKey[] {
  const found: { pointer: string; key: string; count: number }[] = [];
  const open: (OpenObject | OpenArray)[] = [];
  const tokens = new JsonTokenizer(text);
  for (let token = tokens.next(); token !== "end" && token !== "error"; token = tokens.next()) {
    if (token === "}" || token === "]") {
      open.pop();
      continue;
    }
    const container = open.at(-1);
    if (token === "key") {
      if (container?.kind !== "object") continue;
      const key = stringValue(text, tokens.start, tokens.end);
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
      continue;
    }
    // A value starts: in an array, the next element.
    if (container?.kind === "array") container.index += 1;
    if (token === "{") open.push({ kind: "object", counts: new Map(), key: "" });
    else if (token === "[") open.push({ kind: "array", index: -1 });
  }
  return found;
}

function tokenOf(container: OpenObject | OpenArray): string | number {
  return container.kind === "object" ? container.key : container.index;
}
