import type { FormatName, JsonObject } from "./types.js";
import { isObject } from "./pointer.js";

// Everything returnlint knows about the return formats, in one place: which formats there are,
// the status vocabulary and the command each success status answers, what a name or a word says
// about the command, where a metadata file lives, and which format a return is written in.

/** The return formats (README.md, "Five formats in one project"): each has a built-in preset of the same name; `auto` detects one per return. */
export const FORMAT_NAMES = ["v5", "v7", "metadata-file", "handoff", "multi-task"] as const;

/** What a return checked under a project's contract is: in no format of returnlint's own, and never detected (docs/contracts.md). */
export const CONTRACT_FORMAT = "contract";

/** subagent-return-validation.md, Step 3. */
export const LEGACY_STATUSES = ["completed", "partial", "failed", "blocked"] as const;
export const NON_SUCCESS_STATUSES = ["partial", "failed", "blocked"] as const;
export const IN_PROGRESS = "in_progress";

/** The JSON types the validation documents give the fields a return must have (subagent-return-validation.md, "Required fields"). */
export const REQUIRED_FIELD_TYPES: Readonly<Record<string, "string" | "array" | "object" | "integer">> = {
  status: "string",
  summary: "string",
  artifacts: "array",
  metadata: "object",
  session_id: "string",
  "metadata.session_id": "string",
  "metadata.agent_type": "string",
  "metadata.delegation_depth": "integer",
  "metadata.delegation_path": "array",
};

/** The orchestrator's commands, each with the contextual success status it expects (return-metadata-file.md, orchestration-validation.md). */
export const COMMAND_SUCCESS: Readonly<Record<string, string>> = {
  research: "researched",
  plan: "planned",
  revise: "planned",
  implement: "implemented",
};

/** The contextual success statuses (return-metadata-file.md, orchestration-validation.md). */
export const CONTEXTUAL_SUCCESS = ["researched", "planned", "implemented"] as const;

/**
 * The command a contextual success status answers: the first command that expects it
 * (researched → research, planned → plan, implemented → implement); null for any other
 * status. /revise answers `planned` too: only the delegation tells it from /plan.
 */
export function commandOfStatus(status: unknown): string | null {
  return typeof status === "string" ? (COMMAND_OF_STATUS.get(status) ?? null) : null;
}

const COMMAND_OF_STATUS: ReadonlyMap<string, string> = new Map(
  Object.entries(COMMAND_SUCCESS)
    .reverse()
    .map(([command, success]) => [success, command]),
);

/** The words in a subagent's name that point at a command, most specific first: `revise-plan-agent` revises. */
const NAME_WORDS: readonly (readonly [RegExp, string])[] = [
  [/revis/i, "revise"],
  [/research/i, "research"],
  [/implement/i, "implement"],
  [/plan/i, "plan"],
];

/** The command an agent's name points at (`research-agent` → research, `planner` → plan), if any. */
export function commandInName(name: string): string | null {
  return NAME_WORDS.find(([pattern]) => pattern.test(name))?.[1] ?? null;
}

/** The words in a status that point at a success status (`report_written` meant researched). */
const STATUS_WORDS: readonly (readonly [RegExp, string])[] = [
  [/research|report/, "researched"],
  [/plan/, "planned"],
  [/implement/, "implemented"],
];

/** The success status a word for "finished" points at (`report_written` → researched, `plan_done` → planned), if any. */
export function successInWord(word: string): string | undefined {
  return STATUS_WORDS.find(([pattern]) => pattern.test(word))?.[1];
}

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

/** return-metadata-file.md: a task's return is `specs/{N}_{SLUG}/.return-meta.json` below the project root. */
export const METADATA_FILE = ".return-meta.json";
/** The orchestrator's handoff (docs/formats-handoff.md), beside the metadata file in a task folder. */
export const HANDOFF_FILE = ".orchestrator-handoff.json";
/** The folder below the project root that holds the task folders. */
export const SPECS_DIR = "specs";
/** The folder below SPECS_DIR that finished tasks move to: `specs/archive/{NNN}_{SLUG}/`. */
export const ARCHIVE_DIR = "archive";

/** The file names each file-borne format is written to: a return read from one is in that format. */
const FORMAT_OF_FILE: readonly { readonly name: string; readonly pattern: RegExp; readonly format: FormatName }[] = [
  { name: METADATA_FILE, pattern: /^\.return-meta\.json$/, format: "metadata-file" },
  { name: HANDOFF_FILE, pattern: /^\.orchestrator-handoff\.json$/, format: "handoff" },
  { name: ".return-meta-multi*.json", pattern: /^\.return-meta-multi(?:-sess_[\w-]+)?\.json$/, format: "multi-task" },
];

/** The names of the files returns are written to (what `scan` looks for), as messages show them. */
export const RETURN_FILE_NAMES: readonly string[] = FORMAT_OF_FILE.map((entry) => entry.name);

/** A regular expression's source that finds any of RETURN_FILE_NAMES in a text (an agent's instructions), `*` standing for a session's suffix. */
export const RETURN_FILE_MENTION: string = RETURN_FILE_NAMES.map((name) => name.replaceAll(".", String.raw`\.`).replace("*", String.raw`[\w-]*`)).join("|");

/** The format a return file's name says it holds (`.return-meta.json` → metadata-file, `.orchestrator-handoff.json` → handoff, `.return-meta-multi.json` → multi-task), if any. */
export function formatOfFileName(name: string): FormatName | undefined {
  return FORMAT_OF_FILE.find((entry) => entry.pattern.test(name))?.format;
}

/** A task folder's name up to its slug: a prefix of letters, maybe, then the number (group 1). */
const TASK_FOLDER = String.raw`(?:[A-Za-z]+_)?(\d+)_`;
const TASK_FOLDER_START = new RegExp(`^${TASK_FOLDER}`);
/** A task folder named in a message (group 1: the folder, group 2: the number), and its metadata file. */
const NAMED_FOLDER = String.raw`${SPECS_DIR}/(${TASK_FOLDER}[\w.-]+)/`;
const NAMED_METADATA_FILE = new RegExp(`${NAMED_FOLDER}${METADATA_FILE.replaceAll(".", "\\.")}`, "g");
const NAMED_TASK_FOLDER = new RegExp(NAMED_FOLDER, "g");

/**
 * The task number a task folder's name gives: `{N}_{SLUG}`, padded or not (`259_x`, `007_x`), or
 * with a prefix of letters before the number, `{PREFIX}_{N}_{SLUG}`: OpenCode's agents create
 * `OC_503_port_missing_core_commands` beside Claude Code's `503_…` folders.
 */
export function taskOfFolder(name: string): string | undefined {
  return TASK_FOLDER_START.exec(name)?.[1];
}

/** The task a metadata file's path names (`specs/259_x/.return-meta.json` → 259, `specs/OC_7_x/…` → 7), at any depth (`specs/archive/…`). */
export function taskOfPath(file: string): string | undefined {
  const folder = /(?:^|[\\/])([^\\/]+)[\\/]\.return-meta\.json$/.exec(file)?.[1];
  return folder === undefined ? undefined : taskOfFolder(folder);
}

/**
 * The last task a message names, with its folder below specs/: a metadata file
 * (`specs/259_x/.return-meta.json`), or with `folder`, a task folder (`specs/259_x/…`,
 * `specs/OC_7_x/…`), as subagents name the report they wrote.
 */
export function taskNamedIn(message: string, options: { readonly folder: boolean }): { readonly task: string; readonly folder: string } | undefined {
  // Most messages name neither (a JSON return names its artifacts, not its task's metadata file): a substring says so before a search.
  const named =
    (message.includes(METADATA_FILE) ? lastMatch(message, NAMED_METADATA_FILE) : undefined) ??
    (options.folder && message.includes(`${SPECS_DIR}/`) ? lastMatch(message, NAMED_TASK_FOLDER) : undefined);
  return named === undefined ? undefined : { task: named[2] ?? "", folder: named[1] ?? "" };
}

/** The last match of a global `pattern` in `text`, without a list of them all. */
function lastMatch(text: string, pattern: RegExp): RegExpExecArray | undefined {
  pattern.lastIndex = 0;
  let last: RegExpExecArray | undefined;
  for (let found = pattern.exec(text); found !== null; found = pattern.exec(text)) {
    last = found;
    // An empty match would not move on (these patterns never match empty; a guard all the same).
    if (found[0] === "") pattern.lastIndex += 1;
  }
  return last;
}

/** Why `auto` chose a format: one clause, printed in the transcript. */
export interface Detection {
  readonly format: FormatName;
  readonly reason: string;
}

/** Statuses only the legacy vocabulary has: a return that uses one is a console return (v5 or v7). */
const LEGACY_ONLY: readonly string[] = ["completed"];

/** Fields the handoff contract defines (docs/formats-handoff.md) and no other format has at the top level. */
const HANDOFF_FIELDS = ["continuation_path", "continuation_context"] as const;

/** Fields return-metadata-file.md defines and the console formats do not. */
const METADATA_FILE_FIELDS = ["partial_progress", "completion_data", "started_at"] as const;

/** The last name of a path, after its last `/` or `\\`. */
function baseName(file: string): string {
  return file.slice(Math.max(file.lastIndexOf("/"), file.lastIndexOf("\\")) + 1);
}

/**
 * Which format one return is written in (like Spectral's `formats`), and why, from the evidence
 * in this order: the file's name, then the fields only one format has, then the statuses, and the
 * console format last. The same bytes get the same format whether they come from their file or
 * from standard input (`git show C:specs/…/.orchestrator-handoff.json | returnlint check -`):
 *
 * 1. it was read from a return file (`check FILE`, `check --task`, `scan`, `audit`): the format
 *    that file's name says (`formatOfFileName`: `.orchestrator-handoff.json`: handoff,
 *    `.return-meta-multi.json`: multi-task), else metadata-file;
 * 2. `metadata.multi_task_mode` is true: multi-task (the return an orchestrator writes when it
 *    closes a batch);
 * 3. a field only a handoff has at the top level (`continuation_path`, `continuation_context`),
 *    or `blockers` beside `phases_total` (a metadata file keeps its phase counts and blockers
 *    under `partial_progress`): handoff;
 * 4. a contextual or early-metadata status (researched, planned, implemented, in_progress),
 *    which only the metadata-file vocabulary has: metadata-file, never v5;
 * 5. a field only the metadata-file schema has (`partial_progress`, `completion_data`,
 *    `started_at`): metadata-file, whatever its status says (a metadata file that wrote
 *    `completed` is a metadata file with a wrong status, not a console return);
 * 6. a status only the legacy vocabulary has (`completed`): v5 with a top-level
 *    `session_id`, else v7, even when `summary` is missing (a console return that forgot it);
 * 7. no `summary` beside a `metadata` object: metadata-file (the only format where summary
 *    is optional);
 * 8. a top-level `session_id` (and none under `metadata`): v5;
 * 9. anything else: v7.
 *
 * `source` names the return file the return was read from, when it was; a file of any other name
 * is read like standard input, by its content.
 */
export function detectFormat(value: unknown, source?: string): Detection {
  if (source !== undefined) return { format: formatOfFileName(baseName(source)) ?? "metadata-file", reason: `read from ${source}` };
  if (!isObject(value)) return { format: "v7", reason: "not a JSON object, checked as a console return" };
  const metadata = value.metadata;
  if (isObject(metadata) && metadata.multi_task_mode === true) return { format: "multi-task", reason: "metadata.multi_task_mode is true" };
  const handoff = handoffEvidence(value);
  if (handoff !== undefined) return { format: "handoff", reason: handoff };
  const topLevelSession = "session_id" in value && !(isObject(metadata) && "session_id" in metadata);
  const status = value.status;
  if (typeof status === "string" && (status === IN_PROGRESS || (CONTEXTUAL_SUCCESS as readonly string[]).includes(status))) {
    return { format: "metadata-file", reason: `status "${status}" is contextual` };
  }
  const own = firstFieldOf(value, METADATA_FILE_FIELDS);
  if (own !== undefined) return { format: "metadata-file", reason: `it has ${own}, which only metadata files carry` };
  if (typeof status === "string" && LEGACY_ONLY.includes(status)) {
    return topLevelSession
      ? { format: "v5", reason: `status "${status}" is legacy and session_id is at the top level` }
      : { format: "v7", reason: `status "${status}" is legacy` };
  }
  if (!("summary" in value) && isObject(metadata)) {
    return { format: "metadata-file", reason: "no summary, which only metadata files may omit" };
  }
  if (topLevelSession) return { format: "v5", reason: "session_id is at the top level" };
  return { format: "v7", reason: "nothing marks it as v5 or a metadata file" };
}

/** Why a return's own fields make it a handoff (detectFormat, step 3), if they do. */
function handoffEvidence(value: JsonObject): string | undefined {
  const own = firstFieldOf(value, HANDOFF_FIELDS);
  if (own !== undefined) return `it has ${own}, which only handoffs carry`;
  return "blockers" in value && "phases_total" in value ? "it has blockers and phases_total at the top level, as handoffs do" : undefined;
}

/** The first of `fields` that `value` has: a loop, not `find`, which would make a function per return. */
function firstFieldOf<Field extends string>(value: JsonObject, fields: readonly Field[]): Field | undefined {
  for (const field of fields) if (field in value) return field;
  return undefined;
}
