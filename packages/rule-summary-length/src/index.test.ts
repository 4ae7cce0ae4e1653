import { describe, it } from "vitest";
import { RuleTester } from "@returnlint/rule-tester";
import rule from "./index.js";

new RuleTester({ describe, it }).run(rule, {
  valid: [
    { name: "400 characters exactly", input: { summary: "x".repeat(400) } },
    { name: "no summary (a metadata file)", input: { status: "researched" } },
    { name: "a non-string summary is required-fields' job", input: { summary: 3 } },
    { name: "emoji count once each", input: { summary: "🙂".repeat(400) } },
    { name: "a configured limit", input: { summary: "x".repeat(120) }, options: { maxChars: 120 } },
  ],
  invalid: [
    {
      name: "validation-rules.md's warning",
      input: { summary: "x".repeat(401) },
      errors: [{ messageId: "tooLong", pointer: "/summary", message: "Summary exceeds recommended length: 401 characters" }],
    },
    {
      name: "a configured limit",
      input: { summary: "x".repeat(121) },
      options: { maxChars: 120 },
      errors: [{ messageId: "tooLong", data: { max: 120, tokens: 30 }, reask: "the summary is 121 characters, over the 120 recommended; shorten it to 2-5 sentences and put the details in an artifact" }],
    },
  ],
});
