import type { FormatName } from "./types.js";
import { isObject } from "./pointer.js";

/** subagent-return-validation.md, Step 3. */
export const LEGACY_STATUSES = ["completed", "partial", "failed", "blocked"] as const;

/** return-metadata-file.md and orchestration-validation.md. */
export const CONTEXTUAL_SUCCESS = ["researched", "planned", "implemented"] as const;
export const NON_SUCCESS_STATUSES = ["partial", "failed", "blocked"] as const;
export const IN_PROGRESS = "in_progress";

/** The contextual success status each command expects (DESIGN.md). */
export const COMMAND_SUCCESS: Readonly<Record<string, string>> = {
  research: "researched",
  plan: "planned",
  revise: "planned",
  implement: "implemented",
};

/** Words subagents use for "finished" instead of the vocabulary (seen in real returns). */
export const SUCCESS_WORDS =
  /^(?:complete|completed|done|success|successful|succeeded|finished|ok|ready)$|_(?:done|complete|completed|written|ready|finished|created)$/;

/** A status that claims finished work: the vocabulary's success statuses, or a word that means the same. */
export function isSuccessLike(status: string): boolean {
  const normalized = status.trim().toLowerCase();
  return ["completed", ...CONTEXTUAL_SUCCESS].includes(normalized) || SUCCESS_WORDS.test(normalized);
}

/** The statuses that claim finished work, and so demand artifacts. */
export function successStatuses(command: string | null): readonly string[] {
  const contextual = command === null ? undefined : COMMAND_SUCCESS[command];
  return contextual === undefined ? ["completed", ...CONTEXTUAL_SUCCESS] : ["completed", contextual];
}

/**
 * Which format one return is written in, from its shape alone (like Spectral's `formats`):
 * a top-level `session_id` is v5; a contextual or early-metadata status, or no summary
 * beside a `metadata` object, is the metadata file; anything else is v7.
 */
export function detectFormat(value: unknown): FormatName {
  if (!isObject(value)) return "v7";
  const metadata = value.metadata;
  if ("session_id" in value && !(isObject(metadata) && "session_id" in metadata)) return "v5";
  const status = value.status;
  if (typeof status === "string" && (status === IN_PROGRESS || (CONTEXTUAL_SUCCESS as readonly string[]).includes(status))) {
    return "metadata-file";
  }
  if (!("summary" in value) && isObject(metadata)) return "metadata-file";
  return "v7";
}
