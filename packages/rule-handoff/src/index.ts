import { defineRule, docsUrl, jsonType, preview, type FileProblem } from "@returnlint/core";

/** The statuses an orchestrator handoff may carry (the wrap-up contract). */
const STATUSES = ["implemented", "partial", "blocked"] as const;
/** Present and not null; `blockers` must be present but may be null or []. */
const NON_NULL_FIELDS = ["status", "phases_completed", "phases_total"] as const;

/** Why the continuation path is not a file to resume from, in words. */
const PROBLEM_REASON: Readonly<Record<FileProblem, string>> = {
  emptyPath: "the path is empty",
  nulByte: "the path holds a NUL byte",
  absolute: "the path is absolute; it must be relative to the project root",
  homeRelative: "the path starts with ~; it must be relative to the project root",
  escapesRoot: "the path leads outside the project root",
  symlinkEscapesRoot: "a symbolic link on the path leads outside the project root",
  symlinkLoop: "symbolic links on the path form a loop",
  notFound: "no such file",
  notAFile: "it is not a regular file",
  nameTooLong: "a name on the path is too long",
  unreadable: "it cannot be read",
  returnFile: "it is the return file itself",
};

function received(value: unknown): string {
  return value === null ? "null" : `${jsonType(value)} ${preview(value, 40)}`;
}

function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 0;
}

function isSet(value: unknown): boolean {
  return value !== undefined && value !== null;
}

/** An orchestrator handoff (`specs/{NNN}_{SLUG}/.orchestrator-handoff.json`) lets the next session resume the work. */
export default defineRule<Record<string, never>>({
  id: "handoff",
  meta: {
    description:
      "An orchestrator handoff follows the wrap-up contract: status, phase counts and blockers present, a way to continue when partial or blocked, a continuation path that exists.",
    docs: docsUrl("handoff"),
    schema: { type: "object", additionalProperties: false },
    defaultOptions: {},
    messages: {
      handoffValid: { text: "Handoff is complete: status {status}, {completed} of {total} phases" },
      missingField: {
        text: "Missing required handoff field: {field}",
        detail: "Error: {field} must be present and not null in every handoff",
        recommendation: "Fix {subagent} to write {field} in .orchestrator-handoff.json",
      },
      missingBlockers: {
        text: "Missing required handoff field: blockers",
        detail: "Error: blockers must be present; null or [] say that nothing blocks the work",
        recommendation: "Fix {subagent} to write blockers (null or [] when nothing blocks it)",
      },
      invalidStatus: {
        text: '"status" must be one of implemented, partial, blocked in a handoff; received {received}',
        detail: "Error: a handoff says whether the implementation finished (implemented), stopped part way (partial) or cannot go on (blocked)",
        recommendation: "Fix {subagent} to write one of implemented, partial, blocked",
      },
      noContinuation: {
        text: "A {status} handoff gives no way to continue: continuation_path and continuation_context are both missing or null",
        detail: "Error: the next session needs continuation_path (a file to resume from) or continuation_context (what to do next)",
        recommendation: "Fix {subagent} to write continuation_path or continuation_context when it stops with status {status}",
      },
      invalidPhaseCount: {
        text: "{field} is not a non-negative integer: received {received}",
        detail: "Warning: phase counts are whole numbers of plan phases, 0 or more",
        recommendation: "Fix {subagent} to write {field} as a whole number",
      },
      completedOverTotal: {
        text: "phases_completed ({completed}) is greater than phases_total ({total})",
        detail: "Warning: a plan cannot have more phases completed than it has",
        recommendation: "Fix {subagent} to count completed phases against the plan's phases",
      },
      partialWithAllPhases: {
        text: "Handoff says partial but phases_completed ({completed}) is not less than phases_total ({total})",
        detail: "Error: a partial handoff has phases left to do; when every phase is done the status is implemented",
        recommendation: "Fix {subagent} to write status implemented when every phase is complete, or count the phases it has left",
      },
      missingSorryInventory: {
        text: "Handoff has no sorry_inventory",
        detail: "Warning: sorry_inventory records the placeholders (sorry, TODO) left in the work, so that the next session knows what is unproved",
        recommendation: "Fix {subagent} to write sorry_inventory ([] when none is left)",
      },
      continuationPathInvalid: {
        text: "Continuation path is not a file to resume from: {path} ({reason})",
        detail: "Error: continuation_path must name a non-empty regular file inside the project root",
        recommendation: "Verify {agent} writes the continuation file before the handoff, at a path relative to the project root",
      },
      continuationPathNotString: {
        text: "continuation_path is not a string: received {received}",
        detail: "Error: continuation_path must be a path relative to the project root, or null",
        recommendation: "Fix {subagent} to write continuation_path as a relative path",
      },
      continuationPathEmpty: {
        text: "Continuation path is an empty file: {path}",
        detail: "Error: the file the next session resumes from holds nothing",
        recommendation: "Verify {agent} writes its continuation notes before the handoff",
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
    if (!("sorry_inventory" in handoff)) report({ messageId: "missingSorryInventory", pointer: "/sorry_inventory", level: "warn" });

    const continuation = handoff.continuation_path;
    if (typeof continuation === "string") {
      const found = context.files.check(continuation);
      if (!found.ok) {
        report({ messageId: "continuationPathInvalid", data: { path: continuation, reason: PROBLEM_REASON[found.problem] }, pointer: "/continuation_path" });
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
