import type { ServerResponse } from "node:http";
import type { Block } from "./model-server.js";

/**
 * The Gemini API as Gemini CLI speaks it to `GOOGLE_GEMINI_BASE_URL`:
 * `POST /v1beta/models/MODEL:streamGenerateContent?alt=sse` for the agents' turns (server-sent
 * events, one `GenerateContentResponse` each), and `:generateContent` for its side calls, such as
 * the router that picks a model and asks for JSON of a schema (`generationConfig.responseJsonSchema`).
 * Roles are `user` and `model`; a tool call is a `functionCall` part, its result a `functionResponse`.
 */

const ENDPOINT = /^\/v1beta\/models\/([^/:?]+):(streamGenerateContent|generateContent)\b/;

/** The model and whether it streams, for a Gemini API request; undefined for any other URL. */
export function geminiEndpoint(url: string): { readonly model: string; readonly stream: boolean } | undefined {
  const match = ENDPOINT.exec(url);
  return match?.[1] === undefined ? undefined : { model: decodeURIComponent(match[1]), stream: match[2] === "streamGenerateContent" };
}

interface Part {
  text?: unknown;
  functionCall?: { name?: unknown; args?: unknown };
  functionResponse?: { name?: unknown; response?: unknown };
}
interface Content {
  role?: unknown;
  parts?: unknown;
}

/**
 * A function's result as the scripted turns key on it: `[name] key: value` for each member of its
 * response, strings as they are (a hook's reason, a subagent's result), other values as JSON.
 */
function partText(part: Part): string {
  if (typeof part.text === "string") return part.text;
  if (part.functionResponse !== undefined) {
    const response = part.functionResponse.response;
    const members = typeof response === "object" && response !== null ? Object.entries(response) : [["response", response] as const];
    return members.map(([key, value]) => `[${String(part.functionResponse?.name)}] ${key}: ${typeof value === "string" ? value : JSON.stringify(value)}`).join("\n");
  }
  return "";
}

function textOf(content: Content | undefined): string {
  return (Array.isArray(content?.parts) ? (content.parts as Part[]) : [])
    .map(partText)
    .filter((text) => text !== "")
    .join("\n");
}

/** What the model server records of a Gemini API request: the system instruction, the newest input (after the model's last turn), the tools offered. */
export function geminiRequest(body: Record<string, unknown>): { system: string; input: string; messages: number; tools: string[] } {
  const contents = (Array.isArray(body.contents) ? body.contents : []) as Content[];
  let start = contents.length;
  while (start > 0 && contents[start - 1]?.role !== "model") start -= 1;
  const declarations = (Array.isArray(body.tools) ? body.tools : []).flatMap((tool: unknown) => {
    const functions = (tool as { functionDeclarations?: unknown }).functionDeclarations;
    return Array.isArray(functions) ? (functions as unknown[]) : [];
  });
  return {
    system: textOf(body.systemInstruction as Content | undefined),
    input: contents.slice(start).map(textOf).join("\n"),
    messages: contents.length,
    tools: declarations.map((declaration: unknown) => String((declaration as { name?: unknown }).name)),
  };
}

/** A value of a JSON schema's shape (Gemini's OBJECT, STRING, INTEGER, …): what a side call that wants JSON is answered with. */
function valueOf(schema: unknown): unknown {
  const { type, properties, items, enum: choices } = (typeof schema === "object" && schema !== null ? schema : {}) as { type?: unknown; properties?: unknown; items?: unknown; enum?: unknown };
  if (Array.isArray(choices) && choices.length > 0) return choices[0];
  switch (String(type).toLowerCase()) {
    case "object":
      return Object.fromEntries(Object.entries(typeof properties === "object" && properties !== null ? properties : {}).map(([key, value]) => [key, valueOf(value)]));
    case "array":
      return [valueOf(items)];
    case "integer":
    case "number":
      return 1;
    case "boolean":
      return false;
    default:
      return "scripted";
  }
}

/**
 * Answers a Gemini API request with the turn's blocks: text parts and `functionCall` parts. A side
 * call that asks for JSON of a schema gets a value of that schema instead (the router: a
 * complexity score; a check whether the model should speak next).
 */
export function answerGemini(response: ServerResponse, blocks: readonly Block[], answer: { readonly stream: boolean; readonly model: string; readonly body: Record<string, unknown> }): void {
  const config = answer.body.generationConfig as { responseJsonSchema?: unknown; responseSchema?: unknown } | undefined;
  const schema = config?.responseJsonSchema ?? config?.responseSchema;
  const parts =
    schema === undefined
      ? blocks.map((block) => ("text" in block ? { text: block.text } : { functionCall: { name: block.tool, args: block.input } }))
      : [{ text: JSON.stringify(valueOf(schema)) }];
  const reply = {
    candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }],
    usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
    modelVersion: answer.model,
  };
  if (!answer.stream) {
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(reply));
    return;
  }
  response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  response.write(`data: ${JSON.stringify(reply)}\n\n`);
  response.end();
}
