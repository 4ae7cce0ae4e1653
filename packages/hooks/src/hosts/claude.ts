import type { HostAdapter, PayloadOutcome } from "../host.js";
import { PayloadFields } from "./payload-fields.js";

const EVENTS = new Set(["Stop", "SubagentStop"]);

/**
 * Reads a Claude Code `Stop` or `SubagentStop` hook's input (`StopHookInput` and
 * `SubagentStopHookInput` in `@anthropic-ai/claude-agent-sdk`: `session_id`, `cwd`,
 * `hook_event_name`, `stop_hook_active`, `agent_id`, `agent_type`, `agent_transcript_path`,
 * `last_assistant_message`); says what is wrong in a sentence when it is not one. Copilot CLI
 * runs a project's `.claude/settings.json` hooks with the same fields (fixtures/copilot-1.0.102/claude-*.json).
 */
export function parsePayload(text: string): PayloadOutcome {
  const fields = PayloadFields.read(text);
  if (!(fields instanceof PayloadFields)) return { ok: false, reason: fields.reason };
  const sessionId = fields.string("session_id", true);
  const cwd = fields.string("cwd", true);
  const event = fields.string("hook_event_name") ?? (fields.value.agent_type === undefined ? "Stop" : "SubagentStop");
  if (!EVENTS.has(event)) fields.problems.push(`"hook_event_name" is "${event}": returnlint handles Stop and SubagentStop hooks only`);
  const stopHookActive = fields.boolean("stop_hook_active");
  const agentId = fields.string("agent_id");
  const agentType = fields.string("agent_type");
  const lastAssistantMessage = fields.value.last_assistant_message === "" ? "" : fields.string("last_assistant_message");
  // A subagent's own transcript; for a Stop hook, the session's (a SubagentStop's transcript_path is its parent's).
  const transcriptPath = fields.string("agent_transcript_path") ?? (event === "Stop" ? fields.string("transcript_path") : undefined);
  if (fields.reason !== undefined || sessionId === undefined || cwd === undefined) return { ok: false, reason: fields.reason ?? "" };
  // Copilot CLI also runs Stop hooks inside a subagent, with its agent_id, besides SubagentStop: a block there does not send the subagent back.
  if (event === "Stop" && agentId !== undefined) return { ok: true, ignore: "a subagent's own Stop (Copilot CLI): its SubagentStop is checked" };
  return {
    ok: true,
    payload: {
      event,
      main: event === "Stop",
      sessionId,
      cwd,
      stopHookActive,
      ...(agentId === undefined ? {} : { agentId }),
      ...(agentType === undefined ? {} : { agentType }),
      ...(lastAssistantMessage === undefined ? {} : { lastAssistantMessage }),
      ...(transcriptPath === undefined ? {} : { transcriptPath }),
    },
  };
}

/** `{"decision":"block","reason"}`: the block Claude Code reads, and Codex, Copilot CLI and Gemini CLI after it. */
export function decisionBlock(reason: string): string {
  return `${JSON.stringify({ decision: "block", reason })}\n`;
}

/**
 * Claude Code: a `SubagentStop` (or `Stop`) command hook. `{"decision":"block","reason"}` sends the
 * agent back with the reason; `{"systemMessage"}` is shown to the user (an exit-0 hook's standard
 * error is seen only in verbose mode); exit 2 is a blocking error whose standard error the agent reads.
 */
export const claude: HostAdapter = {
  name: "claude",
  title: "Claude Code",
  parse: parsePayload,
  block: decisionBlock,
  passOutput: "",
  notice: (sentence) => `${JSON.stringify({ systemMessage: sentence })}\n`,
  reader: "subagent",
  definitionFiles: [".claude/agents/{name}.md"],
};
