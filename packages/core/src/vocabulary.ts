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

/** Why `auto` chose a format: one clause, printed in the transcript. */
export interface Detection {
  readonly format: FormatName;
  readonly reason: string;
}

/** The file names each file-borne format is written to: a return read from one is in that format. */
const FORMAT_OF_FILE: readonly (readonly [RegExp, FormatName])[] = [
  [/^\.return-meta\.json$/, "metadata-file"],
  [/^\.orchestrator-handoff\.json$/, "handoff"],
];

/** The format a return file's name says it holds (`.orchestrator-handoff.json` → handoff), if any. */
export function formatOfFileName(name: string): FormatName | undefined {
  return FORMAT_OF_FILE.find(([pattern]) => pattern.test(name))?.[1];
}

/** Statuses only the legacy vocabulary has: a return that uses one is a console return (v5 or v7). */
const LEGACY_ONLY: readonly string[] = ["completed"];

/** Fields return-metadata-file.md defines and the console formats do not. */
const METADATA_FILE_FIELDS = ["partial_progress", "completion_data", "started_at"] as const;

/**
 * Which format one return is written in (like Spectral's `formats`), and why,
 * from the evidence in this order:
 *
 * 1. it was read from a file (`check FILE`, `check --task`, `scan`): the format that file's name
 *    says (`.orchestrator-handoff.json`: handoff), else metadata-file;
 * 2. a contextual or early-metadata status (researched, planned, implemented, in_progress),
 *    which only the metadata-file vocabulary has: metadata-file, never v5;
 * 3. a status only the legacy vocabulary has (`completed`): v5 with a top-level
 *    `session_id`, else v7, even when `summary` is missing (a console return that forgot it);
 * 4. a field only the metadata-file schema has (`partial_progress`, `completion_data`,
 *    `started_at`): metadata-file;
 * 5. no `summary` beside a `metadata` object: metadata-file (the only format where summary
 *    is optional);
 * 6. a top-level `session_id` (and none under `metadata`): v5;
 * 7. anything else: v7.
 *
 * `source` names the metadata file the return was read from, when it was.
 */
export function detectFormat(value: unknown, source?: string): Detection {
  if (source !== undefined) return { format: formatOfFileName(source.split(/[\\/]/).at(-1) ?? "") ?? "metadata-file", reason: `read from ${source}` };
  if (!isObject(value)) return { format: "v7", reason: "not a JSON object, checked as a console return" };
  const metadata = value.metadata;
  const topLevelSession = "session_id" in value && !(isObject(metadata) && "session_id" in metadata);
  const status = value.status;
  if (typeof status === "string" && (status === IN_PROGRESS || (CONTEXTUAL_SUCCESS as readonly string[]).includes(status))) {
    return { format: "metadata-file", reason: `status "${status}" is contextual` };
  }
  if (typeof status === "string" && LEGACY_ONLY.includes(status)) {
    return topLevelSession
      ? { format: "v5", reason: `status "${status}" is legacy and session_id is at the top level` }
      : { format: "v7", reason: `status "${status}" is legacy` };
  }
  const own = METADATA_FILE_FIELDS.find((field) => field in value);
  if (own !== undefined) return { format: "metadata-file", reason: `it has ${own}, which only metadata files carry` };
  if (!("summary" in value) && isObject(metadata)) {
    return { format: "metadata-file", reason: "no summary, which only metadata files may omit" };
  }
  if (topLevelSession) return { format: "v5", reason: "session_id is at the top level" };
  return { format: "v7", reason: "nothing marks it as v5 or a metadata file" };
}
