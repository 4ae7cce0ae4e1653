/**
 * Each built-in rule's README.md, by rule id, for `returnlint explain`. Here, as the
 * sources are, there are none; build.mjs replaces this module in the bin with
 * dist/chunks/rule-docs.cjs, which holds the READMEs of the rule packages it bundled.
 */
export const RULE_DOCS: Readonly<Partial<Record<string, string>>> = {};
