import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { answerResponses, readResponsesRequest } from "./wire-responses.js";
import { answerGemini, geminiEndpoint, geminiRequest } from "./wire-gemini.js";

/**
 * A scripted model on 127.0.0.1 that real hosts talk to: the Anthropic Messages API
 * (Claude Code, `ANTHROPIC_BASE_URL`), OpenAI Chat Completions (OpenCode, through an
 * `@ai-sdk/openai-compatible` provider) and the Gemini API (Gemini CLI, wire-gemini.ts), streamed
 * as the hosts ask. A scenario is data:
 * the turns the model plays, each keyed on which agent is asking and what it was just told.
 * Every request is recorded, so tests assert on what the host really sent. A turn may call any
 * tool the host offers (an MCP server's `mcp__server__tool` too) and the next turn can key on
 * that tool's result, since tool results are part of the newest input.
 */

/** What the model says in one turn: text, or a call of one of the tools the host offered. */
export type Block = { readonly text: string } | { readonly tool: string; readonly input: Readonly<Record<string, unknown>> };

/** One request, as the host sent it. */
export interface SeenRequest {
  readonly api: "anthropic" | "openai" | "responses" | "gemini";
  /** "main", an agent of the scenario (found by its system prompt), or "side" (a request offering no tools: titles, summaries). */
  readonly agent: string;
  readonly system: string;
  /** The newest input: the last user turn, with tool results and hook feedback in it. */
  readonly input: string;
  /** How many messages (user and assistant, tool results included) the conversation holds. */
  readonly messages: number;
  /** The names of the tools offered. */
  readonly tools: readonly string[];
  /** The turn played, or null when none matched (the model then says so in text). */
  readonly turn: string | null;
}

export interface Turn {
  readonly name: string;
  /** "main" or an agent of the scenario. */
  readonly agent: string;
  /** Plays only when the newest input contains this (or matches it). */
  readonly when?: string | RegExp;
  /** How often it may play (default: every time it matches). */
  readonly times?: number;
  readonly reply: readonly Block[] | ((request: SeenRequest) => readonly Block[]);
  /** Holds the reply (at most 30 s) until this other turn has been played: the model "thinks" while another agent works. */
  readonly after?: string;
  /** Holds the reply this long (bounded by WAIT_MS): time for something the host starts in the background. */
  readonly holdMs?: number;
}

export interface Scenario {
  readonly name: string;
  /** Agents by a text that only their system prompt holds; other requests with tools are the main agent's. */
  readonly agents?: Readonly<Record<string, string>>;
  /** Tried in order: the first that matches and has plays left is played. */
  readonly turns: readonly Turn[];
}

export interface ModelServer {
  /** `http://127.0.0.1:PORT` */
  readonly url: string;
  /** Forgets the last scenario's requests and plays this one. */
  play(scenario: Scenario): void;
  readonly requests: readonly SeenRequest[];
  /** The requests of one agent, in the order they arrived. */
  of(agent: string): SeenRequest[];
  close(): Promise<void>;
}

const UNSCRIPTED = "(the scripted model has no turn for this request)";
const WAIT_MS = 30_000;

async function until(done: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
}
const MAX_BODY = 32 * 1024 * 1024;

export async function startModelServer(): Promise<ModelServer> {
  let scenario: Scenario = { name: "none", turns: [] };
  let played = new Map<string, number>();
  const requests: SeenRequest[] = [];
  let sequence = 0;

  const server = createServer((request, response) => {
    readBody(request)
      .then(async (body) => {
        const gemini = geminiEndpoint(request.url ?? "");
        const api = request.url?.includes("/chat/completions") === true ? "openai" : request.url?.startsWith("/v1/messages") === true ? "anthropic" : request.url?.endsWith("/responses") === true ? "responses" : gemini !== undefined ? "gemini" : null;
        if (api === null || request.method !== "POST") {
          response.writeHead(404, { "content-type": "application/json" }).end('{"error":"not found"}');
          return;
        }
        const seen = view(api, body, scenario);
        const turn = seen.agent === "side" ? undefined : scenario.turns.find((candidate) => matches(candidate, seen, played.get(candidate.name) ?? 0));
        if (turn !== undefined) played.set(turn.name, (played.get(turn.name) ?? 0) + 1);
        if (turn?.after !== undefined) await until(() => (played.get(turn.after ?? "") ?? 0) > 0, WAIT_MS);
        if (turn?.holdMs !== undefined) await new Promise((resolve) => setTimeout(resolve, Math.min(turn.holdMs ?? 0, WAIT_MS)));
        const recorded = { ...seen, turn: turn?.name ?? null };
        requests.push(recorded);
        const blocks = turn === undefined ? [{ text: seen.agent === "side" ? "Scripted session" : UNSCRIPTED }] : typeof turn.reply === "function" ? turn.reply(recorded) : turn.reply;
        sequence += 1;
        const model = typeof body.model === "string" ? body.model : "scripted";
        if (gemini !== undefined) answerGemini(response, blocks, { ...gemini, body });
        else if (api === "responses") answerResponses(response, blocks, { id: sequence, model, body });
        else (api === "anthropic" ? answerAnthropic : answerOpenAI)(response, blocks, { stream: body.stream === true, model, id: sequence });
      })
      .catch((error: unknown) => {
        response.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ error: String(error) }));
      });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${String(port)}`,
    play(next) {
      scenario = next;
      played = new Map();
      requests.length = 0;
    },
    requests,
    of: (agent) => requests.filter((request) => request.agent === agent),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}

function matches(turn: Turn, request: Omit<SeenRequest, "turn">, times: number): boolean {
  if (turn.agent !== request.agent || times >= (turn.times ?? Infinity)) return false;
  if (turn.when === undefined) return true;
  return typeof turn.when === "string" ? request.input.includes(turn.when) : turn.when.test(request.input);
}

async function readBody(request: IncomingMessage): Promise<Record<string, unknown>> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) throw new Error("request body too large");
    chunks.push(chunk);
  }
  const value = JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown;
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new Error("request body is not a JSON object");
  return value as Record<string, unknown>;
}

type Message = { role?: unknown; content?: unknown };

/** The text of a message's content, with tool results' text and hook feedback in it. */
function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((block: unknown) => {
      if (typeof block !== "object" || block === null) return "";
      const { type, text, content: inner } = block as { type?: unknown; text?: unknown; content?: unknown };
      if (type === "text" && typeof text === "string") return text;
      if (type === "tool_result") return textOf(inner);
      return "";
    })
    .filter((text) => text !== "")
    .join("\n");
}

function view(api: SeenRequest["api"], body: Record<string, unknown>, scenario: Scenario): Omit<SeenRequest, "turn"> {
  if (api === "responses") {
    const read = readResponsesRequest(body);
    return { api, agent: agentOf(read.system, read.tools, scenario), ...read };
  }
  const all = (Array.isArray(body.messages) ? body.messages : []) as Message[];
  let system: string;
  let conversation: Message[];
  let tools: string[];
  if (api === "gemini") {
    const request = geminiRequest(body);
    return { api, agent: agentOf(request.system, request.tools, scenario), ...request };
  }
  if (api === "anthropic") {
    system = textOf(body.system);
    // Claude Code also sends `system` role entries among the messages (reminders): not the conversation.
    conversation = all.filter((message) => message.role !== "system");
    tools = (Array.isArray(body.tools) ? body.tools : []).map((tool: unknown) => String((tool as { name?: unknown }).name));
  } else {
    system = all.filter((message) => message.role === "system").map((message) => textOf(message.content)).join("\n");
    conversation = all.filter((message) => message.role !== "system");
    tools = (Array.isArray(body.tools) ? body.tools : []).map((tool: unknown) => String((tool as { function?: { name?: unknown } }).function?.name));
  }
  let start = conversation.length;
  while (start > 0 && conversation[start - 1]?.role !== "assistant") start -= 1;
  const input = conversation
    .slice(start)
    .map((message) => textOf(message.content))
    .join("\n");
  return { api, agent: agentOf(system, tools, scenario), system, input, messages: conversation.length, tools };
}

/** "side" for a request offering no tools, the scenario's agent whose marker the system prompt holds, else "main". */
function agentOf(system: string, tools: readonly string[], scenario: Scenario): string {
  return tools.length === 0 ? "side" : (Object.entries(scenario.agents ?? {}).find(([, marker]) => system.includes(marker))?.[0] ?? "main");
}

interface Answer {
  readonly stream: boolean;
  readonly model: string;
  readonly id: number;
}

function toolCalls(blocks: readonly Block[], id: number): { id: string; name: string; input: Readonly<Record<string, unknown>> }[] {
  return blocks.flatMap((block, index) => ("tool" in block ? [{ id: `toolu_${String(id)}_${String(index)}`, name: block.tool, input: block.input }] : []));
}

function texts(blocks: readonly Block[]): string[] {
  return blocks.flatMap((block) => ("text" in block ? [block.text] : []));
}

function answerAnthropic(response: ServerResponse, blocks: readonly Block[], answer: Answer): void {
  const calls = toolCalls(blocks, answer.id);
  type Content = { type: "text"; text: string } | { type: "tool_use"; id: string; name: string; input: Readonly<Record<string, unknown>> };
  const content: Content[] = [...texts(blocks).map((text) => ({ type: "text" as const, text })), ...calls.map((call) => ({ type: "tool_use" as const, ...call }))];
  const stopReason = calls.length > 0 ? "tool_use" : "end_turn";
  const usage = { input_tokens: 10, output_tokens: 5 };
  const message = { id: `msg_${String(answer.id)}`, type: "message", role: "assistant", model: answer.model };
  if (!answer.stream) {
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ ...message, content, stop_reason: stopReason, stop_sequence: null, usage }));
    return;
  }
  response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const send = (type: string, data: Record<string, unknown>) => response.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  send("message_start", { message: { ...message, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 } } });
  content.forEach((block, index) => {
    if (block.type === "text") {
      send("content_block_start", { index, content_block: { type: "text", text: "" } });
      send("content_block_delta", { index, delta: { type: "text_delta", text: block.text } });
    } else {
      const { input, ...start } = block;
      send("content_block_start", { index, content_block: { ...start, input: {} } });
      send("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: JSON.stringify(input) } });
    }
    send("content_block_stop", { index });
  });
  send("message_delta", { delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 5 } });
  send("message_stop", {});
  response.end();
}

function answerOpenAI(response: ServerResponse, blocks: readonly Block[], answer: Answer): void {
  const calls = toolCalls(blocks, answer.id).map((call) => ({ id: call.id, type: "function", function: { name: call.name, arguments: JSON.stringify(call.input) } }));
  const text = texts(blocks).join("\n");
  const finish = calls.length > 0 ? "tool_calls" : "stop";
  const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
  const base = { id: `chatcmpl-${String(answer.id)}`, created: Math.floor(Date.now() / 1000), model: answer.model };
  if (!answer.stream) {
    const message = { role: "assistant", content: text === "" ? null : text, ...(calls.length > 0 ? { tool_calls: calls } : {}) };
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ ...base, object: "chat.completion", choices: [{ index: 0, message, finish_reason: finish }], usage }));
    return;
  }
  response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const chunk = (delta: Record<string, unknown>, finishReason: string | null, extra: Record<string, unknown> = {}) =>
    response.write(`data: ${JSON.stringify({ ...base, object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: finishReason }], ...extra })}\n\n`);
  chunk({ role: "assistant", content: "" }, null);
  if (text !== "") chunk({ content: text }, null);
  calls.forEach((call, index) => chunk({ tool_calls: [{ index, ...call }] }, null));
  chunk({}, finish, { usage });
  response.write("data: [DONE]\n\n");
  response.end();
}
