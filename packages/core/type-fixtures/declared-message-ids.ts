// Compiled by src/define-rule.test.ts: a rule that reports only the ids its meta.messages declares
// compiles, helpers included, with its docs URL derived from its id.
import { defineRule, docsUrl, type RuleContext } from "../src/index.js";

interface Options {
  field: string;
}

/** A helper states the messages it reports: the rule's context may be handed to it because the rule declares them. */
function reportMissing(context: RuleContext<Options, "missingField">, field: string): void {
  context.report({ messageId: "missingField", data: { field }, pointer: `/${field}` });
}

export default defineRule<Options>(docsUrl)({
  id: "summary-present",
  meta: {
    description: "The return has a summary.",
    schema: { type: "object", additionalProperties: false, properties: { field: { type: "string" } }, required: ["field"] },
    defaultOptions: { field: "summary" },
    messages: {
      present: { text: "{field} is present" },
      missingField: { text: "Missing required field: {field}" },
    },
  },
  check(context) {
    const { field } = context.options;
    if (context.value[field] === undefined) reportMissing(context, field);
    else context.pass({ messageId: "present", data: { field } });
  },
});
