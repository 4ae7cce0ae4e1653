import { defineRule, docsUrl } from "@returnlint/core";

interface Options {
  /** validation-rules.md's "<100 tokens", about 400 characters. */
  maxChars: number;
}

/** validation-rules.md Step 5: a long summary eats the orchestrator's context window. */
export default defineRule<Options>(docsUrl)({
  id: "summary-length",
  meta: {
    description: "The summary stays within the recommended length (400 characters, about 100 tokens).",
    schema: {
      type: "object",
      additionalProperties: false,
      properties: { maxChars: { type: "integer", minimum: 1, description: "The longest summary, in characters, that passes without a warning." } },
      required: ["maxChars"],
    },
    defaultOptions: { maxChars: 400 },
    messages: {
      tooLong: {
        text: "Summary exceeds recommended length: {length} characters",
        detail: "Warning: the summary should stay within {max} characters (about {tokens} tokens)",
        recommendation: "Shorten {subagent}'s summary to 2-5 sentences and put the details in an artifact",
        reask: "the summary is {length} characters, over the {max} recommended; shorten it to 2-5 sentences and put the details in an artifact",
      },
    },
  },
  check(context) {
    const summary = context.value.summary;
    if (typeof summary !== "string") return;
    const max = context.options.maxChars;
    // A summary of no more UTF-16 units than the limit has no more code points either.
    if (summary.length <= max) return;
    // Characters as people count them (code points), not UTF-16 units.
    const length = Array.from(summary).length;
    if (length > max) {
      context.report({ messageId: "tooLong", data: { length, max, tokens: Math.round(max / 4) }, pointer: "/summary" });
    }
  },
});
