import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import type { AnyRule } from "../types.js";
import { describeAjvError } from "./problems.js";
import { configSchema } from "./schema.js";

// Loaded only when a config file exists: a run with presets alone never pays for ajv.
const ajv = new Ajv2020({ allErrors: true, strict: false });
const validators = new WeakMap<AnyRule, ValidateFunction>();
let configValidator: ValidateFunction | undefined;

export function validateConfigShape(value: unknown): ErrorObject[] {
  configValidator ??= ajv.compile(configSchema);
  return configValidator(value) ? [] : [...(configValidator.errors ?? [])];
}

/** Problems with one rule's options (merged over its defaults), as sentences. */
export function checkRuleOptions(rule: AnyRule, options: Record<string, unknown>, where: readonly (string | number)[]): string[] {
  let validate = validators.get(rule);
  if (validate === undefined) {
    validate = ajv.compile(rule.meta.schema);
    validators.set(rule, validate);
  }
  const merged = { ...(rule.meta.defaultOptions as Record<string, unknown>), ...options };
  if (validate(merged)) return [];
  return (validate.errors ?? []).map((error) => describeAjvError(error, merged, rule.meta.schema, where));
}
