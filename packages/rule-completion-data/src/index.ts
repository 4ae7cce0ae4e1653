import { defineRule, docsUrl, isObject, pointerOf, receivedValue as received } from "@returnlint/core";

const isFilled = (value: unknown): value is string => typeof value === "string" && value.trim() !== "";

/** The problems found inside completion_data, each reported at its field. */
type FieldProblem = "missingSummary" | "invalidSummary" | "missingClaudemdSuggestions" | "invalidClaudemdSuggestions" | "roadmapItemNotString" | "roadmapNotArray";

/**
 * return-metadata-file.md, completion_data: an `implemented` return carries what postflight
 * copies into state.json, so that /todo and ROAD_MAP.md stay in step with the work.
 */
export default defineRule(docsUrl)({
  id: "completion-data",
  meta: {
    description: "An implemented return carries completion_data: a completion_summary, claudemd_suggestions for meta tasks, roadmap_items as strings.",
    schema: { type: "object", additionalProperties: false },
    defaultOptions: {},
    messages: {
      complete: { text: "Completion data present: {fields}" },
      missingCompletionData: {
        text: "Missing completion_data for status implemented",
        detail: 'Error: an "implemented" return must carry completion_data with {required}; postflight copies it into state.json',
        recommendation: "Fix {subagent} to write completion_data with {required} when it returns implemented",
        reask: "an \"implemented\" return carries completion_data; add it with {required}",
      },
      notAnObject: {
        text: "completion_data is not an object: received {received}",
        detail: 'Error: completion_data must be an object with {required}',
        recommendation: "Fix {subagent} to write completion_data as an object with {required}",
        reask: "completion_data is {received}; make it an object with {required}",
      },
      missingSummary: {
        text: "Missing completion_data.completion_summary",
        detail: "Error: an implemented return must say in 1-3 sentences what was accomplished",
        recommendation: "Fix {subagent} to write completion_data.completion_summary: 1-3 sentences on what the implementation did",
        reask: "completion_data.completion_summary is missing; add 1-3 sentences on what you accomplished",
      },
      invalidSummary: {
        text: "completion_data.completion_summary is not a non-empty string: received {received}",
        detail: "Error: completion_summary must be 1-3 sentences of text on what was accomplished",
        recommendation: "Fix {subagent} to write completion_data.completion_summary as 1-3 sentences of text",
        reask: "completion_data.completion_summary is {received}; write 1-3 sentences on what you accomplished",
      },
      missingClaudemdSuggestions: {
        text: "Missing completion_data.claudemd_suggestions for a meta task",
        detail: 'Error: a meta task must describe its .claude/ changes in claudemd_suggestions, or say "none"',
        recommendation: 'Fix {subagent} to write completion_data.claudemd_suggestions: the .claude/ changes it made, or "none"',
        reask: "completion_data.claudemd_suggestions is missing; describe the .claude/ changes you made, or write \"none\"",
      },
      invalidClaudemdSuggestions: {
        text: "completion_data.claudemd_suggestions is not a non-empty string: received {received}",
        detail: 'Error: claudemd_suggestions describes the .claude/ changes made, or is "none" when no .claude/ file changed',
        recommendation: 'Fix {subagent} to write claudemd_suggestions as text, or "none"',
        reask: "completion_data.claudemd_suggestions is {received}; describe the .claude/ changes you made as text, or write \"none\"",
      },
      roadmapNotArray: {
        text: "completion_data.roadmap_items is not an array: received {received}",
        detail: "Error: roadmap_items, when present, lists the ROAD_MAP.md item texts this task addresses, as strings",
        recommendation: "Fix {subagent} to write roadmap_items as an array of ROAD_MAP.md item texts, or leave it out",
        reask: "completion_data.roadmap_items is {received}; make it an array of ROAD_MAP.md item texts, or leave it out",
      },
      roadmapItemNotString: {
        text: "completion_data.roadmap_items[{index}] is not a roadmap item text: received {received}",
        detail: "Error: each roadmap item is the non-empty text of a ROAD_MAP.md item",
        recommendation: "Fix {subagent} to list each roadmap item as its ROAD_MAP.md text",
        reask: "completion_data.roadmap_items[{index}] is {received}; write the ROAD_MAP.md item's text",
      },
    },
  },
  check(context) {
    const { value } = context;
    if (value.status !== "implemented") return;
    const meta = context.expected.taskType === "meta";
    const required = meta ? "completion_summary and claudemd_suggestions" : "completion_summary";
    const data = value.completion_data;
    if (data === undefined) {
      context.report({ messageId: "missingCompletionData", data: { required }, pointer: "/completion_data" });
      return;
    }
    if (!isObject(data)) {
      context.report({ messageId: "notAnObject", data: { required, received: received(data) }, pointer: "/completion_data" });
      return;
    }

    let problems = 0;
    const problem = (messageId: FieldProblem, data: Record<string, string | number>, ...tokens: (string | number)[]): void => {
      problems += 1;
      context.report({ messageId, data, pointer: pointerOf("completion_data", ...tokens) });
    };
    const summary = data.completion_summary;
    if (summary === undefined) problem("missingSummary", {}, "completion_summary");
    else if (!isFilled(summary)) problem("invalidSummary", { received: received(summary) }, "completion_summary");

    // return-metadata-file.md requires claudemd_suggestions of meta tasks only: for any other (or an unknown) task it is not checked.
    const suggestions = data.claudemd_suggestions;
    if (meta && suggestions === undefined) problem("missingClaudemdSuggestions", {}, "claudemd_suggestions");
    else if (meta && !isFilled(suggestions)) problem("invalidClaudemdSuggestions", { received: received(suggestions) }, "claudemd_suggestions");

    const roadmap = data.roadmap_items;
    if (Array.isArray(roadmap)) {
      roadmap.forEach((item: unknown, index) => {
        if (!isFilled(item)) problem("roadmapItemNotString", { index, received: received(item) }, "roadmap_items", index);
      });
    } else if (roadmap !== undefined) {
      problem("roadmapNotArray", { received: received(roadmap) }, "roadmap_items");
    }

    if (problems === 0) {
      const fields = ["completion_summary", ...(meta ? ["claudemd_suggestions"] : []), ...(Array.isArray(roadmap) ? [`${String(roadmap.length)} roadmap item(s)`] : [])];
      context.pass({ messageId: "complete", data: { fields: fields.join(", ") } });
    }
  },
});
