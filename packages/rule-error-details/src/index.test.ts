import { describe, it } from "vitest";
import { RuleTester } from "@returnlint/rule-tester";
import rule from "./index.js";

const timeout = { type: "timeout", message: "Implementation timed out after 1 hour", recoverable: true, recommendation: "Resume with /implement 259" };
const failed = (errors?: unknown) => ({ status: "failed", artifacts: [], ...(errors === undefined ? {} : { errors }) });

new RuleTester({ describe, it }).run(rule, {
  valid: [
    { name: "return-metadata-file.md's partial implementation", input: { status: "partial", errors: [timeout] } },
    { name: "orchestration-validation.md's error response format", input: failed([{ type: "validation", message: "Validation failed: no status", recoverable: true, recommendation: "Fix the return" }]) },
    { name: "blocked, not recoverable, two errors", input: { status: "blocked", errors: [{ ...timeout, recoverable: false }, { ...timeout, type: "execution" }] } },
    { name: "extra fields in an error are fine", input: failed([{ ...timeout, code: "TIMEOUT" }]) },
    ...["completed", "researched", "planned", "implemented", "in_progress"].map((status) => ({ name: `${status} needs no errors`, input: { status } })),
    { name: "a finished return's errors are not checked", input: { status: "completed", errors: ["note"] } },
    { name: "a missing status is required-fields' to report", input: { errors: [] } },
  ],
  invalid: [
    {
      name: "partial with no errors (most real partial returns)",
      input: { status: "partial", artifacts: [] },
      agent: "lean-implementation-agent",
      errors: [{ messageId: "missingErrors", pointer: "/errors", message: "Missing errors for status partial", detail: '"recoverable": true' }],
    },
    { name: "blocked with errors null", input: { status: "blocked", errors: null }, errors: [{ messageId: "missingErrors", data: { status: "blocked" } }] },
    { name: "errors as one string", input: failed("Lake build failed"), errors: [{ messageId: "notAnArray", pointer: "/errors", data: { received: 'string "Lake build failed"' } }] },
    { name: "errors as one object", input: failed(timeout), errors: [{ messageId: "notAnArray", message: "received object" }] },
    { name: "an empty list", input: failed([]), errors: [{ messageId: "emptyErrors", pointer: "/errors", data: { status: "failed" } }] },
    { name: "a bare string entry", input: failed(["timed out"]), errors: [{ messageId: "entryNotAnObject", pointer: "/errors/0", data: { index: 0, received: 'string "timed out"' } }] },
    {
      name: "an empty entry misses all four fields, each at its pointer",
      input: failed([{}]),
      errors: [
        { messageId: "missingField", pointer: "/errors/0/type", data: { index: 0, field: "type" } },
        { messageId: "missingField", pointer: "/errors/0/message" },
        { messageId: "missingField", pointer: "/errors/0/recoverable", data: { field: "recoverable", expected: "a boolean (true when a retry may succeed)" } },
        { messageId: "missingField", pointer: "/errors/0/recommendation" },
      ],
    },
    {
      name: "recoverable as a string",
      input: failed([{ ...timeout, recoverable: "true" }]),
      errors: [{ messageId: "invalidField", pointer: "/errors/0/recoverable", data: { index: 0, field: "recoverable", received: 'string "true"', expected: "a boolean (true when a retry may succeed)" } }],
    },
    { name: "an empty message", input: failed([{ ...timeout, message: "" }]), errors: [{ messageId: "invalidField", pointer: "/errors/0/message", data: { field: "message", received: 'string ""', expected: "a non-empty string" } }] },
    { name: "a null recommendation", input: failed([{ ...timeout, recommendation: null }]), errors: [{ messageId: "invalidField", pointer: "/errors/0/recommendation", data: { received: "null" } }] },
    { name: "a numeric type", input: failed([{ ...timeout, type: 3 }]), errors: [{ messageId: "invalidField", pointer: "/errors/0/type", data: { received: "number 3" } }] },
    {
      name: "only the broken entries are reported",
      input: { status: "partial", errors: [timeout, { type: "execution", message: "Lake failed" }, 7] },
      errors: [
        { messageId: "missingField", pointer: "/errors/1/recoverable" },
        { messageId: "missingField", pointer: "/errors/1/recommendation" },
        { messageId: "entryNotAnObject", pointer: "/errors/2" },
      ],
    },
  ],
});
