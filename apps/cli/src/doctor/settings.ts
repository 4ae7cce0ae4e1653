import path from "node:path";
import { FileRefusedError, isObject, readRegularFile } from "@returnlint/core";
import type { DoctorLine } from "./host-doctor.js";

/** A host's settings file is a few kilobytes; a larger one is not read. */
const MAX_SETTINGS_BYTES = 4 * 1024 * 1024;

/** A host's JSON settings file as doctor reads it: its object, absent, or a line saying why it cannot be read. */
export type SettingsRead =
  | { readonly kind: "object"; readonly file: string; readonly value: Readonly<Record<string, unknown>> }
  | { readonly kind: "missing"; readonly file: string }
  | { readonly kind: "broken"; readonly file: string; readonly line: DoctorLine };

/**
 * Reads `root/relative` (a regular file only, never a FIFO or a device), as the host would: a JSON
 * object. What the host cannot read is a failing line: it then runs no hook from that file.
 */
export function readSettings(root: string, relative: string): SettingsRead {
  let text: string;
  try {
    text = readRegularFile(path.join(root, relative), { maxBytes: MAX_SETTINGS_BYTES }).bytes.toString("utf8");
  } catch (error) {
    if (!(error instanceof FileRefusedError)) throw error;
    if (error.kind === "missing") return { kind: "missing", file: relative };
    return { kind: "broken", file: relative, line: { level: "fail", text: `${relative} cannot be read: ${error.reason}.` } };
  }
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (error) {
    return { kind: "broken", file: relative, line: { level: "fail", text: `${relative} is not JSON (${error instanceof Error ? error.message : String(error)}): the host reads no hook from it.` } };
  }
  if (!isObject(value)) return { kind: "broken", file: relative, line: { level: "fail", text: `${relative} is not a JSON object: the host reads no hook from it.` } };
  return { kind: "object", file: relative, value };
}

/** "A, B and C". */
export function andList(items: readonly string[]): string {
  return items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1] ?? ""}`;
}
