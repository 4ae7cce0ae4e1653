import { describe, it } from "vitest";
import { RuleTester } from "@returnlint/rule-tester";
import rule from "./index.js";

const metadata = {
  session_id: "sess_1735460684_a1b2c3",
  agent_type: "researcher",
  delegation_depth: 1,
  delegation_path: ["orchestrator", "research", "researcher"],
};
const v7 = { status: "completed", summary: "Research completed.", artifacts: [], metadata };
const { summary: _summary, ...withoutSummary } = v7;
const v5Fields = { fields: ["status", "summary", "artifacts", "metadata", "session_id"] };

new RuleTester({ describe, it }).run(rule, {
  valid: [
    { name: "a complete v7 return", input: v7 },
    { name: "a v5 return with a top-level session_id", input: { ...v7, session_id: "sess_1" }, options: v5Fields },
    { name: "a metadata file needs no summary", input: withoutSummary, options: { fields: ["status", "artifacts", "metadata"] } },
    { name: "custom fields and types", input: { ...v7, next_steps: "Run /plan" }, options: { fields: ["next_steps"], types: { next_steps: "string" } } },
    { name: "fields may be JSON Pointers", input: v7, options: { fields: ["/metadata/agent_type"] } },
    // A field named like an Object.prototype member has no type unless the options give it one.
    { name: "fields named constructor, toString and __proto__ have no type of their own", input: { ...v7, constructor: 7, toString: [], ["__proto__"]: "x" }, options: { fields: ["constructor", "toString", "__proto__"] } },
  ],
  invalid: [
    {
      name: "the documented missing status",
      input: { summary: "x", artifacts: [], metadata },
      errors: [{ messageId: "missingField", pointer: "/status", message: "Missing required field: status", detail: 'Error: "status" is not in the return; a v7 return must have it', reask: '"status" is missing; add it' }],
    },
    {
      name: "every missing field is reported, not only the first",
      input: { metadata },
      errors: [
        { messageId: "missingField", pointer: "/status" },
        { messageId: "missingField", pointer: "/summary" },
        { messageId: "missingField", pointer: "/artifacts" },
      ],
    },
    {
      name: "a missing metadata subfield uses orchestration-validation.md's metadata wording",
      input: { ...v7, metadata: { ...metadata, session_id: undefined } },
      errors: [
        {
          messageId: "missingMetadataField",
          pointer: "/metadata/session_id",
          message: "Missing required metadata field: session_id",
          detail: 'Error: "metadata.session_id" is not in the return; a v7 return must have it',
          reask: '"metadata.session_id" is missing; add it',
        },
      ],
    },
    {
      name: "null counts as missing, as with jq -e",
      input: { ...v7, summary: null },
      errors: [{ messageId: "missingField", pointer: "/summary", data: { field: "summary", absence: "is null" }, detail: 'Error: "summary" is null;' }],
    },
    {
      name: "missing metadata is reported once, not once per subfield",
      input: { status: "completed", artifacts: [] },
      options: { fields: ["metadata", "metadata.session_id", "metadata.agent_type"] },
      errors: [{ messageId: "missingField", pointer: "/metadata" }],
    },
    {
      name: "artifacts must be an array",
      input: { ...v7, artifacts: "specs/1_x/report.md" },
      errors: [
        {
          messageId: "wrongType",
          pointer: "/artifacts",
          data: { field: "artifacts", expected: "an array", actual: "string", value: '"specs/1_x/report.md"' },
          reask: '"artifacts" must be an array; received string "specs/1_x/report.md"; change it to that type',
        },
      ],
    },
    {
      name: "metadata must be an object, and its subfields are then not checked",
      input: { ...v7, metadata: "sess_1" },
      errors: [{ messageId: "wrongType", pointer: "/metadata", data: { field: "metadata", expected: "an object", actual: "string" } }],
    },
    {
      name: "delegation_depth must be an integer",
      input: { ...v7, metadata: { ...metadata, delegation_depth: "1" } },
      errors: [
        {
          messageId: "wrongType",
          pointer: "/metadata/delegation_depth",
          data: { field: "metadata.delegation_depth", expected: "an integer" },
          reask: '"metadata.delegation_depth" must be an integer; received string "1"; change it to that type',
        },
      ],
    },
    {
      name: "status must be a string",
      input: { ...v7, status: 3 },
      errors: [{ messageId: "wrongType", pointer: "/status" }],
    },
    {
      name: "v5 requires the top-level session_id",
      input: v7,
      options: v5Fields,
      errors: [{ messageId: "missingField", pointer: "/session_id", data: { field: "session_id" } }],
    },
  ],
});
