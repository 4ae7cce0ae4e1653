/**
 * The JSON Schema of what a command expects (`returnlint schema`): its contract, or a schema made
 * from its preset's rules, so that a project hands a host's structured output the same contract
 * returnlint checks.
 */
import {
  CLAIM_KEYWORD,
  COMMAND_SUCCESS,
  CONTEXTUAL_SUCCESS,
  IN_PROGRESS,
  LEGACY_STATUSES,
  NON_SUCCESS_STATUSES,
  REQUIRED_FIELD_TYPES,
  SUCCESS_KEYWORD,
  isSuccessLike,
  pointerFromPath,
  rulesFor,
  tokensOf,
  withoutAnnotations,
  type JsonSchema,
  type LoadedConfig,
} from "@returnlint/core";

export interface ReturnSchemaOptions {
  /** The command whose returns the schema describes (its contextual success status, its contract). */
  readonly command?: string | null;
  /** A preset over the config's (`--preset`). */
  readonly preset?: string;
  /** Keep returnlint's annotations (`x-returnlint`): the schema is then a contract returnlint can check with. */
  readonly annotated?: boolean;
}

/**
 * The schema a command's returns follow. Under a contract, the contract itself (its annotations
 * taken out unless `annotated`); under a preset, a schema made from what its error-level rules
 * require: the required fields and their types, the status enum for the command, the session id's
 * place, artifacts as objects with a `path`, at least one for a success status, the delegation's
 * depth limit and distinct path, completion data for `implemented`. What a schema cannot say (a
 * file on disk, a session compared with the delegation's, the length of a summary that is only a
 * warning) stays returnlint's check.
 */
export async function returnSchema(config: LoadedConfig, options: ReturnSchemaOptions = {}): Promise<JsonSchema> {
  const command = options.command ?? null;
  const resolving = rulesFor(config, { command, value: {}, ...(options.preset === undefined ? {} : { preset: options.preset }) });
  const { rules, preset, contract } = resolving instanceof Promise ? await resolving : resolving;
  if (contract !== undefined) return options.annotated === true ? contract.schema : forHost(contract.schema);
  const byId = new Map(rules.filter((rule) => rule.severity === "error").map((rule) => [rule.rule.id, rule.options as Record<string, unknown>]));
  const schema = new SchemaBuilder(options.annotated === true);
  schema.root.title = `A return returnlint's ${preset} preset passes${command === null ? "" : ` for /${command}`}`;

  const required = byId.get("required-fields");
  if (required !== undefined) {
    const types = { ...REQUIRED_FIELD_TYPES, ...(required.types as Record<string, string> | undefined) };
    for (const field of required.fields as string[]) schema.require(field, types[field]);
  }

  const statuses = byId.get("status-enum");
  const allowed = statuses === undefined ? undefined : statusesFor(statuses, command);
  if (allowed !== undefined) schema.at("status").enum = allowed;

  const sessionId = byId.get("session-id");
  if (sessionId !== undefined) {
    const place = schema.at(sessionId.field as string);
    place.type = "string";
    schema.annotate(place, "session-id");
  }

  const successes = allowed?.filter((status) => isSuccessLike(status) && status !== IN_PROGRESS) ?? [];
  if (byId.has("artifacts")) {
    const artifacts = schema.at("artifacts");
    artifacts.type = "array";
    // An empty path fails where the claims count (the artifacts rule), not in a failed return, as under the preset.
    const path: JsonSchema = { type: "string" };
    schema.annotate(path, "artifact");
    artifacts.items = { type: "object", required: ["path"], properties: { type: { type: "string" }, path, summary: { type: "string" } } };
    // Finished work names what it produced (the artifacts rule's phantom work).
    if (successes.length > 0) schema.when(successes, { properties: { artifacts: { type: "array", minItems: 1 } } });
    if (schema.annotated && successes.length > 0) schema.root[SUCCESS_KEYWORD] = { pointer: "/status", values: successes };
  }

  const delegation = byId.get("delegation");
  if (delegation !== undefined) {
    const depth = schema.at("metadata.delegation_depth");
    depth.type ??= "integer";
    depth.maximum = delegation.maxDepth;
    // An agent twice in the path is a cycle.
    const trail = schema.at("metadata.delegation_path");
    trail.type ??= "array";
    trail.uniqueItems = true;
  }

  if (byId.has("completion-data") && (allowed === undefined || allowed.includes("implemented"))) {
    schema.when(["implemented"], { required: ["completion_data"], properties: { completion_data: { type: "object", required: ["completion_summary"] } } });
  }
  return schema.root;
}

/**
 * A contract as a host is given it: without returnlint's annotations, and without `$schema`. Hosts
 * validate with a draft of their own, and one that does not know 2020-12 refuses a schema that
 * names it (Claude Code's: "no schema with key or ref"); what a contract says in the keywords the
 * drafts share means the same to every one.
 */
function forHost(schema: JsonSchema): JsonSchema {
  const bare = withoutAnnotations(schema) as JsonSchema;
  delete bare.$schema;
  return bare;
}

/** The statuses status-enum allows a command, as the rule works them out from its options. */
function statusesFor(options: Record<string, unknown>, command: string | null): string[] {
  if (Array.isArray(options.statuses)) return [...(options.statuses as string[])];
  const contextual = command === null ? undefined : COMMAND_SUCCESS[command];
  const success = options.variant === "legacy" ? [LEGACY_STATUSES[0]] : contextual === undefined ? [...CONTEXTUAL_SUCCESS] : [contextual];
  return [...success, ...NON_SUCCESS_STATUSES, ...(options.allowInProgress === true ? [IN_PROGRESS] : [])];
}

/** A schema made place by place: `at("metadata.session_id")` is the subschema of that field, made on first use. */
class SchemaBuilder {
  // No `$schema`: only keywords that mean the same in draft-07 and 2020-12, so that a host's validator of either accepts it.
  readonly root: JsonSchema = { type: "object" };

  constructor(readonly annotated: boolean) {}

  /** The subschema of a field (dotted path or pointer), its parents made objects. */
  at(field: string): JsonSchema {
    let node = this.root;
    for (const token of tokensOf(pointerFromPath(field))) {
      node.type ??= "object";
      const properties = (node.properties ??= {}) as Record<string, JsonSchema>;
      node = properties[token] ??= {};
    }
    return node;
  }

  /** The field is present, not null, and of `type` when one is known. */
  require(field: string, type: string | undefined): void {
    const tokens = tokensOf(pointerFromPath(field));
    const name = tokens.at(-1);
    if (name === undefined) return;
    const parent = tokens.length === 1 ? this.root : this.at(`/${tokens.slice(0, -1).join("/")}`);
    const required = (parent.required ??= []) as string[];
    if (!required.includes(name)) required.push(name);
    const place = this.at(field);
    if (type !== undefined) place.type = type;
    else place.not = { type: "null" };
  }

  /** `then` holds when the status is one of `statuses`. */
  when(statuses: readonly string[], then: JsonSchema): void {
    const rules = (this.root.allOf ??= []) as JsonSchema[];
    rules.push({ if: { required: ["status"], properties: { status: { enum: statuses } } }, then });
  }

  annotate(node: JsonSchema, claim: string): void {
    if (this.annotated) node[CLAIM_KEYWORD] = claim;
  }
}
