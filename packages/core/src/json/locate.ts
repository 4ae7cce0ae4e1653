import { tokensOf } from "../pointer.js";
import { JsonTokenizer, skipWhitespace, stringValue } from "./tokenizer.js";

const ARRAY_INDEX = /^(0|[1-9]\d*)$/;

/**
 * The offset in `text` of the value a JSON Pointer names, or of its nearest ancestor
 * that exists (a missing member points at its container). A key written twice names
 * its first appearance. The walk stops where the text stops being JSON.
 */
export function offsetOfPointer(text: string, pointer: string): number {
  const wanted = tokensOf(pointer);
  let found = skipWhitespace(text, 0);
  /** How many of the pointer's tokens the value at `found` matches; its members sit one level deeper. */
  let matched = 0;
  /** What the value at `found` is: its members are searched only when it is a container. */
  let foundKind: "{" | "[" | "scalar" | undefined;
  let depth = 0;
  let index = -1;
  let key = "";
  const tokens = new JsonTokenizer(text);
  for (let token = tokens.next(); token !== "end" && token !== "error"; token = tokens.next()) {
    if (token === "}" || token === "]") {
      depth -= 1;
      // The container at `found` closed without the member wanted.
      if (depth === matched) break;
      continue;
    }
    if (token === "key") {
      if (depth === matched + 1) key = stringValue(text, tokens.start, tokens.end);
      continue;
    }
    if (foundKind === undefined) {
      foundKind = token;
    } else if (depth === matched + 1) {
      index += 1;
      const next = wanted[matched] ?? "";
      if (foundKind === "{" ? key === next : ARRAY_INDEX.test(next) && Number(next) === index) {
        matched += 1;
        found = tokens.start;
        foundKind = token;
        index = -1;
      }
    }
    if (matched === wanted.length || foundKind === "scalar") break;
    if (token !== "scalar") depth += 1;
  }
  return found;
}
