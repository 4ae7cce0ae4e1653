import type { ErrorObject } from "ajv";
import type { AnyRule } from "../types.js";
import { describeAjvError } from "./problems.js";

/** A compiled JSON Schema: ajv's `ValidateFunction`, or one ajv generated ahead of time (standalone code). */
export type SchemaValidator = ((value: unknown) => boolean) & { errors?: ErrorObject[] | null };

/**
 * Validators compiled when the host was built, so that loading a config needs no
 * ajv at run time. returnlint's CLI passes its built-in rules' and the config
 * schema's; a rule without one here (a custom rule) is compiled with ajv as usual.
 */
export interface PrecompiledValidators {
  /** The config file's schema (`configSchema`). */
  readonly config?: SchemaValidator;
  /** Each built-in rule's options schema, by the rule's id. */
  readonly rules?: ReadonlyMap<string, SchemaValidator>;
}

/** Problems with one rule's options (merged over its defaults), as sentences. */
export function ruleOptionProblems(validate: SchemaValidator, rule: AnyRule, options: Record<string, unknown>, where: readonly (string | number)[]): string[] {
  const merged = { ...(rule.meta.defaultOptions as Record<string, unknown>), ...options };
  if (validate(merged)) return [];
  return (validate.errors ?? []).map((error) => describeAjvError(error, merged, rule.meta.schema, where));
}
