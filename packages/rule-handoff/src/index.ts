import { FILE_PROBLEM_REASON, defineRule, docsUrl, isObject, receivedValue as received } from "@returnlint/core";

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
/** The phase counts: present and not null in a handoff of the wrap-up contract, unless it is a research or plan phase's (`blockers` must be present there too, but may be null or []). */
const PHASE_COUNTS = ["phases_completed", "phases_total"] as const;

/**
 * The schema a handoff may name in `$schema`: the family's orchestrator-handoff-v1 (its
 * handoff-schema.md), where `blockers` is optional and the phase counts, when a partial
 * implementation has them, sit in `continuation_context` beside the handoff file to resume from.
 */
const V1_SCHEMA = "orchestrator-handoff-v1";

/** A research or plan phase's statuses: no implementation phase has run, and the projects' handoffs count none (nor does their orchestrator read a count it lacks: `.phases_completed // 0`). */
const BEFORE_IMPLEMENTATION: readonly unknown[] = ["researched", "planned", "needs_research"];

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
      "An orchestrator handoff follows its contract (the wrap-up contract, or the orchestrator-handoff-v1 schema it names): status, phase counts and blockers present where required, a way to continue when partial or blocked, a continuation path that exists.",
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
      handoffValidWithoutCounts: { text: "Handoff is complete: status {status}, no phases counted" },
      missingField: {
        text: "Missing required handoff field: {field}",
        detail: "Error: {field} must be present and not null in this handoff (one that names the orchestrator-handoff-v1 schema needs its status only, and a research or plan phase's counts no phases)",
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
        text: "A {status} handoff gives no way to continue: continuation_path and continuation_context are both missing or null, and no blocker is listed",
        detail: "Warning: the next session needs continuation_path (a file to resume from), continuation_context (what to do next), or the blockers that stop the work",
        recommendation: "Fix {subagent} to write continuation_path or continuation_context (or list its blockers) when it stops with status {status}",
        reask: "a {status} handoff needs a way to continue; write continuation_path (a file to resume from) or continuation_context (what to do next), or list what blocks you",
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
        detail: "Warning: a partial handoff has phases left to do; when every phase is done the status is implemented, unless a blocker says why it is not",
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
    // A handoff that names the v1 schema follows it: no blockers or phase counts required, the
    // counts read where it puts them. Any other follows the wrap-up contract.
    const v1 = handoff.$schema === V1_SCHEMA;
    if (!isSet(handoff.status)) report({ messageId: "missingField", data: { field: "status" }, pointer: "/status" });
    if (!v1) {
      for (const field of BEFORE_IMPLEMENTATION.includes(handoff.status) ? [] : PHASE_COUNTS) {
        if (!isSet(handoff[field])) report({ messageId: "missingField", data: { field }, pointer: `/${field}` });
      }
      if (!("blockers" in handoff)) report({ messageId: "missingBlockers", pointer: "/blockers" });
    }
    const counts = v1 && !PHASE_COUNTS.some((field) => isSet(handoff[field])) && isObject(handoff.continuation_context) ? handoff.continuation_context : handoff;
    const countsAt = counts === handoff ? "" : "/continuation_context";

    const { status, blockers } = handoff;
    const { phases_completed: completed, phases_total: total } = counts;
    if (isSet(status) && !(STATUSES as readonly unknown[]).includes(status)) {
      report({ messageId: "invalidStatus", data: { received: received(status) }, pointer: "/status" });
    }
    // Listed blockers are a way on too: the orchestrator escalates them.
    const hasBlockers = Array.isArray(blockers) && blockers.length > 0;
    if ((status === "partial" || status === "blocked") && !isSet(handoff.continuation_path) && !isSet(handoff.continuation_context) && !hasBlockers) {
      report({ messageId: "noContinuation", data: { status }, pointer: "/continuation_path", level: "warn" });
    }
    for (const [field, count] of [["phases_completed", completed], ["phases_total", total]] as const) {
      if (isSet(count) && !isCount(count)) {
        report({ messageId: "invalidPhaseCount", data: { field, received: received(count) }, pointer: `${countsAt}/${field}`, level: "warn" });
      }
    }
    if (typeof completed === "number" && typeof total === "number") {
      if (status === "partial" && completed >= total) {
        // A listed blocker says why the work stops short of implemented.
        if (!hasBlockers) report({ messageId: "partialWithAllPhases", data: { completed, total }, pointer: `${countsAt}/phases_completed`, level: "warn" });
      } else if (completed > total) {
        report({ messageId: "completedOverTotal", data: { completed, total }, pointer: `${countsAt}/phases_completed`, level: "warn" });
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
      if (isSet(completed) || isSet(total)) context.pass({ messageId: "handoffValid", data: { status, completed: String(completed), total: String(total) } });
      else context.pass({ messageId: "handoffValidWithoutCounts", data: { status } });
    }
  },
});
