import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import type { AnyRule } from "../types.js";
import { configSchema } from "./schema.js";

// Loaded only when a config needs a schema that was not compiled ahead of time
// (validators.ts): a run with presets alone, or with returnlint's bundled CLI and
// built-in rules only, never pays for ajv.
const ajv = new Ajv2020({ allErrors: true, strict: false });
const validators = new WeakMap<AnyRule, ValidateFunction>();
let configValidator: ValidateFunction | undefined;

export function validateConfigShape(value: unknown): ErrorObject[] {
  configValidator ??= ajv.compile(configSchema);
  return configValidator(value) ? [] : [...(configValidator.errors ?? [])];
}

/** The rule's options schema, compiled once; throws when ajv refuses the schema. */
export function compiledFor(rule: AnyRule): ValidateFunction {
  let validate = validators.get(rule);
  if (validate === undefined) {
    validate = ajv.compile(rule.meta.schema);
    validators.set(rule, validate);
  }
  return validate;
}
