import { describe, it } from "vitest";
import { RuleTester } from "@returnlint/rule-tester";
import rule from "./index.js";

const partial = (fields: Record<string, unknown>) => ({ status: "partial", artifacts: [], ...fields });
const reason = "Phase 3 needs a decision: keep the axiom or prove it from the frame condition";

new RuleTester({ describe, it }).run(rule, {
  valid: [
    { name: "a review asked for, with its reason", input: partial({ requires_user_review: true, review_reason: reason }) },
    { name: "no review asked for", input: partial({ requires_user_review: false }) },
    { name: "no review, a null reason (as the projects write it)", input: partial({ requires_user_review: false, review_reason: null }) },
    { name: "a blocked return asking for review", input: { status: "blocked", requires_user_review: true, review_reason: reason } },
    { name: "neither field", input: { status: "researched", artifacts: [] } },
  ],
  invalid: [
    { name: "review asked for, no reason", input: partial({ requires_user_review: true }), errors: [{ messageId: "missingReason", pointer: "/review_reason", message: "requires_user_review is true but review_reason says nothing: received nothing" }] },
    { name: "review asked for, reason null", input: partial({ requires_user_review: true, review_reason: null }), errors: [{ messageId: "missingReason", message: "received null" }] },
    { name: "review asked for, reason blank", input: partial({ requires_user_review: true, review_reason: " " }), errors: [{ messageId: "missingReason", message: 'received string " "' }] },
    { name: "review asked for, reason a list", input: partial({ requires_user_review: true, review_reason: ["axiom"] }), errors: [{ messageId: "missingReason", message: "received array" }] },
    { name: '"true" as a string', input: partial({ requires_user_review: "true", review_reason: reason }), errors: [{ messageId: "notABoolean", pointer: "/requires_user_review", message: 'requires_user_review is not a boolean: received string "true"' }] },
    { name: "null", input: partial({ requires_user_review: null }), errors: [{ messageId: "notABoolean", message: "received null" }] },
  ],
});
