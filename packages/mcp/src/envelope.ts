import { ClientNotificationSchema, ClientRequestSchema, ErrorCode, type JSONRPCMessage, type RequestId } from "@modelcontextprotocol/sdk/types.js";
import { MAX_ID_LENGTH } from "./request-id.js";

/** Why a message gets a JSON-RPC error instead of reaching the server, in one sentence. */
export interface Refusal {
  readonly code: ErrorCode;
  readonly message: string;
}

/** A message checked: handed on to the server, or refused under the id it gave (null when it gave none that can be echoed). */
export type Screened = { readonly accepted: JSONRPCMessage } | { readonly refused: Refusal; readonly id: RequestId | null; readonly answer: boolean };

/** What the server checks of a request before the SDK sees it (the tools' own arguments): `screen` in transport options. */
export type ScreenRequest = (method: string, params: Readonly<Record<string, unknown>> | undefined) => Refusal | undefined;

type Schema = { safeParse(value: unknown): { success: true } | { success: false; error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } } };

function byMethod(union: { options: readonly { shape: { method: { value: unknown } } }[] }): ReadonlyMap<string, Schema> {
  return new Map(union.options.map((schema) => [String(schema.shape.method.value), schema as unknown as Schema]));
}

/** The requests and notifications an MCP client may send, each with the SDK's schema of its params. */
const REQUESTS = byMethod(ClientRequestSchema);
const NOTIFICATIONS = byMethod(ClientNotificationSchema);

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const has = (value: object, key: string) => Object.hasOwn(value, key);

/** An id that can be echoed in an answer: a string of printable ASCII, or a safe integer (what the SDK sends). */
function echoableId(id: unknown): id is RequestId {
  return (typeof id === "string" && id.length <= MAX_ID_LENGTH && /^[\x20-\x7e]*$/.test(id)) || (typeof id === "number" && Number.isSafeInteger(id));
}

const invalid = (message: string): Refusal => ({ code: ErrorCode.InvalidRequest, message });

/**
 * Checks one parsed line against JSON-RPC 2.0 and the MCP client's messages, in this order: an
 * object (a batch is not MCP's since 2025-06-18), version 2.0, an id that is a string or an
 * integer, a method that is a string, params that are an object; then the params of a method the
 * SDK knows, and the server's own checks (`screen`). A response (no method) passes to the SDK.
 * Notifications are never answered; everything refused is said on standard error by the caller.
 */
export function screenMessage(message: unknown, screen: ScreenRequest): Screened {
  if (Array.isArray(message)) return { refused: invalid("A batch (a JSON array) is not accepted; send one JSON-RPC request object per line."), id: null, answer: true };
  if (!isObject(message)) return { refused: invalid("The message is not a JSON-RPC request object."), id: null, answer: true };
  const hasId = has(message, "id");
  const id = hasId && echoableId(message.id) ? message.id : null;
  const answer = hasId || !has(message, "method");
  const refuse = (refusal: Refusal): Screened => ({ refused: refusal, id, answer });
  if (message.jsonrpc !== "2.0") return refuse(invalid('The message has no "jsonrpc": "2.0".'));
  if (hasId && id === null) return refuse(invalid('The request\'s "id" must be a string (at most 200 printable characters) or an integer.'));
  if (!has(message, "method")) {
    if (hasId && has(message, "result") !== has(message, "error")) return { accepted: message as JSONRPCMessage };
    return refuse(invalid('The request has no "method".'));
  }
  if (typeof message.method !== "string") return refuse(invalid('The request\'s "method" must be a string.'));
  const params = message.params;
  if (has(message, "params") && !isObject(params)) return refuse(invalid(`The "params" of ${message.method} must be an object.`));
  const problem = screen(message.method, params as Record<string, unknown> | undefined) ?? paramsProblem(message.method, message, hasId);
  return problem === undefined ? { accepted: message as JSONRPCMessage } : refuse(problem);
}

/** The params of a method the SDK knows, checked with its own schema, so that a bad one is -32602 and not the SDK's -32603. */
function paramsProblem(method: string, message: Record<string, unknown>, request: boolean): Refusal | undefined {
  const schema = (request ? REQUESTS : NOTIFICATIONS).get(method);
  if (schema === undefined) return undefined;
  const parsed = schema.safeParse(message);
  if (parsed.success) return undefined;
  const issue = parsed.error.issues[0];
  const where = issue === undefined ? "" : issue.path.map(String).join(".");
  return { code: ErrorCode.InvalidParams, message: `Invalid params for ${method}${where === "" ? "" : ` at ${clip(where)}`}: ${clip(issue?.message ?? "not what the method takes")}.` };
}

/** A piece of a sentence no longer than `max` characters. */
export function clip(text: string, max = 200): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}
