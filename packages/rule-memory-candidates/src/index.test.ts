import { describe, it } from "vitest";
import { RuleTester } from "@returnlint/rule-tester";
import rule from "./index.js";

const report = "specs/042_prove_lemma/reports/research-001.md";
const memory = (fields: Record<string, unknown> = {}) => ({
  content: "omega closes linear goals over Int once the hypotheses are in the context",
  category: "TECHNIQUE",
  source_artifact: report,
  confidence: 0.8,
  suggested_keywords: ["omega", "linear arithmetic"],
  ...fields,
});
const implemented = (candidates: unknown) => ({ status: "implemented", artifacts: [], memory_candidates: candidates });

new RuleTester({ describe, it }).run(rule, {
  valid: [
    { name: "one well-formed candidate", input: implemented([memory()]) },
    { name: "every category", input: implemented(["TECHNIQUE", "PATTERN", "CONFIG", "WORKFLOW", "INSIGHT"].map((category) => memory({ category }))) },
    { name: "nothing to remember", input: implemented([]) },
    { name: "confidence and keywords are optional", input: implemented([{ content: "x", category: "INSIGHT", source_artifact: report }]) },
    { name: "confidence at the bounds", input: implemented([memory({ confidence: 0 }), memory({ confidence: 1 })]) },
    { name: "no memory_candidates", input: { status: "researched", artifacts: [] } },
  ],
  invalid: [
    { name: "one object instead of a list", input: implemented(memory()), errors: [{ messageId: "notAList", pointer: "/memory_candidates", message: "memory_candidates is not an array: received object" }] },
    { name: "a bare string", input: implemented(["remember omega"]), errors: [{ messageId: "entryNotAnObject", pointer: "/memory_candidates/0", message: 'memory_candidates[0] is not an object: received string "remember omega"' }] },
    { name: "no content", input: implemented([memory({ content: undefined })]), errors: [{ messageId: "missingContent", pointer: "/memory_candidates/0/content", message: "memory_candidates[0] has no content: received nothing" }] },
    { name: "blank content", input: implemented([memory({ content: "  " })]), errors: [{ messageId: "missingContent", message: 'received string "  "' }] },
    {
      name: "a lower-case category, with the one meant",
      input: implemented([memory({ category: "technique" })]),
      errors: [{ messageId: "invalidCategory", pointer: "/memory_candidates/0/category", message: 'must be one of TECHNIQUE, PATTERN, CONFIG, WORKFLOW, INSIGHT; received string "technique" (did you mean "TECHNIQUE"?)' }],
    },
    { name: "a category outside the list", input: implemented([memory({ category: "LEMMA" })]), errors: [{ messageId: "invalidCategory", message: 'received string "LEMMA"' }] },
    { name: "no source artifact", input: implemented([memory({ source_artifact: null })]), errors: [{ messageId: "missingSourceArtifact", pointer: "/memory_candidates/0/source_artifact", message: "memory_candidates[0] has no source_artifact" }] },
    { name: "confidence as a percentage", input: implemented([memory({ confidence: 80 })]), errors: [{ messageId: "invalidConfidence", pointer: "/memory_candidates/0/confidence", message: "received number 80" }] },
    { name: "confidence as a word", input: implemented([memory({ confidence: "high" })]), errors: [{ messageId: "invalidConfidence", message: 'received string "high"' }] },
    { name: "keywords as one string", input: implemented([memory({ suggested_keywords: "omega, linarith" })]), errors: [{ messageId: "invalidKeywords", pointer: "/memory_candidates/0/suggested_keywords" }] },
    {
      name: "only the broken candidate is reported, at its index",
      input: implemented([memory(), memory({ category: "TIP", suggested_keywords: [""] })]),
      errors: [
        { messageId: "invalidCategory", pointer: "/memory_candidates/1/category" },
        { messageId: "invalidKeywords", pointer: "/memory_candidates/1/suggested_keywords" },
      ],
    },
  ],
});
