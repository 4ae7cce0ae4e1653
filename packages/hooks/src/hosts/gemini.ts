import { isObject, jsonType } from "@returnlint/core";
import type { HostAdapter, PayloadOutcome } from "../host.js";
import { PayloadFields } from "./payload-fields.js";
import { decisionBlock } from "./claude.js";

/** The tool a Gemini CLI agent delegates to a subagent with (`{agent_name, prompt}`): its AfterTool hook sees the return. */
export const GEMINI_AGENT_TOOL = "invoke_agent";

/** What Gemini CLI puts before a subagent's result in the text its parent reads (`LocalSubagentInvocation`). */
const RESULT_HEADER = /^Subagent '[^'\n]*' finished\.\nTermination Reason: [^\n]*\nResult:\n/;

/**
 * Reads a Gemini CLI `AfterTool` hook's input. Gemini CLI has no subagent-stop event: the hook
 * runs after the parent's `invoke_agent` call, with `session_id`, `cwd`, `hook_event_name`,
 * `tool_name`, `tool_input` (`agent_name`, `prompt`) and `tool_response`, whose `returnDisplay`
 * holds the subagent's `result` as it passed it to `complete_task` (`llmContent[0].text` holds the
 * same after a header). Other tools, and a subagent that failed or was cancelled (no return: the
 * parent reads Gemini's own error), are none of the hook's business.
 *
 * Gemini names no run of a subagent: each `invoke_agent` call starts a fresh one. So "the same
 * subagent", whose blocks are counted, is the agent's name in the session, until a return of it
 * passes or the hook gives up (the ledger's run): a parent that re-invokes it after a block is
 * counted towards --max-blocks.
 */
export function parseGeminiPayload(text: string): PayloadOutcome {
  const fields = PayloadFields.read(text);
  if (!(fields instanceof PayloadFields)) return { ok: false, reason: fields.reason };
  const sessionId = fields.string("session_id", true);
  const cwd = fields.string("cwd", true);
  const event = fields.string("hook_event_name", true);
  const tool = fields.string("tool_name", true);
  if (event !== undefined && event !== "AfterTool") fields.problems.push(`"hook_event_name" is "${event}": returnlint hook gemini handles AfterTool hooks of ${GEMINI_AGENT_TOOL} only`);
  if (fields.reason !== undefined || sessionId === undefined || cwd === undefined || event === undefined || tool === undefined) return { ok: false, reason: fields.reason ?? "" };
  if (tool !== GEMINI_AGENT_TOOL) return { ok: true, ignore: `a call of ${tool}, not of ${GEMINI_AGENT_TOOL}` };

  const input = fields.value.tool_input;
  const agent = isObject(input) && typeof input.agent_name === "string" && input.agent_name !== "" ? input.agent_name : undefined;
  if (!isObject(input)) fields.problems.push(`"tool_input" must be an object; received ${jsonType(input)}`);
  else if (agent === undefined) fields.problems.push(input.agent_name === undefined ? `"tool_input.agent_name" is missing` : `"tool_input.agent_name" must be a non-empty string; received ${jsonType(input.agent_name)}`);
  const response = fields.value.tool_response;
  if (!isObject(response)) fields.problems.push(`"tool_response" must be an object; received ${jsonType(response)}`);
  // Each of these said its problem above; the earlier fields had none.
  if (agent === undefined || !isObject(response)) return { ok: false, reason: fields.problems.join("; ") };

  const returned = returnOf(response);
  if (returned === null) return { ok: true, ignore: `${agent} returned nothing: its run failed or was cancelled` };
  return {
    ok: true,
    payload: {
      event,
      main: false,
      sessionId,
      cwd,
      stopHookActive: false,
      agentType: agent,
      ...(returned === undefined ? {} : { lastAssistantMessage: returned }),
    },
  };
}

/**
 * The subagent's result: `returnDisplay.result` of a completed run, else the text the parent
 * reads without Gemini's header; null when the run returned nothing (an error, a cancelled or
 * failed run); undefined when this Gemini CLI version says it in a shape not known here.
 */
function returnOf(response: Readonly<Record<string, unknown>>): string | null | undefined {
  if (response.error !== undefined && response.error !== null) return null;
  const display = response.returnDisplay;
  if (isObject(display) && typeof display.state === "string") {
    if (display.state !== "completed") return null;
    if (typeof display.result === "string") return display.result;
  }
  const content = response.llmContent;
  const text = typeof content === "string" ? content : Array.isArray(content) ? content.map((part: unknown) => (isObject(part) && typeof part.text === "string" ? part.text : "")).join("") : undefined;
  if (text === undefined) return undefined;
  if (/^Subagent '[^'\n]*' failed\./.test(text)) return null;
  return RESULT_HEADER.test(text) ? text.replace(RESULT_HEADER, "") : undefined;
}

/**
 * Gemini CLI: an `AfterTool` command hook with the matcher `invoke_agent`. Its answer
 * `{"decision":"block","reason"}` (or "deny") replaces what the parent receives with the reason:
 * the parent's `invoke_agent` call fails with it, and the subagent, already finished, does not go
 * on. `{"systemMessage"}` is shown to the user. An exit 2's standard error is the reason too.
 */
export const gemini: HostAdapter = {
  name: "gemini",
  title: "Gemini CLI",
  parse: parseGeminiPayload,
  block: decisionBlock,
  passOutput: "",
  notice: (sentence) => `${JSON.stringify({ systemMessage: sentence })}\n`,
  reader: "parent",
  definitionFiles: [".gemini/agents/{name}.md"],
};
