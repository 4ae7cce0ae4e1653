// Compiled by src/index.test.ts: an invalid case expecting a messageId the rule does not declare is a type error.
import { describe, it } from "vitest";
import { defineRule } from "@returnlint/core";
import { RuleTester } from "../src/index.js";

const rule = defineRule()({
  id: "no-draft",
  meta: {
    description: "A return is not a draft.",
    docs: "https://example.com/no-draft",
    schema: { type: "object", additionalProperties: false },
    defaultOptions: {},
    messages: { draft: { text: "Status is a draft" } },
  },
  check(context) {
    if (context.value.status === "draft") context.report({ messageId: "draft", pointer: "/status" });
  },
});

new RuleTester({ describe, it }).run(rule, {
  valid: [{ input: { status: "completed" } }],
  invalid: [{ input: { status: "draft" }, errors: [{ messageId: "darft", pointer: "/status" }] }],
});
