import { lineAndColumn, offsetOfPointer } from "@returnlint/core";
import type { FormatterInput } from "@returnlint/api";

/**
 * The 1-based line, in the input, of the value a JSON Pointer names, or of its
 * nearest ancestor that exists (a missing field points at its parent); the return's
 * first line when it is not JSON or there is no pointer.
 */
export function lineOf({ text, firstLine, value }: Pick<FormatterInput, "text" | "firstLine" | "value">, pointer: string | undefined): number {
  if (value === undefined || pointer === undefined) return firstLine;
  return firstLine - 1 + lineAndColumn(text, offsetOfPointer(text, pointer)).line;
}
