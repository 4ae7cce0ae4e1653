import { jsonType, preview } from "./json/render.js";

/** What a return holds where a rule expected something else, as messages quote it: `null`, `string "done"`, `number 3`. */
export function receivedValue(value: unknown, maxChars = 40): string {
  return value === null ? "null" : `${jsonType(value)} ${preview(value, maxChars)}`;
}
