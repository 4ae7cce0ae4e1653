import {
  COMMAND_SUCCESS,
  CONTEXTUAL_SUCCESS,
  IN_PROGRESS,
  LEGACY_STATUSES,
  NON_SUCCESS_STATUSES,
  SUCCESS_WORDS,
  closest,
  defineRule,
  docsUrl,
  jsonType,
  preview,
  successInWord,
} from "@returnlint/core";

interface Options {
  /** `legacy`: completed, partial, failed, blocked. `contextual`: the command's own success status. */
  variant: "legacy" | "contextual";
  /** Accept `in_progress` (early metadata, return-metadata-file.md). */
  allowInProgress: boolean;
  /** Replaces the variant's vocabulary entirely. */
  statuses?: string[];
}

/** Per options object (one per configuration), per command: the statuses allowed, worked out once. */
const allowedCache = new WeakMap<Options, Map<string | null, readonly string[]>>();

function allowedStatuses(options: Options, command: string | null): readonly string[] {
  let byCommand = allowedCache.get(options);
  if (byCommand === undefined) {
    byCommand = new Map();
    allowedCache.set(options, byCommand);
  }
  let allowed = byCommand.get(command);
  if (allowed === undefined) {
    allowed = statusesFor(options, command);
    // Commands are a handful; a caller inventing one per return must not grow the cache without bound.
    if (byCommand.size >= 64) byCommand.clear();
    byCommand.set(command, allowed);
  }
  return allowed;
}

function statusesFor(options: Options, command: string | null): readonly string[] {
  if (options.statuses !== undefined) return [...options.statuses];
  const contextualSuccess = command === null ? undefined : COMMAND_SUCCESS[command];
  const success =
    options.variant === "legacy" ? [LEGACY_STATUSES[0]] : contextualSuccess === undefined ? [...CONTEXTUAL_SUCCESS] : [contextualSuccess];
  return [...success, ...NON_SUCCESS_STATUSES, ...(options.allowInProgress ? [IN_PROGRESS] : [])];
}

/**
 * What the subagent most likely meant, as the message words it (`hint`) and as data:
 * `suggestion`, the one status to use when one is clear, and `advice`, how the hint
 * puts it: `didYouMean` (a guess), `use` (an instruction), `note` (a fact about the
 * vocabulary), or `none`.
 */
interface Suggestion {
  readonly hint: string;
  readonly advice: "didYouMean" | "use" | "note" | "none";
  readonly suggestion?: string;
}

const quotedList = (values: readonly string[]): string => values.map((value) => `"${value}"`).join(" or ");

function suggestionFor(status: string, allowed: readonly string[], options: Options, command: string | null): Suggestion {
  const normalized = status.trim().toLowerCase();
  if (allowed.includes(normalized)) return { hint: `; did you mean "${normalized}"? (statuses are lower case)`, advice: "didYouMean", suggestion: normalized };
  const successes = allowed.filter((value) => !(NON_SUCCESS_STATUSES as readonly string[]).includes(value) && value !== IN_PROGRESS);
  const only = successes.length === 1 ? successes[0] : undefined;
  const owner = Object.entries(COMMAND_SUCCESS).find(([, success]) => success === normalized)?.[0];
  if (owner !== undefined && options.variant === "contextual" && only !== undefined) {
    return { hint: `, the success status of /${owner}; use "${only}"`, advice: "use", suggestion: only };
  }
  if (normalized === "completed" && options.variant === "contextual") {
    const hint = `; use ${quotedList(successes)} ("completed" triggers Claude's stop behavior)`;
    return only === undefined ? { hint, advice: "use" } : { hint, advice: "use", suggestion: only };
  }
  if (/^\w+ing$/.test(normalized) || normalized.includes("progress")) {
    // "implementing" means unfinished: never coax it towards a success status.
    const unfinished = [IN_PROGRESS, "partial"].find((value) => allowed.includes(value));
    return unfinished === undefined ? { hint: "", advice: "none" } : { hint: `; unfinished work is "${unfinished}"`, advice: "note", suggestion: unfinished };
  }
  if (SUCCESS_WORDS.test(normalized) || (options.variant === "legacy" && (CONTEXTUAL_SUCCESS as readonly string[]).includes(normalized))) {
    const stem = successInWord(normalized);
    const meant = only ?? (stem !== undefined && successes.includes(stem) ? stem : undefined);
    if (meant !== undefined) return { hint: `; did you mean "${meant}"?`, advice: "didYouMean", suggestion: meant };
    return { hint: `; a finished ${command === null ? "task" : `/${command}`} uses ${quotedList(successes)}`, advice: "note" };
  }
  const guess = closest(normalized, allowed);
  return guess === undefined ? { hint: "", advice: "none" } : { hint: `; did you mean "${guess}"?`, advice: "didYouMean", suggestion: guess };
}

/**
 * The end of the subagent's line, after its diagnosis: a guess becomes an order to use it, a hint
 * that already says which status to use is the order, and anything else ends with the plain one.
 */
function instructionFor({ hint, advice, suggestion }: Suggestion): string {
  if (advice === "didYouMean" && suggestion !== undefined) return `; set "status" to ${JSON.stringify(suggestion)}`;
  if (advice === "use") return hint;
  return `${hint}; set "status" to one of the allowed values`;
}

/** Step 3: the status is one the command allows. */
export default defineRule<Options>(docsUrl)({
  id: "status-enum",
  meta: {
    description: "The status is one the command allows: the legacy four, or the command's contextual success status.",
    schema: {
      type: "object",
      additionalProperties: false,
      properties: {
        variant: { enum: ["legacy", "contextual"], description: "`legacy`: completed, partial, failed, blocked. `contextual`: the command's success status (researched, planned, implemented), partial, failed, blocked." },
        allowInProgress: { type: "boolean", description: "Accept `in_progress`, the status of early metadata." },
        statuses: { type: "array", items: { type: "string", minLength: 1 }, minItems: 1, description: "Replaces the variant's vocabulary with exactly these statuses." },
      },
      required: ["variant", "allowInProgress"],
    },
    defaultOptions: { variant: "legacy", allowInProgress: false },
    messages: {
      validStatus: { text: "Status is valid: {status}" },
      invalidStatus: {
        text: "Invalid status: {status}",
        detail: 'Error: "status" must be one of {allowed}{scope}; received "{status}"{hint}',
        recommendation: "Fix {subagent} to use valid status enum",
        reask: '"status" must be one of {allowed}{scope}; received "{status}"{instruction}',
      },
      notAString: {
        text: "Invalid status: {value}",
        detail: 'Error: "status" must be a string, one of {allowed}{scope}; received {type} {value}',
        recommendation: "Fix {subagent} to use valid status enum",
        reask: '"status" must be a string, one of {allowed}{scope}; received {type} {value}; set "status" to one of the allowed values',
      },
    },
  },
  check(context) {
    const status = context.value.status;
    if (status === undefined || status === null) return; // required-fields reports it
    const { command, options } = context;
    const allowed = allowedStatuses(options, command);
    if (typeof status === "string" && allowed.includes(status)) {
      context.pass({ messageId: "validStatus", data: { status } });
      return;
    }
    const scope = command === null || options.statuses !== undefined ? "" : ` for /${command}`;
    if (typeof status !== "string") {
      const data = { allowed: allowed.join(", "), scope, type: jsonType(status), value: preview(status, 40) };
      context.report({ messageId: "notAString", data, pointer: "/status" });
      return;
    }
    const suggestion = suggestionFor(status, allowed, options, command);
    context.report({ messageId: "invalidStatus", data: { status, allowed: allowed.join(", "), scope, ...suggestion, instruction: instructionFor(suggestion) }, pointer: "/status" });
  },
});
