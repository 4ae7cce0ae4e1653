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
    { name: "a metadata file of this session is not stale", input: { status: "researched", metadata: { session_id: sessionId } }, format: "metadata-file", sessionId },
  ],
  invalid: [
    {
      name: "the research report's mismatch (example 5)",
      input: { ...v7, metadata: { session_id: "sess_WRONG_SESSION_ID" } },
      sessionId,
      agent: "researcher",
      errors: [
        {
          messageId: "mismatch",
          pointer: "/metadata/session_id",
          message: "Session ID mismatch",
          detail: `Expected: ${sessionId}\nGot: sess_WRONG_SESSION_ID`,
          reask: 'the session id "sess_WRONG_SESSION_ID" is not the one you were delegated; return the session id from your delegation context, unchanged',
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
      errors: [{ messageId: "mismatch", data: { actual: "1735460684" }, reask: "the session id 1735460684 is not the one you were delegated; return the session id from your delegation context, unchanged" }],
    },
    {
      name: "a metadata file from another session is stale metadata, not a mere mismatch",
      input: { status: "researched", metadata: { session_id: "sess_1735000000_old999" } },
      format: "metadata-file",
      sessionId,
      expected: { task: "259" },
      errors: [
        {
          messageId: "staleMetadata",
          pointer: "/metadata/session_id",
          message: `Stale return metadata: specs/259_*/.return-meta.json belongs to session sess_1735000000_old999, not this run's ${sessionId}`,
          detail: `Expected: ${sessionId}\nGot: sess_1735000000_old999`,
        },
      ],
    },
    {
      name: "stale metadata without a task number names the file by its name",
      input: { status: "in_progress", metadata: { session_id: "sess_1735000000_old999" } },
      format: "metadata-file",
      sessionId,
      errors: [{ messageId: "staleMetadata", data: { file: ".return-meta.json", actual: "sess_1735000000_old999" } }],
    },
    {
      name: "a console return (v7) from another session is a mismatch, not stale metadata",
      input: { status: "researched", metadata: { session_id: "sess_1735000000_old999" } },
      format: "v7",
      sessionId,
      errors: [{ messageId: "mismatch" }],
    },
    {
      name: "a v7 return with the session id at the top level",
      input: { status: "completed", session_id: sessionId, metadata: {} },
      sessionId,
      errors: [
        {
          messageId: "misplaced",
          pointer: "/session_id",
          data: { found: "session_id", field: "metadata.session_id" },
          reask: "the session id is at session_id, but this format keeps it at metadata.session_id; move it there",
        },
      ],
    },
  ],
});
