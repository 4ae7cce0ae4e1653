import { describe, it } from "vitest";
import { RuleTester } from "@returnlint/rule-tester";
import rule from "./index.js";

const summary = "Proved the completeness theorem for modal logic using canonical model construction.";
const implemented = (completion_data?: unknown) => ({ status: "implemented", artifacts: [], ...(completion_data === undefined ? {} : { completion_data }) });
const meta = { taskType: "meta" };

new RuleTester({ describe, it }).run(rule, {
  valid: [
    {
      name: "return-metadata-file.md's non-meta implementation, with roadmap items",
      input: implemented({ completion_summary: summary, roadmap_items: ["Prove completeness theorem for K modal logic"] }),
    },
    {
      name: "return-metadata-file.md's meta task with .claude/ changes",
      input: implemented({ completion_summary: summary, claudemd_suggestions: "Added new-agent to Skill-to-Agent Mapping table in CLAUDE.md" }),
      expected: meta,
    },
    { name: 'a meta task that changed no .claude/ file says "none"', input: implemented({ completion_summary: summary, claudemd_suggestions: "none" }), expected: meta },
    { name: "a non-meta task needs no claudemd_suggestions", input: implemented({ completion_summary: summary }), expected: { taskType: "general" } },
    // return-metadata-file.md requires claudemd_suggestions for meta tasks only: what other tasks write there is theirs.
    { name: 'an empty claudemd_suggestions on a task of unknown type', input: implemented({ completion_summary: summary, claudemd_suggestions: "" }) },
    { name: "an empty claudemd_suggestions on a non-meta task", input: implemented({ completion_summary: summary, claudemd_suggestions: "" }), expected: { taskType: "lean" } },
    { name: "a mistyped claudemd_suggestions on a non-meta task", input: implemented({ completion_summary: summary, claudemd_suggestions: false }), expected: { taskType: "general" } },
    { name: "an empty roadmap list", input: implemented({ completion_summary: summary, roadmap_items: [] }) },
    ...["researched", "planned", "partial", "failed", "blocked", "in_progress", "completed"].map((status) => ({
      name: `${status} needs no completion data`,
      input: { status, artifacts: [] },
      expected: meta,
    })),
    { name: "a partial return's half-written completion_data is not checked", input: { status: "partial", completion_data: { roadmap_items: "x" } } },
  ],
  invalid: [
    {
      name: "implemented without completion_data",
      input: implemented(),
      agent: "general-implementation-agent",
      errors: [{ messageId: "missingCompletionData", pointer: "/completion_data", message: "Missing completion_data for status implemented", data: { required: "completion_summary" } }],
    },
    {
      name: "a meta task without completion_data is told both fields",
      input: implemented(),
      expected: meta,
      errors: [{ messageId: "missingCompletionData", data: { required: "completion_summary and claudemd_suggestions" } }],
    },
    { name: "completion_data as a string", input: implemented(summary), errors: [{ messageId: "notAnObject", pointer: "/completion_data", message: "received string" }] },
    { name: "completion_data as a list", input: implemented([summary]), errors: [{ messageId: "notAnObject", message: "received array" }] },
    { name: "completion_data null", input: implemented(null), errors: [{ messageId: "notAnObject", data: { received: "null" } }] },
    { name: "no completion_summary", input: implemented({ roadmap_items: [] }), errors: [{ messageId: "missingSummary", pointer: "/completion_data/completion_summary" }] },
    { name: "an empty completion_summary", input: implemented({ completion_summary: "  " }), errors: [{ messageId: "invalidSummary", pointer: "/completion_data/completion_summary", data: { received: 'string "  "' } }] },
    { name: "a completion_summary that is not text", input: implemented({ completion_summary: ["did it"] }), errors: [{ messageId: "invalidSummary", data: { received: 'array ["did it"]' } }] },
    {
      name: "a meta task without claudemd_suggestions",
      input: implemented({ completion_summary: summary }),
      expected: meta,
      errors: [{ messageId: "missingClaudemdSuggestions", pointer: "/completion_data/claudemd_suggestions", detail: 'or say "none"' }],
    },
    {
      name: "an empty claudemd_suggestions on a meta task",
      input: implemented({ completion_summary: summary, claudemd_suggestions: "" }),
      expected: meta,
      errors: [{ messageId: "invalidClaudemdSuggestions", pointer: "/completion_data/claudemd_suggestions" }],
    },
    {
      name: "a mistyped claudemd_suggestions on a meta task",
      input: implemented({ completion_summary: summary, claudemd_suggestions: false }),
      expected: meta,
      errors: [{ messageId: "invalidClaudemdSuggestions", data: { received: "boolean false" } }],
    },
    {
      name: "roadmap_items as one string",
      input: implemented({ completion_summary: summary, roadmap_items: "Prove completeness" }),
      errors: [{ messageId: "roadmapNotArray", pointer: "/completion_data/roadmap_items", message: "received string" }],
    },
    { name: "roadmap_items null", input: implemented({ completion_summary: summary, roadmap_items: null }), errors: [{ messageId: "roadmapNotArray", data: { received: "null" } }] },
    {
      name: "each bad roadmap item is reported with its pointer",
      input: implemented({ completion_summary: summary, roadmap_items: ["Prove completeness", 3, "", { text: "x" }] }),
      errors: [
        { messageId: "roadmapItemNotString", pointer: "/completion_data/roadmap_items/1", data: { index: 1 } },
        { messageId: "roadmapItemNotString", pointer: "/completion_data/roadmap_items/2", data: { index: 2, received: 'string ""' } },
        { messageId: "roadmapItemNotString", pointer: "/completion_data/roadmap_items/3", message: "received object" },
      ],
    },
    {
      name: "every problem at once",
      input: implemented({ roadmap_items: [7] }),
      expected: meta,
      errors: [
        { messageId: "missingSummary", pointer: "/completion_data/completion_summary" },
        { messageId: "missingClaudemdSuggestions", pointer: "/completion_data/claudemd_suggestions" },
        { messageId: "roadmapItemNotString", pointer: "/completion_data/roadmap_items/0" },
      ],
    },
  ],
});
