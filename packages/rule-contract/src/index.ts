import { defineRule, docsUrl, placeOf } from "@returnlint/core";

type Options = Record<string, never>;

/**
 * A return checked under a contract follows its schema. The schema is the project's: each way the
 * return breaks it is one finding at the value's pointer, saying what the contract wants there and
 * what the return holds, in words a subagent can act on.
 */
export default defineRule<Options>(docsUrl)({
  id: "contract",
  meta: {
    description: "A return checked under a contract follows the contract's JSON Schema: each violation at its pointer, with what was expected and received.",
    schema: { type: "object", additionalProperties: false, properties: {} },
    defaultOptions: {},
    messages: {
      follows: { text: "Return follows its contract: {contract}" },
      violation: {
        text: "Contract {contract}: {place} {problem}",
        detail: "Expected: {expected}\nGot: {received}\nError: the return does not follow its contract ({keyword})",
        recommendation: "Fix {subagent} to return what {contract} describes",
        reask: "{problem}; received {received}",
      },
    },
  },
  check(context) {
    const { contract } = context;
    // Without a contract there is no schema to follow: the presets' rules check the formats.
    if (contract === undefined) return;
    if (contract.violations.length === 0) {
      context.pass({ messageId: "follows", data: { contract: contract.file } });
      return;
    }
    for (const { pointer, keyword, problem, expected, received } of contract.violations) {
      context.report({ messageId: "violation", data: { contract: contract.file, place: placeOf(pointer), problem, expected, received, keyword }, pointer });
    }
  },
});
