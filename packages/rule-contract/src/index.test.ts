import { describe, it } from "vitest";
import { RuleTester } from "@returnlint/rule-tester";
import rule from "./index.js";

const review = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  required: ["status", "proof"],
  additionalProperties: false,
  properties: {
    status: { enum: ["done", "failed"] },
    proof: {
      type: "object",
      required: ["type", "paths"],
      properties: { type: { const: "file" }, paths: { type: "array", minItems: 1, items: { type: "string", "x-returnlint": "artifact" } } },
    },
    summary: { type: "string", maxLength: 20 },
  },
};

const done = { status: "done", proof: { type: "file", paths: ["out/a.md"] } };

new RuleTester({ describe, it }).run(rule, {
  valid: [
    { name: "a return that follows its contract", input: done, contract: review },
    { name: "without a contract the rule has nothing to say", input: { status: "finished" } },
  ],
  invalid: [
    {
      name: "a status the contract does not list",
      input: { ...done, status: "finished" },
      contract: review,
      errors: [
        {
          messageId: "violation",
          pointer: "/status",
          message: "Contract contract.json: /status must be one of done, failed",
          detail: "Expected: done, failed\nGot: finished",
          reask: "must be one of done, failed; received finished",
          data: { expected: "done, failed", received: "finished", keyword: "enum" },
        },
      ],
    },
    {
      name: "a missing field points where it belongs",
      input: { status: "done" },
      contract: review,
      errors: [{ messageId: "violation", pointer: "/proof", reask: "is required; received nothing" }],
    },
    {
      name: "every violation at once, each at its own pointer",
      input: { status: "done", proof: { type: "url", paths: [] }, summary: "a summary far longer than twenty characters", extra: 1 },
      contract: review,
      errors: [
        { messageId: "violation", pointer: "/extra", reask: "is not a field the contract allows here; received 1" },
        { messageId: "violation", pointer: "/proof/type", reask: "must be file; received url" },
        { messageId: "violation", pointer: "/proof/paths", reask: "must have at least 1 item; received 0 items" },
        { messageId: "violation", pointer: "/summary", reask: "must be at most 20 characters long; received 43 characters" },
      ],
    },
    {
      name: "a value of the wrong type says both types",
      input: { status: "done", proof: { type: "file", paths: [42] } },
      contract: review,
      errors: [{ messageId: "violation", pointer: "/proof/paths/0", reask: "must be a string; received number 42" }],
    },
  ],
});
