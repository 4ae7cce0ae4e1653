import { describe, it } from "vitest";
import { RuleTester } from "@returnlint/rule-tester";
import rule from "./index.js";

const sessionId = "sess_1735460684_a1b2c3";
const v7 = { status: "completed", metadata: { session_id: sessionId } };

new RuleTester({ describe, it }).run(rule, {
  valid: [
    { name: "v7: metadata.session_id matches", input: v7, sessionId },
    { name: "v5: top-level session_id matches", input: { session_id: sessionId }, options: { field: "session_id" }, sessionId },
    { name: "nothing to compare against says so, and passes", input: v7 },
    { name: "a missing session id is required-fields' job", input: { status: "completed" }, sessionId },
  ],
  invalid: [
    {
      name: "the seed's mismatch (research report, example 5)",
      input: { ...v7, metadata: { session_id: "sess_WRONG_SESSION_ID" } },
      sessionId,
      agent: "researcher",
      errors: [
        {
          messageId: "mismatch",
          pointer: "/metadata/session_id",
          message: "Session ID mismatch",
          detail: `Expected: ${sessionId}\nGot: sess_WRONG_SESSION_ID`,
        },
      ],
    },
    {
      name: "v5 compares the top-level field",
      input: { session_id: "sess_other", metadata: { session_id: sessionId } },
      options: { field: "session_id" },
      sessionId,
      errors: [{ messageId: "mismatch", pointer: "/session_id" }],
    },
    {
      name: "a number is not the session id",
      input: { metadata: { session_id: 1735460684 } },
      sessionId,
      errors: [{ messageId: "mismatch", detail: "Got: 1735460684" }],
    },
    {
      name: "a v7 return with the session id at the top level",
      input: { status: "completed", session_id: sessionId, metadata: {} },
      sessionId,
      errors: [{ messageId: "misplaced", pointer: "/session_id", message: "found at session_id, expected at metadata.session_id" }],
    },
  ],
});
