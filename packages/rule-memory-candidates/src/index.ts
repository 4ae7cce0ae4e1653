import { closest, defineRule, docsUrl, isObject, pointerOf, receivedValue as received } from "@returnlint/core";

/** The kinds of memory the projects' memory system files a candidate under. */
const CATEGORIES = ["TECHNIQUE", "PATTERN", "CONFIG", "WORKFLOW", "INSIGHT"] as const;

function isKeywordList(value: unknown): boolean {
  return Array.isArray(value) && value.every((keyword) => typeof keyword === "string" && keyword.trim() !== "");
}

/**
 * `memory_candidates`: what a run learned, offered to the project's memory. Each candidate is
 * `{ content, category, source_artifact, confidence, suggested_keywords }`; the file named by
 * `source_artifact` is file-claims' to check.
 */
export default defineRule(docsUrl)({
  id: "memory-candidates",
  meta: {
    description:
      "memory_candidates, when present, is a list of { content, category, source_artifact, confidence, suggested_keywords }: content is said, the category is one the memory files under.",
    schema: { type: "object", additionalProperties: false },
    defaultOptions: {},
    messages: {
      notAList: {
        text: "memory_candidates is not an array: received {received}",
        detail: "Error: memory_candidates lists what the run learned, one object per memory",
        recommendation: "Fix {subagent} to write memory_candidates as an array of objects ([] when there is nothing to remember)",
        reask: "memory_candidates is {received}; write it as an array of objects ([] when there is nothing to remember)",
      },
      entryNotAnObject: {
        text: "memory_candidates[{index}] is not an object: received {received}",
        detail: "Error: each memory candidate is { content, category, source_artifact, confidence, suggested_keywords }",
        recommendation: "Fix {subagent} to write each memory candidate as an object",
        reask: "memory_candidates[{index}] is {received}; write it as an object with content, category, source_artifact, confidence and suggested_keywords",
      },
      missingContent: {
        text: "memory_candidates[{index}] has no content: received {received}",
        detail: "Error: content is the memory itself, a non-empty string",
        recommendation: "Fix {subagent} to say what is to be remembered in content",
        reask: "memory_candidates[{index}] has no content; say what is to be remembered",
      },
      invalidCategory: {
        text: "memory_candidates[{index}].category must be one of {categories}; received {received}{suggestion}",
        detail: "Warning: the memory files a candidate under its category",
        recommendation: "Fix {subagent} to write one of {categories}",
        reask: "memory_candidates[{index}].category is {received}; write one of {categories}",
      },
      missingSourceArtifact: {
        text: "memory_candidates[{index}] has no source_artifact",
        detail: "Warning: source_artifact names the file the memory was drawn from, so that it can be checked later",
        recommendation: "Fix {subagent} to name the artifact each memory comes from",
        reask: "memory_candidates[{index}] has no source_artifact; name the file the memory comes from",
      },
      invalidConfidence: {
        text: "memory_candidates[{index}].confidence is not a number from 0 to 1: received {received}",
        detail: "Warning: confidence says how sure the run is of the memory, from 0 to 1",
        recommendation: "Fix {subagent} to write confidence as a number from 0 to 1",
        reask: "memory_candidates[{index}].confidence is {received}; write a number from 0 to 1",
      },
      invalidKeywords: {
        text: "memory_candidates[{index}].suggested_keywords is not a list of words: received {received}",
        detail: "Warning: suggested_keywords are the non-empty strings the memory is found by",
        recommendation: 'Fix {subagent} to write suggested_keywords as an array of strings, e.g. ["omega", "linear arithmetic"]',
        reask: "memory_candidates[{index}].suggested_keywords is {received}; write an array of strings",
      },
      candidatesValid: { text: "Memory candidates are well-formed: {count}" },
    },
  },
  check(context) {
    const candidates = context.value.memory_candidates;
    if (candidates === undefined) return;
    if (!Array.isArray(candidates)) {
      context.report({ messageId: "notAList", data: { received: received(candidates) }, pointer: "/memory_candidates" });
      return;
    }
    let problems = 0;
    const report: typeof context.report = (descriptor) => {
      problems += 1;
      context.report(descriptor);
    };
    candidates.forEach((candidate: unknown, index) => {
      const at = (field?: string) => (field === undefined ? pointerOf("memory_candidates", index) : pointerOf("memory_candidates", index, field));
      if (!isObject(candidate)) {
        report({ messageId: "entryNotAnObject", data: { index, received: received(candidate) }, pointer: at() });
        return;
      }
      const { content, category, confidence, suggested_keywords: keywords } = candidate;
      if (typeof content !== "string" || content.trim() === "") {
        report({ messageId: "missingContent", data: { index, received: content === undefined ? "nothing" : received(content) }, pointer: at("content") });
      }
      if (!(CATEGORIES as readonly unknown[]).includes(category)) {
        const near = typeof category === "string" ? closest(category, CATEGORIES) : undefined;
        const suggestion = near === undefined ? "" : ` (did you mean "${near}"?)`;
        report({ messageId: "invalidCategory", data: { index, categories: CATEGORIES.join(", "), received: category === undefined ? "nothing" : received(category), suggestion }, pointer: at("category"), level: "warn" });
      }
      if (candidate.source_artifact === undefined || candidate.source_artifact === null) {
        report({ messageId: "missingSourceArtifact", data: { index }, pointer: at("source_artifact"), level: "warn" });
      }
      if (confidence !== undefined && !(typeof confidence === "number" && confidence >= 0 && confidence <= 1)) {
        report({ messageId: "invalidConfidence", data: { index, received: received(confidence) }, pointer: at("confidence"), level: "warn" });
      }
      if (keywords !== undefined && !isKeywordList(keywords)) {
        report({ messageId: "invalidKeywords", data: { index, received: received(keywords) }, pointer: at("suggested_keywords"), level: "warn" });
      }
    });
    if (problems === 0 && candidates.length > 0) context.pass({ messageId: "candidatesValid", data: { count: candidates.length } });
  },
});
