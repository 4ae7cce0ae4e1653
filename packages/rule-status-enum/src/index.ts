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

function allowedStatuses(options: Options, command: string | null): string[] {
  if (options.statuses !== undefined) return options.statuses;
  const contextualSuccess = command === null ? undefined : COMMAND_SUCCESS[command];
  const success =
    options.variant === "legacy" ? [LEGACY_STATUSES[0]] : contextualSuccess === undefined ? [...CONTEXTUAL_SUCCESS] : [contextualSuccess];
  return [...success, ...NON_SUCCESS_STATUSES, ...(options.allowInProgress ? [IN_PROGRESS] : [])];
}

/** The status the subagent most likely meant, and why. */
function suggestionFor(status: string, allowed: readonly string[], options: Options, command: string | null): string {
  const normalized = status.trim().toLowerCase();
  if (allowed.includes(normalized)) return `; did you mean "${normalized}"? (statuses are lower case)`;
  const successes = allowed.filter((value) => !(NON_SUCCESS_STATUSES as readonly string[]).includes(value) && value !== IN_PROGRESS);
  const owner = Object.entries(COMMAND_SUCCESS).find(([, success]) => success === normalized)?.[0];
  if (owner !== undefined && options.variant === "contextual" && successes.length === 1) {
    return `, the success status of /${owner}; use "${successes[0] ?? ""}"`;
  }
  if (normalized === "completed" && options.variant === "contextual") {
    return `; use ${successes.map((value) => `"${value}"`).join(" or ")} ("completed" triggers Claude's stop behavior)`;
  }
  if (/^\w+ing$/.test(normalized) || normalized.includes("progress")) {
    // "implementing" means unfinished: never coax it towards a success status.
    const unfinished = [IN_PROGRESS, "partial"].find((value) => allowed.includes(value));
    return unfinished === undefined ? "" : `; unfinished work is "${unfinished}"`;
  }
  if (SUCCESS_WORDS.test(normalized) || (options.variant === "legacy" && (CONTEXTUAL_SUCCESS as readonly string[]).includes(normalized))) {
    const stem = successInWord(normalized);
    const meant = successes.length === 1 ? successes[0] : stem !== undefined && successes.includes(stem) ? stem : undefined;
    if (meant !== undefined) return `; did you mean "${meant}"?`;
    return `; a finished ${command === null ? "task" : `/${command}`} uses ${successes.map((value) => `"${value}"`).join(" or ")}`;
  }
  const guess = closest(normalized, allowed);
  return guess === undefined ? "" : `; did you mean "${guess}"?`;
}

/** Step 3: the status is one the command allows. */
export default defineRule<Options>({
  id: "status-enum",
  meta: {
    description: "The status is one the command allows: the legacy four, or the command's contextual success status.",
    docs: docsUrl("status-enum"),
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
      },
      notAString: {
        text: "Invalid status: {value}",
        detail: 'Error: "status" must be a string, one of {allowed}{scope}; received {type} {value}',
        recommendation: "Fix {subagent} to use valid status enum",
      },
    },
  },
  check(context) {
    const status = context.value.status;
    if (status === undefined || status === null) return; // required-fields reports it
    const { command, options } = context;
    const allowed = allowedStatuses(options, command);
    const scope = command === null || options.statuses !== undefined ? "" : ` for /${command}`;
    if (typeof status !== "string") {
      const data = { allowed: allowed.join(", "), scope, type: jsonType(status), value: preview(status, 40) };
      context.report({ messageId: "notAString", data, pointer: "/status" });
      return;
    }
    if (allowed.includes(status)) {
      context.pass({ messageId: "validStatus", data: { status } });
      return;
    }
    const hint = suggestionFor(status, allowed, options, command);
    context.report({ messageId: "invalidStatus", data: { status, allowed: allowed.join(", "), scope, hint }, pointer: "/status" });
  },
});
