// Compiled by src/define-rule.test.ts: reporting a messageId that meta.messages lacks is a type error.
import { defineRule } from "../src/index.js";

interface Options {
  field: string;
}

export default defineRule<Options>()({
  id: "summary-present",
  meta: {
    description: "The return has a summary.",
    docs: "https://example.com/summary-present",
    schema: { type: "object", additionalProperties: false, properties: { field: { type: "string" } }, required: ["field"] },
    defaultOptions: { field: "summary" },
    messages: {
      present: { text: "{field} is present" },
      missingField: { text: "Missing required field: {field}" },
    },
  },
  check(context) {
    const { field } = context.options;
    if (context.value[field] === undefined) context.report({ messageId: "missingFeild", data: { field }, pointer: `/${field}` });
    else context.pass({ messageId: "present", data: { field } });
  },
});
