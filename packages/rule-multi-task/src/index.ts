import { defineRule, docsUrl, isObject, type JsonObject, receivedValue as received } from "@returnlint/core";

/**
 * The statuses a multi-task return carries: `completed` when no task failed, else `partial`.
 * Later versions of the orchestrator write `implemented` for a clean batch and `failed`.
 */
const STATUSES = ["completed", "implemented", "partial", "failed"] as const;
const SUCCESS: readonly unknown[] = ["completed", "implemented"];
/** The lists of tasks a batch reports: required-fields (in the preset) says when one is missing or not an array. */
const TASK_LISTS = ["tasks_completed", "tasks_failed"] as const;
/** The lists of events a batch may report; each must be a JSON array when present. */
const EVENT_LISTS = ["defer_ledger", "detected_defects"] as const;
/** How an entry of a task list may name its task: the number itself, or an object holding it. */
const TASK_KEYS = ["task_number", "task", "number"] as const;

/** The task an entry of tasks_completed or tasks_failed names (`42`, `"042"`, `{ "task_number": 42, … }`), if any. */
function taskOf(entry: unknown): number | undefined {
  if (typeof entry === "number") return Number.isInteger(entry) && entry >= 0 ? entry : undefined;
  if (typeof entry === "string") return /^\d+$/.test(entry.trim()) ? Number(entry.trim()) : undefined;
  if (!isObject(entry)) return undefined;
  const key = TASK_KEYS.find((name) => entry[name] !== undefined);
  return key === undefined || isObject(entry[key]) ? undefined : taskOf(entry[key]);
}

/** How many failed tasks a message names; a longer list ends with "…". */
const NAMED_TASKS = 20;

function firstTasks(tasks: Iterable<number>): string {
  const named: number[] = [];
  for (const task of tasks) {
    if (named.length === NAMED_TASKS) return `${named.join(", ")}, …`;
    named.push(task);
  }
  return named.join(", ");
}

function plural(count: number, noun: string): string {
  return `${String(count)} ${noun}${count === 1 ? "" : "s"}`;
}

/** A multi-task return (`specs/.return-meta-multi.json`) tells the truth about the batch it closes. */
export default defineRule(docsUrl)({
  id: "multi-task",
  meta: {
    description:
      "A multi-task return agrees with itself: a batch with failed tasks is partial, a completed batch finished at least one task, every entry names a task once.",
    schema: { type: "object", additionalProperties: false },
    defaultOptions: {},
    messages: {
      batchValid: { text: "Multi-task return is consistent: status {status}, {completed} completed, {failed} failed in {cycles}" },
      invalidStatus: {
        text: '"status" must be one of completed, implemented, partial, failed in a multi-task return; received {received}',
        detail: "Error: a batch is completed (or implemented) when every task finished, partial when some failed or were deferred, failed when none finished",
        recommendation: "Fix {subagent} to write one of completed, implemented, partial, failed",
        reask: '"status" is {received}; write one of completed, implemented, partial, failed',
      },
      notMultiTaskMode: {
        text: "metadata.multi_task_mode must be true in a multi-task return; received {received}",
        detail: "Error: the orchestrator marks every multi-task return with multi_task_mode: true; without it the file does not say it closes a batch",
        recommendation: "Fix {subagent} to write multi_task_mode: true, or write a single task's return to the task folder's .return-meta.json",
        reask: "metadata.multi_task_mode is {received}; write multi_task_mode: true",
      },
      notAList: {
        text: "metadata.{field} must be a list; received {received}",
        detail: "Error: {field} is a JSON array ([] when there is nothing to list)",
        recommendation: "Fix {subagent} to write {field} as an array",
        reask: "metadata.{field} is {received}; write it as an array ([] when there is nothing to list)",
      },
      successWithFailures: {
        text: 'Batch says "{status}" but {count} in metadata.tasks_failed: {tasks}',
        detail: "Error: a batch with failed tasks is partial; postflight would close tasks that did not finish",
        recommendation: "Fix {subagent} to write status partial when tasks_failed is not empty",
        reask: "{count} in tasks_failed ({tasks}) but the status is \"{status}\"; write status partial",
      },
      successWithNoTasks: {
        text: 'Batch says "{status}" but metadata.tasks_completed is empty: no task was finished',
        detail: "Error: a completed batch with no completed task is phantom work",
        recommendation: "Fix {subagent} to list the tasks it finished in tasks_completed, or to write status partial or failed",
        reask: "the status is \"{status}\" but tasks_completed is empty; list the tasks you finished, or write status partial or failed",
      },
      taskInBothLists: {
        text: "Task {task} is listed as both completed and failed",
        detail: "Error: each task of the batch either finished (tasks_completed) or did not (tasks_failed)",
        recommendation: "Fix {subagent} to list task {task} in one of tasks_completed and tasks_failed",
        reask: "task {task} is in both tasks_completed and tasks_failed; keep it only in the list that is true",
      },
      duplicateTask: {
        text: "Task {task} is listed more than once in metadata.{field}",
        detail: "Warning: each task appears once per list",
        recommendation: "Fix {subagent} to list each task once",
        reask: "task {task} is listed more than once in {field}; list it once",
      },
      notATask: {
        text: "metadata.{field}/{index} does not name a task: received {received}",
        detail: "Warning: an entry is a task number (42), or an object with task_number",
        recommendation: "Fix {subagent} to list task numbers in {field}",
        reask: "{field}/{index} is {received}; write the task's number there",
      },
      invalidCycles: {
        text: "metadata.cycles_used is not a non-negative integer: received {received}",
        detail: "Warning: cycles_used counts the orchestrator's dispatch cycles, a whole number 0 or more",
        recommendation: "Fix {subagent} to write cycles_used as a whole number",
        reask: "cycles_used is {received}; write the number of cycles used as a whole number",
      },
      pausedNotBoolean: {
        text: "metadata.paused_by_user must be true or false; received {received}",
        detail: "Warning: paused_by_user says whether the user stopped the batch",
        recommendation: "Fix {subagent} to write paused_by_user as a boolean",
        reask: "paused_by_user is {received}; write true or false",
      },
      pausedButSuccess: {
        text: 'Batch says "{status}" but metadata.paused_by_user is true',
        detail: "Warning: a batch the user paused has work left, and is partial",
        recommendation: "Fix {subagent} to write status partial when the user paused the batch",
        reask: "the user paused the batch but the status is \"{status}\"; write status partial",
      },
      resumeHintNotString: {
        text: "metadata.resume_hint must be a string; received {received}",
        detail: "Warning: resume_hint tells the next session how to resume the batch, or is null",
        recommendation: "Fix {subagent} to write resume_hint as a string, or null",
        reask: "resume_hint is {received}; write it as a string, or null",
      },
      defectsReported: { text: "Batch reported {count} in metadata.detected_defects" },
      deferrals: { text: "Batch recorded {count} in metadata.defer_ledger" },
    },
  },
  check(context) {
    const { status } = context.value;
    let problems = 0;
    const report: typeof context.report = (descriptor) => {
      if (descriptor.level === undefined) problems += 1;
      context.report(descriptor);
    };
    if (status !== undefined && status !== null && !(STATUSES as readonly unknown[]).includes(status)) {
      report({ messageId: "invalidStatus", data: { received: received(status) }, pointer: "/status" });
    }
    // A missing or mistyped metadata object is required-fields' to report.
    if (!isObject(context.value.metadata)) return;
    const metadata: JsonObject = context.value.metadata;

    if (metadata.multi_task_mode !== undefined && metadata.multi_task_mode !== true) {
      report({ messageId: "notMultiTaskMode", data: { received: received(metadata.multi_task_mode) }, pointer: "/metadata/multi_task_mode" });
    }

    const lists = new Map<string, readonly unknown[]>();
    for (const field of [...TASK_LISTS, ...EVENT_LISTS]) {
      const value = metadata[field];
      if (Array.isArray(value)) lists.set(field, value);
      else if (value !== undefined && (EVENT_LISTS as readonly string[]).includes(field)) {
        report({ messageId: "notAList", data: { field, received: received(value) }, pointer: `/metadata/${field}` });
      }
    }

    /** Per list, each task it names and the index of its first entry. */
    const tasks = new Map<string, Map<number, number>>();
    for (const field of TASK_LISTS) {
      const seen = new Map<number, number>();
      // A task listed again is said once, at its first repeat: a list naming one task a million times is one warning.
      const repeated = new Set<number>();
      (lists.get(field) ?? []).forEach((entry, index) => {
        const task = taskOf(entry);
        if (task === undefined) {
          report({ messageId: "notATask", data: { field, index, received: received(entry) }, pointer: `/metadata/${field}/${String(index)}`, level: "warn" });
        } else if (!seen.has(task)) {
          seen.set(task, index);
        } else if (!repeated.has(task)) {
          repeated.add(task);
          report({ messageId: "duplicateTask", data: { task, field }, pointer: `/metadata/${field}/${String(index)}`, level: "warn" });
        }
      });
      tasks.set(field, seen);
    }
    const completed = tasks.get("tasks_completed") ?? new Map<number, number>();
    const failed = tasks.get("tasks_failed") ?? new Map<number, number>();
    for (const [task, index] of failed) {
      if (completed.has(task)) report({ messageId: "taskInBothLists", data: { task }, pointer: `/metadata/tasks_failed/${String(index)}` });
    }

    const failedEntries = lists.get("tasks_failed")?.length ?? 0;
    if (SUCCESS.includes(status) && failedEntries > 0) {
      const named = failed.size > 0 ? firstTasks(failed.keys()) : "(entries that name no task)";
      report({ messageId: "successWithFailures", data: { status: String(status), count: plural(failedEntries, "task"), tasks: named }, pointer: "/status" });
    }
    if (SUCCESS.includes(status) && lists.get("tasks_completed")?.length === 0) {
      report({ messageId: "successWithNoTasks", data: { status: String(status) }, pointer: "/metadata/tasks_completed" });
    }

    const cycles = metadata.cycles_used;
    // A missing cycles_used, or one of the wrong JSON type, is required-fields' to report.
    if (typeof cycles === "number" && !(Number.isInteger(cycles) && cycles >= 0)) {
      report({ messageId: "invalidCycles", data: { received: received(cycles) }, pointer: "/metadata/cycles_used", level: "warn" });
    }

    const paused = metadata.paused_by_user;
    const hint = metadata.resume_hint;
    if (paused !== undefined && paused !== null && typeof paused !== "boolean") {
      report({ messageId: "pausedNotBoolean", data: { received: received(paused) }, pointer: "/metadata/paused_by_user", level: "warn" });
    }
    if (hint !== undefined && hint !== null && typeof hint !== "string") {
      report({ messageId: "resumeHintNotString", data: { received: received(hint) }, pointer: "/metadata/resume_hint", level: "warn" });
    }
    if (paused === true && SUCCESS.includes(status)) {
      report({ messageId: "pausedButSuccess", data: { status: String(status) }, pointer: "/metadata/paused_by_user", level: "warn" });
    }

    const defects = lists.get("detected_defects")?.length ?? 0;
    if (defects > 0) context.info({ messageId: "defectsReported", data: { count: plural(defects, "system defect") }, pointer: "/metadata/detected_defects" });
    const deferred = lists.get("defer_ledger")?.length ?? 0;
    if (deferred > 0) context.info({ messageId: "deferrals", data: { count: plural(deferred, "deferral") }, pointer: "/metadata/defer_ledger" });

    if (problems === 0 && typeof status === "string") {
      const used = typeof cycles === "number" ? plural(cycles, "cycle") : "an unknown number of cycles";
      context.pass({ messageId: "batchValid", data: { status, completed: completed.size, failed: failedEntries, cycles: used } });
    }
  },
});
