import type { LoadedRule } from "@returnlint/core";
import artifacts from "@returnlint/rule-artifacts";
import jsonStructure from "@returnlint/rule-json-structure";
import requiredFields from "@returnlint/rule-required-fields";
import sessionId from "@returnlint/rule-session-id";
import statusEnum from "@returnlint/rule-status-enum";
import summaryLength from "@returnlint/rule-summary-length";

/** Every rule that ships with returnlint, by id, in the order the seeds check them. */
export const BUILTIN_RULES: ReadonlyMap<string, LoadedRule> = new Map(
  [jsonStructure, requiredFields, statusEnum, sessionId, artifacts, summaryLength].map((rule) => [
    rule.id,
    { rule, source: `@returnlint/rule-${rule.id}` } satisfies LoadedRule,
  ]),
);
