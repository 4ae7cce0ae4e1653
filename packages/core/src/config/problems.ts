import type { ErrorObject } from "ajv";
import { tokensOf, valueAt } from "../pointer.js";
import { preview } from "../json/render.js";
import { closest } from "../suggest.js";

/** `["commands","research","rules","./x.mjs"]` → `commands.research.rules["./x.mjs"]`. */
export function displayPath(tokens: readonly (string | number)[]): string {
  let out = "";
  for (const token of tokens) {
    if (typeof token === "number" || /^\d+$/.test(token)) out += `[${token}]`;
    else if (/^[\w$-]+$/.test(token)) out += out === "" ? token : `.${token}`;
    else out += `[${JSON.stringify(token)}]`;
  }
  return out === "" ? "(top level)" : out;
}

/** One sentence per ajv error: where, what is valid, what was given. */
export function describeAjvError(
  error: ErrorObject,
  data: unknown,
  schema: Record<string, unknown>,
  prefix: readonly (string | number)[],
): string {
  const tokens = tokensOf(error.instancePath);
  const where = displayPath([...prefix, ...tokens]);
  const given = valueAt(data, error.instancePath);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "additionalProperties": {
      const key = String(params.additionalProperty);
      const allowed = Object.keys(propertiesAt(schema, error.schemaPath));
      const guess = closest(key, allowed);
      const valid = allowed.length > 0 ? `valid keys: ${allowed.join(", ")}` : "no other keys are allowed";
      return `${where}: unknown key "${key}"${guess === undefined ? "" : ` (did you mean "${guess}"?)`}; ${valid}`;
    }
    case "required":
      return `${where}: missing required key "${String(params.missingProperty)}"`;
    case "enum": {
      const allowed = (params.allowedValues as unknown[]).map((value) => JSON.stringify(value));
      return `${where}: must be one of ${allowed.join(", ")}; received ${preview(given)}`;
    }
    default:
      return `${where}: ${error.message ?? "is invalid"}; received ${preview(given)}`;
  }
}

function propertiesAt(schema: Record<string, unknown>, schemaPath: string): Record<string, unknown> {
  const parent = valueAt(schema, schemaPath.replace(/^#/, "").replace(/\/additionalProperties$/, ""));
  const properties = (parent as { properties?: Record<string, unknown> } | undefined)?.properties;
  return properties ?? {};
}
