import type { AnyRule, Rule, RuleMeta } from "./types.js";

/** A rule as its module writes it when `defineRule` derives the docs URL from the id: `meta` without `docs`. */
export type RuleWithoutDocs<Options, MessageId extends string> = Omit<Rule<Options, MessageId>, "meta"> & {
  readonly meta: Omit<RuleMeta<Options, MessageId>, "docs">;
};

/**
 * Declares a rule, in two calls: `defineRule<Options>(docsUrlOf)({ id, meta, check })`. The first
 * fixes the options type; the second infers the message ids from `meta.messages`, so that `check`
 * reporting an id the messages lack is a type error (TypeScript infers no type argument of a call
 * that names one, hence two calls). Given `docsUrlOf`, `meta.docs` is `docsUrlOf(id)` and the module
 * writes its id once; without it, `meta.docs` is the module's own.
 */
export function defineRule<Options = Record<string, never>>(
  docsUrlOf: (id: string) => string,
): <MessageId extends string>(rule: RuleWithoutDocs<Options, MessageId>) => Rule<Options, MessageId>;
export function defineRule<Options = Record<string, never>>(): <MessageId extends string>(rule: Rule<Options, MessageId>) => Rule<Options, MessageId>;
/**
 * The one-call form that plain JavaScript rules use: it returns the rule unchanged. In TypeScript,
 * `defineRule<Options>(rule)` cannot infer the message ids (a misspelt `messageId` compiles):
 * write `defineRule<Options>()(rule)`.
 */
export function defineRule<Options, MessageId extends string = string>(rule: Rule<Options, MessageId>): Rule<Options, MessageId>;
export function defineRule(given?: AnyRule | ((id: string) => string)): AnyRule | ((rule: AnyRule) => AnyRule) {
  if (typeof given === "object") return given;
  return (rule) => (given === undefined ? rule : { ...rule, meta: { ...rule.meta, docs: given(rule.id) } });
}
