import { describe, it } from "vitest";
import { RuleTester } from "@returnlint/rule-tester";
import rule from "./index.js";

const batch = (status: string, metadata: Record<string, unknown> = {}, fields: Record<string, unknown> = {}) => ({
  status,
  session_id: "sess_1783582863_a1b2c3",
  metadata: {
    tasks_completed: [42, 43],
    tasks_failed: [],
    defer_ledger: [],
    detected_defects: [],
    cycles_used: 3,
    multi_task_mode: true,
    paused_by_user: false,
    resume_hint: null,
    ...metadata,
  },
  ...fields,
});

new RuleTester({ describe, it }).run(rule, {
  valid: [
    { name: "a completed batch", input: batch("completed") },
    { name: "implemented, the later name of a clean batch", input: batch("implemented") },
    { name: "partial with a failed task", input: batch("partial", { tasks_completed: [42], tasks_failed: [43] }) },
    { name: "failed entries as objects with task_number", input: batch("partial", { tasks_failed: [{ task_number: 44, reason: "lake build fails" }] }) },
    { name: "task numbers as zero-padded strings", input: batch("completed", { tasks_completed: ["042", "1234"] }) },
    { name: "the first generation: four metadata fields only", input: { status: "completed", metadata: { tasks_completed: [7], tasks_failed: [], cycles_used: 1, multi_task_mode: true } } },
    { name: "paused with a resume hint", input: batch("partial", { paused_by_user: true, resume_hint: "/orchestrate 44 45" }) },
    // No document of the projects asks a paused batch for a resume hint: none is demanded.
    { name: "paused with no resume hint", input: batch("partial", { paused_by_user: true }) },
    { name: "paused with an empty resume hint", input: batch("partial", { paused_by_user: true, resume_hint: "" }) },
    { name: "a failed batch with nothing completed", input: batch("failed", { tasks_completed: [], tasks_failed: [42, 43] }) },
    { name: "missing metadata is required-fields' finding", input: { status: "completed" } },
    { name: "task lists that are not arrays are required-fields' finding", input: batch("partial", { tasks_completed: "42", tasks_failed: 2 }) },
  ],
  invalid: [
    {
      name: "a status outside the vocabulary",
      input: batch("done"),
      errors: [{ messageId: "invalidStatus", pointer: "/status", message: '"status" must be one of completed, implemented, partial, failed in a multi-task return; received string "done"' }],
    },
    {
      name: "completed while tasks failed",
      input: batch("completed", { tasks_completed: [42], tasks_failed: [43, { task_number: 44 }] }),
      errors: [{ messageId: "successWithFailures", pointer: "/status", message: 'Batch says "completed" but 2 tasks in metadata.tasks_failed: 43, 44' }],
    },
    {
      name: "implemented while a task failed",
      input: batch("implemented", { tasks_failed: [45] }),
      errors: [{ messageId: "successWithFailures", message: "1 task in metadata.tasks_failed: 45" }],
    },
    {
      name: "completed with no task completed",
      input: batch("completed", { tasks_completed: [] }),
      errors: [{ messageId: "successWithNoTasks", pointer: "/metadata/tasks_completed", message: 'Batch says "completed" but metadata.tasks_completed is empty: no task was finished' }],
    },
    {
      name: "a task both completed and failed",
      input: batch("partial", { tasks_completed: [42, 43], tasks_failed: [44, 43] }),
      errors: [{ messageId: "taskInBothLists", pointer: "/metadata/tasks_failed/1", message: "Task 43 is listed as both completed and failed" }],
    },
    {
      name: "zero-padded and plain forms are the same task",
      input: batch("partial", { tasks_completed: ["042"], tasks_failed: [42] }),
      errors: [{ messageId: "taskInBothLists", message: "Task 42" }],
    },
    {
      name: "a task listed twice",
      input: batch("completed", { tasks_completed: [42, 43, 42] }),
      errors: [{ messageId: "duplicateTask", pointer: "/metadata/tasks_completed/2", message: "Task 42 is listed more than once in metadata.tasks_completed" }],
    },
    {
      name: "an entry that names no task",
      input: batch("completed", { tasks_completed: [42, "the parser"] }),
      errors: [{ messageId: "notATask", pointer: "/metadata/tasks_completed/1", message: 'metadata.tasks_completed/1 does not name a task: received string "the parser"' }],
    },
    { name: "a negative task number", input: batch("partial", { tasks_failed: [-1] }), errors: [{ messageId: "notATask", pointer: "/metadata/tasks_failed/0", message: "received number -1" }] },
    { name: "an object without a task number", input: batch("partial", { tasks_failed: [{ reason: "timeout" }] }), errors: [{ messageId: "notATask", pointer: "/metadata/tasks_failed/0" }] },
    {
      name: "multi_task_mode false",
      input: batch("completed", { multi_task_mode: false }),
      errors: [{ messageId: "notMultiTaskMode", pointer: "/metadata/multi_task_mode", message: "metadata.multi_task_mode must be true in a multi-task return; received boolean false" }],
    },
    {
      name: "a ledger that is not a list",
      input: batch("completed", { defer_ledger: { 44: "self-modifying" } }),
      errors: [{ messageId: "notAList", pointer: "/metadata/defer_ledger", message: "metadata.defer_ledger must be a list; received object" }],
    },
    { name: "detected_defects as a count", input: batch("partial", { tasks_failed: [44], detected_defects: 2 }), errors: [{ messageId: "notAList", pointer: "/metadata/detected_defects", message: "received number 2" }] },
    {
      name: "a negative cycle count",
      input: batch("completed", { cycles_used: -2 }),
      errors: [{ messageId: "invalidCycles", pointer: "/metadata/cycles_used", message: "metadata.cycles_used is not a non-negative integer: received number -2" }],
    },
    { name: "a fractional cycle count", input: batch("completed", { cycles_used: 1.5 }), errors: [{ messageId: "invalidCycles", message: "received number 1.5" }] },
    {
      name: "paused but completed",
      input: batch("completed", { paused_by_user: true, resume_hint: "/orchestrate 44" }),
      errors: [{ messageId: "pausedButSuccess", pointer: "/metadata/paused_by_user", message: 'Batch says "completed" but metadata.paused_by_user is true' }],
    },
    { name: "paused_by_user as a string", input: batch("partial", { paused_by_user: "yes" }), errors: [{ messageId: "pausedNotBoolean", pointer: "/metadata/paused_by_user", message: 'received string "yes"' }] },
    { name: "resume_hint as a list", input: batch("partial", { resume_hint: ["/orchestrate 44"] }), errors: [{ messageId: "resumeHintNotString", pointer: "/metadata/resume_hint", message: "received array" }] },
  ],
});
