import { defineRule, docsUrl, preview, receivedValue as received } from "@returnlint/core";

function isSaid(value: unknown): value is string {
  return typeof value === "string" && value.trim() !== "";
}

/** `requires_user_review` stops the orchestrator for the user; `review_reason` tells the user what to look at. */
export default defineRule(docsUrl)({
  id: "user-review",
  meta: {
    description: "A return that sets requires_user_review says why in review_reason; requires_user_review is a boolean.",
    schema: { type: "object", additionalProperties: false },
    defaultOptions: {},
    messages: {
      notABoolean: {
        text: "requires_user_review is not a boolean: received {received}",
        detail: "Warning: requires_user_review is true when the user must look at the work before it goes on, else false",
        recommendation: "Fix {subagent} to write requires_user_review as true or false",
        reask: "requires_user_review is {received}; write true or false",
      },
      missingReason: {
        text: "requires_user_review is true but review_reason says nothing: received {received}",
        detail: "Warning: the user asked to review needs to know what to look at and why",
        recommendation: "Fix {subagent} to write review_reason whenever it sets requires_user_review",
        reask: "requires_user_review is true but review_reason is {received}; say what the user should look at and why",
      },
      reviewExplained: { text: "User review requested: {reason}" },
    },
  },
  check(context) {
    const { requires_user_review: requires, review_reason: reason } = context.value;
    if (requires === undefined || requires === false) return;
    if (requires !== true) {
      context.report({ messageId: "notABoolean", data: { received: received(requires) }, pointer: "/requires_user_review" });
      return;
    }
    if (!isSaid(reason)) {
      context.report({ messageId: "missingReason", data: { received: reason === undefined ? "nothing" : received(reason) }, pointer: "/review_reason" });
      return;
    }
    context.pass({ messageId: "reviewExplained", data: { reason: preview(reason, 80) } });
  },
});
