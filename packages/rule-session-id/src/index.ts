import { defineRule, docsUrl, MAX_QUOTED_CHARS, pointerFromPath, preview, tokensOf, valueAt } from "@returnlint/core";

interface Options {
  /** Where the format keeps the session id: `session_id` (v5) or `metadata.session_id`. */
  field: string;
}

const ELSEWHERE = ["/session_id", "/metadata/session_id"];

/** Step 4: the return answers the delegation that was made, not another one. */
export default defineRule<Options>(docsUrl)({
  id: "session-id",
  meta: {
    description: "The return's session id equals the one delegated (--session-id or RETURNLINT_SESSION_ID).",
    schema: {
      type: "object",
      additionalProperties: false,
      properties: { field: { type: "string", minLength: 1, description: "Where the session id lives: `session_id` (v5) or `metadata.session_id` (v7, metadata file)." } },
      required: ["field"],
    },
    defaultOptions: { field: "metadata.session_id" },
    messages: {
      matches: { text: "Session ID matches" },
      notCompared: {
        text: "Session ID not compared: no expected session id was given",
        detail: "Note: pass --session-id or set RETURNLINT_SESSION_ID to compare it",
      },
      mismatch: {
        text: "Session ID mismatch",
        detail: "Expected: {expected}\nGot: {actual}\nError: Subagent return validation failed",
        recommendation: "Fix {subagent} to return correct session_id",
        // Never the expected id: a subagent told it would copy it, and the check would prove nothing.
        reask: "the session id {value} is not the one you were delegated; return the session id from your delegation context, unchanged",
      },
      staleMetadata: {
        text: "Stale return metadata: {file} belongs to session {actual}, not this run's {expected}",
        detail: "Expected: {expected}\nGot: {actual}\nError: the metadata file was left by an earlier run (or another session) and was not rewritten by this one",
        recommendation: "Delete the stale {file} before delegating, and fix {subagent} to write its metadata with the delegated session_id",
        reask: "{file} holds session {actual}, not this run's; write your metadata again with the session id from your delegation context, unchanged",
      },
      misplaced: {
        text: "Session ID in the wrong place: found at {found}, expected at {field}",
        detail: "Error: this format keeps the session id at {field}",
        recommendation: "Fix {subagent} to return session_id at {field}",
        reask: "the session id is at {found}, but this format keeps it at {field}; move it there",
      },
    },
  },
  check(context) {
    // A contract marks where the session id is; a format keeps it where the option says.
    const marked = context.claims.sessionId;
    const pointer = marked ?? pointerFromPath(context.options.field);
    const actual = valueAt(context.value, pointer);
    if (actual === undefined && marked !== undefined) return; // the contract's schema says whether it is required
    if (actual === undefined) {
      const found = ELSEWHERE.find((other) => other !== pointer && valueAt(context.value, other) !== undefined);
      if (found !== undefined) {
        const field = tokensOf(pointer).join(".");
        context.report({ messageId: "misplaced", data: { found: tokensOf(found).join("."), field }, pointer: found });
      }
      return; // a plain absence is required-fields' to report
    }
    const expected = context.expected.sessionId;
    if (expected === undefined || expected === "") {
      context.info({ messageId: "notCompared" });
      return;
    }
    if (actual !== expected) {
      const shown = typeof actual === "string" ? actual : preview(actual, 60);
      // A metadata file outlives the run that wrote it: another session's id means this run never wrote it.
      if (context.format === "metadata-file") {
        const task = context.expected.task;
        const file = task === undefined || task === "" ? ".return-meta.json" : `specs/${task}_*/.return-meta.json`;
        context.report({ messageId: "staleMetadata", data: { file, expected, actual: shown }, pointer });
      } else {
        // The subagent's own id as JSON, so that it sees a number or an id with a stray space for what it is.
        const value = preview(actual, typeof actual === "string" ? MAX_QUOTED_CHARS : 60);
        context.report({ messageId: "mismatch", data: { expected, actual: shown, value }, pointer });
      }
      return;
    }
    context.pass({ messageId: "matches" });
  },
});
