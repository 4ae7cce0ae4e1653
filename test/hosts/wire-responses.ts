import type { ServerResponse } from "node:http";
import type { Block } from "./model-server.js";

// The OpenAI Responses API (`POST …/responses`, streamed as server-sent events), as Codex speaks it
// (`wire_api = "responses"`): what a request holds, and the answer the scripted model streams.

type Item = { type?: unknown; role?: unknown; content?: unknown; output?: unknown; name?: unknown; tools?: unknown };

/** What the model server reads of a request: its instructions, the newest input, the conversation's length and the tools offered. */
export interface ResponsesRequest {
  /** `instructions` and the developer messages, where Codex puts an agent's own instructions. */
  readonly system: string;
  /** The items since the model last spoke: user messages (a hook's `<hook_prompt>` among them) and tool outputs. */
  readonly input: string;
  readonly messages: number;
  /** The tools offered, those inside a namespace (`multi_agent_v1`'s spawn_agent, …) by their own names. */
  readonly tools: readonly string[];
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part: unknown) => (typeof part === "object" && part !== null && typeof (part as { text?: unknown }).text === "string" ? (part as { text: string }).text : ""))
    .filter((text) => text !== "")
    .join("\n");
}

/** The model's own items: what it said and called. */
const spoken = (item: Item) => (item.type === "message" && item.role === "assistant") || item.type === "function_call" || item.type === "custom_tool_call";

export function readResponsesRequest(body: Record<string, unknown>): ResponsesRequest {
  const items = (Array.isArray(body.input) ? body.input : []) as Item[];
  const developer = items.filter((item) => item.type === "message" && (item.role === "developer" || item.role === "system"));
  const conversation = items.filter((item) => !developer.includes(item));
  let start = conversation.length;
  while (start > 0 && !spoken(conversation[start - 1] ?? {})) start -= 1;
  const input = conversation
    .slice(start)
    .map((item) => (item.type === "message" ? textOf(item.content) : item.type === "function_call_output" ? (typeof item.output === "string" ? item.output : textOf(item.output)) : ""))
    .filter((text) => text !== "")
    .join("\n");
  const system = [typeof body.instructions === "string" ? body.instructions : "", ...developer.map((item) => textOf(item.content))].filter((text) => text !== "").join("\n");
  return { system, input, messages: conversation.length, tools: [...toolNamespaces(body).keys()] };
}

/** Each tool offered by its name, with the namespace a call of it must name (undefined at the top level). */
function toolNamespaces(body: Record<string, unknown>): Map<string, string | undefined> {
  const names = new Map<string, string | undefined>();
  for (const tool of (Array.isArray(body.tools) ? body.tools : []) as Item[]) {
    if (tool.type === "namespace" && typeof tool.name === "string" && Array.isArray(tool.tools)) {
      for (const inner of tool.tools as Item[]) if (typeof inner.name === "string") names.set(inner.name, tool.name);
    } else if (typeof tool.name === "string") names.set(tool.name, undefined);
  }
  return names;
}

/**
 * Streams the turn: `response.created`, each block as an output item (a message, or a
 * function_call naming its namespace), `response.completed` with the usage Codex counts.
 */
export function answerResponses(response: ServerResponse, blocks: readonly Block[], answer: { readonly id: number; readonly model: string; readonly body: Record<string, unknown> }): void {
  const namespaces = toolNamespaces(answer.body);
  const responseId = `resp_${String(answer.id)}`;
  const items = blocks.map((block, index) => {
    const id = `${String(answer.id)}_${String(index)}`;
    if ("text" in block) return { type: "message", id: `msg_${id}`, role: "assistant", status: "completed", content: [{ type: "output_text", text: block.text, annotations: [] }] };
    const namespace = namespaces.get(block.tool);
    return { type: "function_call", id: `fc_${id}`, call_id: `call_${id}`, name: block.tool, ...(namespace === undefined ? {} : { namespace }), arguments: JSON.stringify(block.input), status: "completed" };
  });
  response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const send = (type: string, data: Record<string, unknown>) => response.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  send("response.created", { response: { id: responseId, model: answer.model, status: "in_progress" } });
  items.forEach((item, index) => {
    send("response.output_item.added", { output_index: index, item });
    send("response.output_item.done", { output_index: index, item });
  });
  const usage = { input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 15 };
  send("response.completed", { response: { id: responseId, model: answer.model, status: "completed", usage } });
  response.end();
}
