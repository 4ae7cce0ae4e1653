import { jsonType } from "@returnlint/core";
import type { HostAdapter, PayloadOutcome } from "../host.js";
import { PayloadFields } from "./payload-fields.js";

/**
 * The events whose command hooks may run returnlint: a subagent's stop, and the main agent's (whose
 * payload carries no final message, so the hook can only say so).
 */
const EVENTS = new Set(["subagentStop", "stop"]);

/**
 * Reads a Cursor `subagentStop` or `stop` hook's input, as Cursor's hooks documentation
 * (cursor.com/docs/agent/hooks) describes it; Cursor publishes no schema of it, and no Cursor
 * binary can be run here, so this is the documented contract and nothing more:
 *
 * - every event: `hook_event_name`, `conversation_id`, `generation_id`, `workspace_roots` (the
 *   project's folders), `transcript_path`, `model`, `cursor_version`, `user_email`;
 * - `subagentStop`: `subagent_type`, `status` (`completed`, `error` or `aborted`), `task`,
 *   `description`, `summary` (what the subagent returns to its parent), `duration_ms`,
 *   `message_count`, `tool_call_count`, `loop_count`, `modified_files`,
 *   `agent_transcript_path`; `subagent_id` identifies the subagent (`subagentStart` has it);
 * - `stop`: `status` and `loop_count`, and no final message.
 *
 * Earlier versions of the page named the subagent's output `result`; it is read where `summary`
 * is absent. A payload with neither is a stop without its final message, which the hook says
 * rather than passes. Cursor's transcripts are not Claude Code's JSONL, so
 * `agent_transcript_path` is not handed to the rules that read one.
 */
export function parseCursorPayload(text: string): PayloadOutcome {
  const fields = PayloadFields.read(text);
  if (!(fields instanceof PayloadFields)) return { ok: false, reason: fields.reason };
  const event = fields.string("hook_event_name", true);
  if (event !== undefined && !EVENTS.has(event)) fields.problems.push(`"hook_event_name" is "${event}": returnlint handles subagentStop and stop hooks only`);
  const subagent = event === "subagentStop";
  const sessionId = fields.string("conversation_id", true);
  const cwd = firstRoot(fields);
  const status = fields.string("status");
  const agentType = subagent ? fields.string("subagent_type", true) : undefined;
  const agentId = subagent ? fields.string("subagent_id") : undefined;
  const finalText = subagent ? (finalMessage(fields, "summary") ?? finalMessage(fields, "result")) : undefined;
  if (fields.reason !== undefined || event === undefined || sessionId === undefined || cwd === undefined) return { ok: false, reason: fields.reason ?? "" };
  // An aborted or failed run returned nothing to check: the user stopped it, or Cursor says it failed.
  if (status !== undefined && status !== "completed") return { ok: true, ignore: `the ${event} of ${agentType ?? "the agent"} has status "${status}"` };
  return {
    ok: true,
    payload: {
      event,
      main: !subagent,
      sessionId,
      cwd,
      // Cursor sends no such flag: its loop_limit bounds the follow-ups on its side, the ledger on ours.
      stopHookActive: false,
      ...(agentId === undefined ? {} : { agentId }),
      ...(agentType === undefined ? {} : { agentType }),
      ...(finalText === undefined ? {} : { lastAssistantMessage: finalText }),
    },
  };
}

/** The project's folder: the first of `workspace_roots` (a multi-root workspace is checked against its first root). */
function firstRoot(fields: PayloadFields): string | undefined {
  const roots = fields.value.workspace_roots;
  if (roots === undefined || roots === null) {
    fields.problems.push(`"workspace_roots" is missing`);
    return undefined;
  }
  if (!Array.isArray(roots)) {
    fields.problems.push(`"workspace_roots" must be an array of folders; received ${jsonType(roots)}`);
    return undefined;
  }
  const first: unknown = roots[0];
  if (typeof first === "string" && first !== "") return first;
  fields.problems.push(roots.length === 0 ? `"workspace_roots" is empty (expected the project's folder)` : `"workspace_roots"[0] must be a non-empty string; received ${jsonType(first)}`);
  return undefined;
}

/** The subagent's final text: "" is a message (an empty one), absent or null is none. */
function finalMessage(fields: PayloadFields, key: string): string | undefined {
  return fields.value[key] === "" ? "" : fields.string(key);
}

/**
 * Cursor: a `subagentStop` command hook in `.cursor/hooks.json`. A stop hook continues the agent
 * only through `{"followup_message"}` on standard output, which Cursor sends as the agent's next
 * user message, at most `loop_limit` times per hook entry (5 when unset; `null` for no limit); `{}`
 * lets it stop. Cursor shows the user nothing a stop hook says: its hook log has standard error.
 * Exit 2 denies an action, and a stop has none to deny, so --fail-closed holds the agent with a
 * follow-up too.
 */
export const cursor: HostAdapter = {
  name: "cursor",
  title: "Cursor",
  parse: parseCursorPayload,
  block: (reason) => `${JSON.stringify({ followup_message: reason })}\n`,
  passOutput: "{}\n",
  notice: () => "",
  reader: "subagent",
  holdBy: "block",
  capsLoops: true,
  definitionFiles: [".cursor/agents/{name}.md"],
};
