import { FILE_PROBLEM_REASON, defineRule, docsUrl, receivedValue as received } from "@returnlint/core";

interface Options {
  /** A handoff outside skeleton mode with no sorry_inventory: silent (the field is a hard-mode one), or a warning in a Lean project that lists its sorries everywhere. */
  sorryInventory: "warn" | "off";
}

/**
 * The statuses an orchestrator handoff may carry: the wrap-up contract's first three (implemented,
 * partial, blocked), and those its later schema adds for the plan and research phases.
 */
const STATUSES = ["researched", "planned", "implemented", "needs_research", "partial", "failed", "blocked"] as const;
const STATUS_LIST = STATUSES.join(", ");
/** Present and not null; `blockers` must be present but may be null or []. */
const NON_NULL_FIELDS = ["status", "phases_completed", "phases_total"] as const;

function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 0;
}

function isSet(value: unknown): boolean {
  return value !== undefined && value !== null;
}

/** An orchestrator handoff (`specs/{NNN}_{SLUG}/.orchestrator-handoff.json`) lets the next session resume the work. */
export default defineRule<Options>(docsUrl)({
  id: "handoff",
  meta: {
    description:
      "An orchestrator handoff follows the wrap-up contract: status, phase counts and blockers present, a way to continue when partial or blocked, a continuation path that exists.",
    schema: {
      type: "object",
      additionalProperties: false,
      properties: {
        sorryInventory: {
          enum: ["warn", "off"],
          description:
            "How a handoff outside skeleton mode with no `sorry_inventory` is reported: `off` (the default: the field belongs to skeleton, hard-mode handoffs), or `warn` in a Lean project whose every handoff lists its `sorry` placeholders.",
        },
      },
      required: ["sorryInventory"],
    },
    defaultOptions: { sorryInventory: "off" },
    messages: {
      handoffValid: { text: "Handoff is complete: status {status}, {completed} of {total} phases" },
      missingField: {
        text: "Missing required handoff field: {field}",
        detail: "Error: {field} must be present and not null in every handoff",
        recommendation: "Fix {subagent} to write {field} in .orchestrator-handoff.json",
        reask: "{field} is missing from your handoff; write it, not null",
      },
      missingBlockers: {
        text: "Missing required handoff field: blockers",
        detail: "Error: blockers must be present; null or [] say that nothing blocks the work",
        recommendation: "Fix {subagent} to write blockers (null or [] when nothing blocks it)",
        reask: "blockers is missing; write it (null or [] when nothing blocks you)",
      },
      invalidStatus: {
        text: `"status" must be one of ${STATUS_LIST} in a handoff; received {received}`,
        detail: "Error: a handoff says where the work stands: a phase finished (researched, planned, implemented), research needed first (needs_research), stopped part way (partial), failed, or cannot go on (blocked)",
        recommendation: `Fix {subagent} to write one of ${STATUS_LIST}`,
        reask: `status is {received}; write one of ${STATUS_LIST}`,
      },
      noContinuation: {
        text: "A {status} handoff gives no way to continue: continuation_path and continuation_context are both missing or null",
        detail: "Error: the next session needs continuation_path (a file to resume from) or continuation_context (what to do next)",
        recommendation: "Fix {subagent} to write continuation_path or continuation_context when it stops with status {status}",
        reask: "a {status} handoff needs a way to continue; write continuation_path (a file to resume from) or continuation_context (what to do next)",
      },
      invalidPhaseCount: {
        text: "{field} is not a non-negative integer: received {received}",
        detail: "Warning: phase counts are whole numbers of plan phases, 0 or more",
        recommendation: "Fix {subagent} to write {field} as a whole number",
        reask: "{field} is {received}; write it as a whole number of plan phases",
      },
      completedOverTotal: {
        text: "phases_completed ({completed}) is greater than phases_total ({total})",
        detail: "Warning: a plan cannot have more phases completed than it has",
        recommendation: "Fix {subagent} to count completed phases against the plan's phases",
        reask: "phases_completed ({completed}) is more than phases_total ({total}); count the completed phases against the plan's",
      },
      partialWithAllPhases: {
        text: "Handoff says partial but phases_completed ({completed}) is not less than phases_total ({total})",
        detail: "Error: a partial handoff has phases left to do; when every phase is done the status is implemented",
        recommendation: "Fix {subagent} to write status implemented when every phase is complete, or count the phases it has left",
        reask: "every phase is done ({completed} of {total}); set status to implemented, or count the phases you have left",
      },
      skeletonNotImplemented: {
        text: "A skeleton handoff (skeleton: true) must have status implemented; received {received}",
        detail: "Error: skeleton mode hands over implemented work whose strategic sorries are listed for later tasks",
        recommendation: "Fix {subagent} to write status implemented with skeleton: true, or drop skeleton",
        reask: "skeleton is true but status is {received}; write status implemented, or set skeleton to false",
      },
      skeletonWithoutSorries: {
        text: "A skeleton handoff (skeleton: true) lists no sorry_inventory",
        detail: "Error: skeleton mode must list every strategic sorry it leaves, so that each is tracked by a follow-up task",
        recommendation: "Fix {subagent} to list every strategic sorry in sorry_inventory when it writes skeleton: true",
        reask: "skeleton is true but sorry_inventory is missing or empty; list every strategic sorry you left",
      },
      missingSorryInventory: {
        text: "Handoff has no sorry_inventory",
        detail: "Warning: sorry_inventory records the placeholders (sorry, TODO) left in the work, so that the next session knows what is unproved",
        recommendation: "Fix {subagent} to write sorry_inventory ([] when none is left)",
        reask: "sorry_inventory is missing; list the placeholders (sorry, TODO) you left, or write []",
      },
      continuationPathInvalid: {
        text: "Continuation path is not a file to resume from: {path} ({reason})",
        detail: "Error: continuation_path must name a non-empty regular file inside the project root",
        recommendation: "Verify {agent} writes the continuation file before the handoff, at a path relative to the project root",
        reask: "continuation_path {path} is not a file to resume from ({reason}); write that file inside the project, or fix the path",
      },
      continuationPathNotString: {
        text: "continuation_path is not a string: received {received}",
        detail: "Error: continuation_path must be a path relative to the project root, or null",
        recommendation: "Fix {subagent} to write continuation_path as a relative path",
        reask: "continuation_path is {received}; write it as a path relative to the project root, or null",
      },
      continuationPathEmpty: {
        text: "Continuation path is an empty file: {path}",
        detail: "Error: the file the next session resumes from holds nothing",
        recommendation: "Verify {agent} writes its continuation notes before the handoff",
        reask: "the continuation file {path} is empty; write your continuation notes in it",
      },
      continuationPathExists: { text: "Continuation path exists: {path} ({size} bytes)" },
    },
  },
  check(context) {
    const handoff = context.value;
    let problems = 0;
    const report: typeof context.report = (descriptor) => {
      if (descriptor.level === undefined) problems += 1;
      context.report(descriptor);
    };
    for (const field of NON_NULL_FIELDS) {
      if (!isSet(handoff[field])) report({ messageId: "missingField", data: { field }, pointer: `/${field}` });
    }
    if (!("blockers" in handoff)) report({ messageId: "missingBlockers", pointer: "/blockers" });

    const { status, phases_completed: completed, phases_total: total } = handoff;
    if (isSet(status) && !(STATUSES as readonly unknown[]).includes(status)) {
      report({ messageId: "invalidStatus", data: { received: received(status) }, pointer: "/status" });
    }
    if ((status === "partial" || status === "blocked") && !isSet(handoff.continuation_path) && !isSet(handoff.continuation_context)) {
      report({ messageId: "noContinuation", data: { status }, pointer: "/continuation_path" });
    }
    for (const [field, count] of [["phases_completed", completed], ["phases_total", total]] as const) {
      if (isSet(count) && !isCount(count)) {
        report({ messageId: "invalidPhaseCount", data: { field, received: received(count) }, pointer: `/${field}`, level: "warn" });
      }
    }
    if (typeof completed === "number" && typeof total === "number") {
      if (status === "partial" && completed >= total) {
        report({ messageId: "partialWithAllPhases", data: { completed, total }, pointer: "/phases_completed" });
      } else if (completed > total) {
        report({ messageId: "completedOverTotal", data: { completed, total }, pointer: "/phases_completed", level: "warn" });
      }
    }
    const sorries = handoff.sorry_inventory;
    if (handoff.skeleton === true) {
      if (isSet(status) && status !== "implemented") report({ messageId: "skeletonNotImplemented", data: { received: received(status) }, pointer: "/status" });
      if (!Array.isArray(sorries) || sorries.length === 0) report({ messageId: "skeletonWithoutSorries", pointer: "/sorry_inventory" });
    } else if (context.options.sorryInventory === "warn" && !("sorry_inventory" in handoff)) {
      report({ messageId: "missingSorryInventory", pointer: "/sorry_inventory", level: "warn" });
    }

    const continuation = handoff.continuation_path;
    if (typeof continuation === "string") {
      const found = context.files.check(continuation);
      if (!found.ok) {
        report({ messageId: "continuationPathInvalid", data: { path: continuation, reason: FILE_PROBLEM_REASON[found.problem] }, pointer: "/continuation_path" });
      } else if (found.size === 0) {
        report({ messageId: "continuationPathEmpty", data: { path: continuation }, pointer: "/continuation_path" });
      } else {
        context.pass({ messageId: "continuationPathExists", data: { path: continuation, size: found.size } });
      }
    } else if (isSet(continuation)) {
      report({ messageId: "continuationPathNotString", data: { received: received(continuation) }, pointer: "/continuation_path" });
    }
    if (problems === 0 && typeof status === "string") {
      context.pass({ messageId: "handoffValid", data: { status, completed: String(completed), total: String(total) } });
    }
  },
});
