import { describe, it } from "vitest";
import { RuleTester } from "@returnlint/rule-tester";
import rule from "./index.js";

const contextual = { variant: "contextual", allowInProgress: false };
const metadataFile = { variant: "contextual", allowInProgress: true };

new RuleTester({ describe, it }).run(rule, {
  valid: [
    ...["completed", "partial", "failed", "blocked"].map((status) => ({ name: `legacy ${status}`, input: { status } })),
    { name: "research → researched", input: { status: "researched" }, options: contextual, command: "research" },
    { name: "plan → planned", input: { status: "planned" }, options: contextual, command: "plan" },
    { name: "revise → planned", input: { status: "planned" }, options: contextual, command: "revise" },
    { name: "implement → implemented", input: { status: "implemented" }, options: contextual, command: "implement" },
    { name: "partial is always allowed", input: { status: "partial" }, options: contextual, command: "implement" },
    { name: "without a command, any contextual success", input: { status: "planned" }, options: contextual },
    { name: "early metadata where allowed", input: { status: "in_progress" }, options: metadataFile, command: "research" },
    { name: "a missing status is required-fields' job", input: { summary: "x" } },
    { name: "a custom vocabulary", input: { status: "tasks_created" }, options: { ...contextual, statuses: ["tasks_created", "failed"] } },
  ],
  invalid: [
    {
      name: "the documented invalid status",
      input: { status: "in-progress" },
      errors: [
        {
          messageId: "invalidStatus",
          pointer: "/status",
          message: "Invalid status: in-progress",
          detail: 'must be one of completed, partial, failed, blocked; received "in-progress"',
          data: { status: "in-progress", allowed: "completed, partial, failed, blocked", scope: "", advice: "note", suggestion: "partial" },
          reask: '"status" must be one of completed, partial, failed, blocked; received "in-progress"; unfinished work is "partial"; set "status" to one of the allowed values',
        },
      ],
    },
    {
      name: "a planned return to /research names what /research allows",
      input: { status: "planned" },
      options: contextual,
      command: "research",
      errors: [
        {
          messageId: "invalidStatus",
          detail: '"status" must be one of researched, partial, failed, blocked for /research; received "planned", the success status of /plan; use "researched"',
          data: { status: "planned", allowed: "researched, partial, failed, blocked", scope: " for /research", advice: "use", suggestion: "researched" },
          reask: '"status" must be one of researched, partial, failed, blocked for /research; received "planned", the success status of /plan; use "researched"',
        },
      ],
    },
    {
      name: "completed is never a metadata-file status",
      input: { status: "completed" },
      options: metadataFile,
      command: "implement",
      errors: [{ messageId: "invalidStatus", detail: 'use "implemented" ("completed" triggers Claude\'s stop behavior)', data: { advice: "use", suggestion: "implemented" } }],
    },
    {
      name: "completed without a command: every contextual success, and no one suggestion",
      input: { status: "completed" },
      options: metadataFile,
      errors: [
        {
          messageId: "invalidStatus",
          detail: 'use "researched" or "planned" or "implemented"',
          data: { advice: "use", hint: '; use "researched" or "planned" or "implemented" ("completed" triggers Claude\'s stop behavior)' },
          reask: '"status" must be one of researched, planned, implemented, partial, failed, blocked, in_progress; received "completed"; use "researched" or "planned" or "implemented" ("completed" triggers Claude\'s stop behavior)',
        },
      ],
    },
    { name: "done → completed", input: { status: "done" }, errors: [{ messageId: "invalidStatus", data: { advice: "didYouMean", suggestion: "completed" } }] },
    { name: "complete → completed", input: { status: "complete" }, errors: [{ messageId: "invalidStatus", data: { advice: "didYouMean", suggestion: "completed" } }] },
    {
      name: "success → the command's status",
      input: { status: "success" },
      options: contextual,
      command: "plan",
      errors: [{ messageId: "invalidStatus", data: { advice: "didYouMean", suggestion: "planned", hint: '; did you mean "planned"?' } }],
    },
    {
      name: "research_done without a command → researched",
      input: { status: "research_done" },
      options: contextual,
      errors: [{ messageId: "invalidStatus", data: { advice: "didYouMean", suggestion: "researched" } }],
    },
    {
      name: "finished without a command or a stem: the successes, no guess",
      input: { status: "finished" },
      options: contextual,
      errors: [{ messageId: "invalidStatus", data: { advice: "note", hint: '; a finished task uses "researched" or "planned" or "implemented"' } }],
    },
    {
      name: "wrong case",
      input: { status: "Completed" },
      errors: [
        {
          messageId: "invalidStatus",
          detail: 'did you mean "completed"? (statuses are lower case)',
          data: { advice: "didYouMean", suggestion: "completed" },
          reask: '"status" must be one of completed, partial, failed, blocked; received "Completed"; set "status" to "completed"',
        },
      ],
    },
    { name: "a typo", input: { status: "blokced" }, errors: [{ messageId: "invalidStatus", data: { advice: "didYouMean", suggestion: "blocked" } }] },
    {
      name: "nothing close",
      input: { status: "zzzzzzzz" },
      errors: [{ messageId: "invalidStatus", data: { advice: "none", hint: "" }, reask: '"status" must be one of completed, partial, failed, blocked; received "zzzzzzzz"; set "status" to one of the allowed values' }],
    },
    {
      name: "a number",
      input: { status: 1 },
      errors: [
        {
          messageId: "notAString",
          pointer: "/status",
          detail: "received number 1",
          data: { type: "number", value: "1", allowed: "completed, partial, failed, blocked" },
          reask: '"status" must be a string, one of completed, partial, failed, blocked; received number 1; set "status" to one of the allowed values',
        },
      ],
    },
    {
      name: "in_progress where early metadata is not allowed",
      input: { status: "in_progress" },
      options: contextual,
      command: "plan",
      errors: [{ messageId: "invalidStatus", data: { advice: "note", suggestion: "partial", allowed: "planned, partial, failed, blocked" } }],
    },
    { name: "a contextual status in a legacy format", input: { status: "researched" }, errors: [{ messageId: "invalidStatus", data: { advice: "didYouMean", suggestion: "completed" } }] },
  ],
});
