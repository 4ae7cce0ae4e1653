import { JsonTokenizer } from "./tokenizer.js";

/**
 * The offset and a description of the first thing in `text` that is not JSON;
 * `trailing` when a whole value came before it. For text that is JSON, the reason is
 * "no error found" at its end.
 */
export function locateJsonError(text: string): { offset: number; reason: string; trailing: boolean } {
  const tokens = new JsonTokenizer(text);
  for (let token = tokens.next(); token !== "error"; token = tokens.next()) {
    if (token === "end") return { offset: tokens.start, reason: "no error found", trailing: false };
  }
  return { offset: tokens.start, reason: tokens.reason, trailing: tokens.trailing };
}
