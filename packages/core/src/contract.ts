/**
 * A return contract: a project's own JSON Schema (draft 2020-12) for what its subagent returns,
 * whose annotations say where the return's claims are. The schema's violations are the
 * `contract` rule's findings; the claims feed the rules that look at the world.
 *
 * - `"x-returnlint": "artifact"` on a string (or on the `items` of an array of strings): a path
 *   the return claims to have produced;
 * - `"x-returnlint": "session-id"`: the session the return answers;
 * - `"x-returnlint": "command"` and `"test"`: a command it ran, a test that passed (known names,
 *   for rules that check them against a transcript);
 * - `"x-returnlint-success": { "pointer": "/status", "values": ["done"] }`, at the root: when the
 *   claims count (without it, always).
 */
import type { ErrorObject } from "ajv";
import { isObject, valueAt } from "./pointer.js";
import { closest } from "./suggest.js";
import { jsonType, preview } from "./json/render.js";
import type { ClaimMap, SuccessClaim } from "./claims.js";
import type { JsonSchema } from "./types.js";

/** The annotation that marks a claim, and the one that says when claims count. */
export const CLAIM_KEYWORD = "x-returnlint";
export const SUCCESS_KEYWORD = "x-returnlint-success";

/** The kinds of claim a contract may mark. */
export const CLAIM_KINDS = ["artifact", "session-id", "command", "test"] as const;
export type ClaimKind = (typeof CLAIM_KINDS)[number];

/** One way a return breaks its contract: where, what the contract wants there, what it holds. */
export interface ContractViolation {
  /** JSON Pointer of the value at fault ("" for the whole return). */
  readonly pointer: string;
  /** The schema keyword that failed (`enum`, `required`, `type`, …). */
  readonly keyword: string;
  /** What the contract wants, as the end of a sentence about the value: "must be one of done, failed". */
  readonly problem: string;
  /** What the contract allows there, in short: "done, failed", "string", "at least 1 item". */
  readonly expected: string;
  /** What the return holds there, in short: "finished", "nothing", "3 items". */
  readonly received: string;
}

/** A contract as its config names it, with where its claims are and its schema compiled. */
export interface Contract {
  /** The file, as the config names it (`./contracts/review-return.schema.json`). */
  readonly file: string;
  /** The schema as written, annotations included. */
  readonly schema: JsonSchema;
  readonly claims: ClaimMap;
  /** Every way `value` breaks the schema, in the order the schema is checked. */
  check(value: unknown): readonly ContractViolation[];
}

/** What rules see of the contract a return is checked under: plain data, so that it crosses threads. */
export interface ContractView {
  readonly file: string;
  readonly schema: JsonSchema;
  readonly claims: ClaimMap;
  readonly violations: readonly ContractViolation[];
}

/** Where a schema's claims are, or every problem with its annotations (each with the schema path). */
export function claimMapOf(schema: JsonSchema): { map: ClaimMap; problems: string[] } {
  const problems: string[] = [];
  annotationProblems(schema, "#", problems);
  const found: Record<ClaimKind, string[]> = { artifact: [], "session-id": [], command: [], test: [] };
  locate(schema, schema, [], "#", [], found, problems);
  let success: SuccessClaim | undefined;
  if (Object.hasOwn(schema, SUCCESS_KEYWORD)) {
    const given = schema[SUCCESS_KEYWORD];
    const values: unknown = isObject(given) ? given.values : undefined;
    const pointer: unknown = isObject(given) ? given.pointer : undefined;
    if (typeof pointer !== "string" || (pointer !== "" && !pointer.startsWith("/")) || !Array.isArray(values) || values.length === 0 || !values.every((value) => typeof value === "string")) {
      problems.push(`#/${SUCCESS_KEYWORD}: must be {"pointer": a JSON Pointer such as "/status", "values": [the statuses that claim finished work]}; received ${preview(given)}`);
    } else {
      success = { pointer, values: values };
    }
  }
  const sessionIds = found["session-id"];
  if (sessionIds.length > 1) problems.push(`#: "${CLAIM_KEYWORD}": "session-id" marks ${String(sessionIds.length)} places (${sessionIds.join(", ")}); a return answers one session`);
  const sessionId = sessionIds[0];
  if (sessionId?.includes("*") === true) problems.push(`#: "${CLAIM_KEYWORD}": "session-id" must mark one place, not the items of a list (${sessionId})`);
  const map: ClaimMap = {
    artifacts: found.artifact,
    ...(sessionId === undefined ? {} : { sessionId }),
    ...(success === undefined ? {} : { success }),
    commands: found.command,
    tests: found.test,
  };
  return { map, problems };
}

/** Every `x-returnlint` anywhere in the schema that names no claim kind, or `x-returnlint-success` below the root. */
function annotationProblems(node: unknown, at: string, problems: string[]): void {
  if (Array.isArray(node)) {
    node.forEach((child, index) => { annotationProblems(child, `${at}/${String(index)}`, problems); });
    return;
  }
  if (!isObject(node)) return;
  for (const [key, child] of Object.entries(node)) {
    const where = `${at}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`;
    if (key === CLAIM_KEYWORD && !(typeof child === "string" && (CLAIM_KINDS as readonly string[]).includes(child))) {
      const guess = typeof child === "string" ? closest(child, CLAIM_KINDS) : undefined;
      problems.push(`${where}: unknown claim ${preview(child)}; the claims are ${CLAIM_KINDS.join(", ")}${guess === undefined ? "" : ` (did you mean "${guess}"?)`}`);
    } else if (key === SUCCESS_KEYWORD && at !== "#") {
      problems.push(`${where}: "${SUCCESS_KEYWORD}" belongs at the root of the contract, where it says when the return's claims count`);
    } else if (key === "enum" || key === "const" || key === "default" || key === "examples") {
      // Values, not schemas: a return's data may hold these words.
    } else {
      annotationProblems(child, where, problems);
    }
  }
}

/** The schema keywords whose subschemas describe the same place of the return. */
const IN_PLACE = ["allOf", "anyOf", "oneOf"] as const;
const IN_PLACE_SINGLE = ["if", "then", "else"] as const;

/**
 * Walks the schema as the return is shaped, recording where each claim is as a pointer with `*`
 * for any item of a list (or any key of a map). Local `$ref`s are followed, once per path.
 */
function locate(root: JsonSchema, node: unknown, tokens: readonly string[], at: string, refs: readonly string[], found: Record<ClaimKind, string[]>, problems: string[]): void {
  if (!isObject(node)) return;
  const kind = node[CLAIM_KEYWORD];
  if (typeof kind === "string" && (CLAIM_KINDS as readonly string[]).includes(kind)) {
    const template = tokens.length === 0 ? "" : `/${tokens.join("/")}`;
    const type = node.type;
    if (kind === "artifact" && type !== undefined && type !== "string" && !(Array.isArray(type) && type.includes("string"))) {
      problems.push(`${at}/${CLAIM_KEYWORD}: an artifact claim marks a string (a path), or the items of an array of strings; this schema's type is ${preview(type)}`);
    } else if (!found[kind as ClaimKind].includes(template)) {
      found[kind as ClaimKind].push(template);
    }
  }
  const ref = node.$ref;
  if (typeof ref === "string" && ref.startsWith("#") && !refs.includes(ref)) {
    locate(root, valueAt(root, decodeURIComponent(ref.slice(1))), tokens, ref, [...refs, ref], found, problems);
  }
  const escaped = (key: string): string => key.replace(/~/g, "~0").replace(/\//g, "~1");
  if (isObject(node.properties)) {
    for (const [key, child] of Object.entries(node.properties)) locate(root, child, [...tokens, escaped(key)], `${at}/properties/${escaped(key)}`, refs, found, problems);
  }
  if (isObject(node.patternProperties)) {
    for (const [key, child] of Object.entries(node.patternProperties)) locate(root, child, [...tokens, "*"], `${at}/patternProperties/${escaped(key)}`, refs, found, problems);
  }
  if (isObject(node.additionalProperties)) locate(root, node.additionalProperties, [...tokens, "*"], `${at}/additionalProperties`, refs, found, problems);
  if (Array.isArray(node.prefixItems)) {
    node.prefixItems.forEach((child, index) => { locate(root, child, [...tokens, String(index)], `${at}/prefixItems/${String(index)}`, refs, found, problems); });
  }
  if (isObject(node.items)) locate(root, node.items, [...tokens, "*"], `${at}/items`, refs, found, problems);
  for (const keyword of IN_PLACE) {
    const branches = node[keyword];
    if (Array.isArray(branches)) branches.forEach((child, index) => { locate(root, child, tokens, `${at}/${keyword}/${String(index)}`, refs, found, problems); });
  }
  for (const keyword of IN_PLACE_SINGLE) locate(root, node[keyword], tokens, `${at}/${keyword}`, refs, found, problems);
}

/** The schema without returnlint's annotations: what a host's structured output is given. */
export function withoutAnnotations(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map((child) => withoutAnnotations(child));
  if (!isObject(schema)) return schema;
  const bare: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(schema)) {
    if (key === CLAIM_KEYWORD || key === SUCCESS_KEYWORD) continue;
    bare[key] = key === "enum" || key === "const" || key === "default" || key === "examples" ? child : withoutAnnotations(child);
  }
  return bare;
}

/** A value as a violation shows it: a plain word bare (`finished`), anything else as JSON. */
export function shownValue(value: unknown): string {
  if (typeof value === "string" && /^[\w./@:+-]+$/.test(value)) return value;
  return preview(value, 80);
}

const plural = (count: number, one: string, many: string): string => `${String(count)} ${count === 1 ? one : many}`;

function received(value: unknown): string {
  if (value === undefined) return "nothing";
  if (Array.isArray(value)) return plural(value.length, "item", "items");
  return shownValue(value);
}

const TYPE_WORDS: Readonly<Record<string, string>> = {
  string: "a string",
  number: "a number",
  integer: "an integer",
  boolean: "a boolean",
  object: "an object",
  array: "an array",
  null: "null",
};

/** One ajv error as a violation; undefined for the errors that only repeat others (`if`). */
export function violationOf(error: ErrorObject, value: unknown): ContractViolation | undefined {
  const params = error.params as Record<string, unknown>;
  const at = error.instancePath;
  const given = valueAt(value, at);
  const violation = (pointer: string, problem: string, expected: string, got: string): ContractViolation => ({ pointer, keyword: error.keyword, problem, expected, received: got });
  switch (error.keyword) {
    case "if":
      return undefined;
    case "required":
    case "dependentRequired": {
      const missing = String(params.missingProperty);
      const pointer = `${at}/${missing.replace(/~/g, "~0").replace(/\//g, "~1")}`;
      const when = error.keyword === "dependentRequired" ? ` when ${at}/${String(params.property)} is given` : "";
      return violation(pointer, `is required${when}`, "a value", "nothing");
    }
    case "additionalProperties":
    case "unevaluatedProperties": {
      const key = String(params.additionalProperty ?? params.unevaluatedProperty);
      const pointer = `${at}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`;
      return violation(pointer, "is not a field the contract allows here", "no such field", received(valueAt(value, pointer)));
    }
    case "enum": {
      const allowed = (params.allowedValues as unknown[]).map((one) => shownValue(one)).join(", ");
      return violation(at, `must be one of ${allowed}`, allowed, received(given));
    }
    case "const":
      return violation(at, `must be ${shownValue(params.allowedValue)}`, shownValue(params.allowedValue), received(given));
    case "type": {
      const types = String(params.type).split(",").map((type) => TYPE_WORDS[type] ?? type);
      const words = types.join(" or ");
      return violation(at, `must be ${words}`, words, given === undefined ? "nothing" : `${jsonType(given)} ${preview(given, 40)}`);
    }
    case "minItems":
      return violation(at, `must have at least ${plural(Number(params.limit), "item", "items")}`, `at least ${plural(Number(params.limit), "item", "items")}`, received(given));
    case "maxItems":
      return violation(at, `must have at most ${plural(Number(params.limit), "item", "items")}`, `at most ${plural(Number(params.limit), "item", "items")}`, received(given));
    case "minLength":
      return violation(at, `must be at least ${plural(Number(params.limit), "character", "characters")} long`, `at least ${plural(Number(params.limit), "character", "characters")}`, received(given));
    case "maxLength":
      return violation(at, `must be at most ${plural(Number(params.limit), "character", "characters")} long`, `at most ${plural(Number(params.limit), "character", "characters")}`, plural(typeof given === "string" ? given.length : 0, "character", "characters"));
    case "minimum":
    case "maximum":
    case "exclusiveMinimum":
    case "exclusiveMaximum": {
      const bound = `${String(params.comparison)} ${String(params.limit)}`;
      return violation(at, `must be ${bound}`, bound, received(given));
    }
    case "pattern":
      return violation(at, `must match the pattern ${String(params.pattern)}`, `a match of ${String(params.pattern)}`, received(given));
    case "minProperties":
    case "maxProperties": {
      const bound = `${error.keyword === "minProperties" ? "at least" : "at most"} ${plural(Number(params.limit), "field", "fields")}`;
      return violation(at, `must have ${bound}`, bound, isObject(given) ? plural(Object.keys(given).length, "field", "fields") : received(given));
    }
    case "uniqueItems":
      return violation(at, `must not repeat an item (items ${String(params.j)} and ${String(params.i)} are the same)`, "different items", received(given));
    case "false schema":
      return violation(at, "is not allowed here", "nothing", received(given));
    default:
      return violation(at, error.message ?? "is invalid", error.keyword, received(given));
  }
}

/** Where a violation is, for a sentence: the pointer, or "the return" for the whole of it. */
export function placeOf(pointer: string): string {
  return pointer === "" ? "the return" : pointer;
}
