import { REQUIRED_FIELD_TYPES, defineRule, docsUrl, jsonType, pointerFromPath, preview, tokensOf, valueAtTokens } from "@returnlint/core";

type FieldType = "string" | "number" | "integer" | "boolean" | "array" | "object";

interface Options {
  /** Dotted paths (`metadata.session_id`) or JSON Pointers, in the order they are checked. */
  fields: string[];
  /** The JSON type each field must have; the types the validation documents give are built in. */
  types: Record<string, FieldType>;
}

const FIELD_TYPES = ["string", "number", "integer", "boolean", "array", "object"] as const;

const ARTICLE: Readonly<Record<FieldType, string>> = {
  string: "a string",
  number: "a number",
  integer: "an integer",
  boolean: "a boolean",
  array: "an array",
  object: "an object",
};

function hasType(value: unknown, type: FieldType): boolean {
  if (type === "integer") return Number.isInteger(value);
  return jsonType(value) === type;
}

/** Step 2: every field the format requires is present and of the right JSON type. */
export default defineRule<Options>(docsUrl)({
  id: "required-fields",
  meta: {
    description: "The fields the format requires are present (not missing, not null) and have the right JSON types.",
    schema: {
      type: "object",
      additionalProperties: false,
      properties: {
        fields: {
          type: "array",
          items: { type: "string", minLength: 1 },
          description: "Fields that must be present and not null, as dotted paths (`metadata.session_id`) or JSON Pointers.",
        },
        types: {
          type: "object",
          additionalProperties: { enum: FIELD_TYPES },
          description: "The JSON type a field must have (string, number, integer, boolean, array, object), over the built-in types the validation documents give.",
        },
      },
    },
    defaultOptions: {
      fields: ["status", "summary", "artifacts", "metadata", "metadata.session_id", "metadata.agent_type", "metadata.delegation_depth", "metadata.delegation_path"],
      types: {},
    },
    messages: {
      allPresent: { text: "All required fields present" },
      missingField: {
        text: "Missing required field: {field}",
        detail: 'Error: "{field}" {absence}; a {format} return must have it',
        recommendation: "Fix {subagent} to include all required fields",
        reask: '"{field}" is missing; add it',
      },
      missingMetadataField: {
        text: "Missing required metadata field: {field}",
        detail: 'Error: "metadata.{field}" {absence}; a {format} return must have it',
        recommendation: "Fix {subagent} to include all required metadata fields",
        reask: '"metadata.{field}" is missing; add it',
      },
      wrongType: {
        text: "Wrong type for field: {field}",
        detail: 'Error: "{field}" must be {expected}; received {actual} {value}',
        recommendation: "Fix {subagent} to return {field} as {expected}",
        reask: '"{field}" must be {expected}; received {actual} {value}; change it to that type',
      },
    },
  },
  check(context) {
    // Missing or mistyped fields, by key: a field under one is already reported through it.
    let unusable: Set<string> | undefined;
    let problems = 0;
    for (const { pointer, tokens, name, key, parents, expected } of prepared(context.options)) {
      if (unusable !== undefined && parents.some((parent) => unusable?.has(parent) === true)) continue;
      const value = valueAtTokens(context.value, tokens);
      if (value === undefined || value === null) {
        (unusable ??= new Set()).add(key);
        problems += 1;
        const inMetadata = tokens.length === 2 && tokens[0] === "metadata";
        // Absent and null are one failure, as with jq -e; the detail says which, for the one fixing it.
        const absence = value === null ? "is null" : "is not in the return";
        context.report(
          inMetadata
            ? { messageId: "missingMetadataField", data: { field: tokens[1] ?? name, absence, format: context.format }, pointer }
            : { messageId: "missingField", data: { field: name, absence, format: context.format }, pointer },
        );
        continue;
      }
      if (expected !== undefined && !hasType(value, expected)) {
        (unusable ??= new Set()).add(key);
        problems += 1;
        context.report({
          messageId: "wrongType",
          data: { field: name, expected: ARTICLE[expected], actual: jsonType(value), value: preview(value, 40) },
          pointer,
        });
      }
    }
    if (problems === 0) context.pass({ messageId: "allPresent" });
  },
});

/** One configured field, worked out once per options object. */
interface Field {
  readonly pointer: string;
  readonly tokens: readonly string[];
  /** As messages name it: the tokens joined with dots. */
  readonly name: string;
  /** The tokens joined with slashes: what `unusable` holds once the field is missing or mistyped. */
  readonly key: string;
  /** The keys of the field's ancestors, the root ("") first. */
  readonly parents: readonly string[];
  /** The JSON type it must have, by its dotted name or as the options name it; none for a field of no known type. */
  readonly expected: FieldType | undefined;
}

/** The options of one configuration are the same object for every return: their pointers, names and types are worked out once. */
const preparedOptions = new WeakMap<Options, readonly Field[]>();

function prepared(options: Options): readonly Field[] {
  let fields = preparedOptions.get(options);
  if (fields === undefined) {
    // Own keys only: a field named "constructor" or "toString" has no type unless one is given.
    const types = new Map<string, FieldType>(Object.entries({ ...REQUIRED_FIELD_TYPES, ...options.types }));
    fields = options.fields.map((field): Field => {
      const pointer = pointerFromPath(field);
      const tokens = tokensOf(pointer);
      const name = tokens.join(".");
      const parents = tokens.map((_, index) => tokens.slice(0, index).join("/"));
      return { pointer, tokens, name, key: tokens.join("/"), parents, expected: types.get(name) ?? types.get(field) };
    });
    preparedOptions.set(options, fields);
  }
  return fields;
}
