import type { Rule } from "./types.js";

/**
 * Declares a rule. It returns its argument unchanged: the point is the type,
 * which ties `check`'s options and message ids to `meta`.
 */
export function defineRule<Options>(rule: Rule<Options>): Rule<Options> {
  return rule;
}
