import { isObject, jsonType } from "@returnlint/core";

/**
 * What returnlint reads of a Claude Code stop hook's input. The fields are those of
 * `StopHookInput` and `SubagentStopHookInput` in `@anthropic-ai/claude-agent-sdk`
 * (sdk.d.ts: `BaseHookInput & { hook_event_name, stop_hook_active, agent_id,
 * agent_transcript_path, agent_type, last_assistant_message? }`); Codex's
 * SubagentStop sends the same fields.
 */
export interface StopPayload {
  readonly event: "Stop" | "SubagentStop";
  readonly sessionId: string;
  /** The project directory the hook runs for: artifact paths, the config and `.returnlint/` are relative to it. */
  readonly cwd: string;
  readonly stopHookActive: boolean;
  readonly agentId?: string;
  readonly agentType?: string;
  /** The agent's final message; absent in Claude Code versions before it was added to the payload. */
  readonly lastAssistantMessage?: string;
  /** The subagent's own transcript (JSONL): evidence for the artifact-evidence rule. */
  readonly transcriptPath?: string;
}

export type PayloadOutcome = { readonly ok: true; readonly payload: StopPayload } | { readonly ok: false; readonly reason: string };

const EVENTS = new Set(["Stop", "SubagentStop"]);

/** Checks the payload's shape; says what is wrong in a sentence when it is not a stop hook's input. */
export function parsePayload(text: string): PayloadOutcome {
  if (text.trim() === "") return broken("standard input is empty (expected the hook's JSON payload)");
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    return broken("standard input is not JSON (expected the hook's JSON payload)");
  }
  if (!isObject(value)) return broken(`the payload must be a JSON object; received ${jsonType(value)}`);

  const problems: string[] = [];
  const stringField = (key: string, required: boolean): string | undefined => {
    const field = value[key];
    if (field === undefined || field === null) {
      if (required) problems.push(`"${key}" is missing`);
      return undefined;
    }
    if (typeof field === "string" && (field !== "" || !required)) return field;
    problems.push(`"${key}" must be a non-empty string; received ${jsonType(field)}`);
    return undefined;
  };
  const sessionId = stringField("session_id", true);
  const cwd = stringField("cwd", true);
  const event = stringField("hook_event_name", false) ?? (value.agent_type === undefined ? "Stop" : "SubagentStop");
  if (!EVENTS.has(event)) problems.push(`"hook_event_name" is "${event}": returnlint handles Stop and SubagentStop hooks only`);
  const active = value.stop_hook_active;
  if (active !== undefined && typeof active !== "boolean") problems.push(`"stop_hook_active" must be a boolean; received ${jsonType(active)}`);
  const agentId = stringField("agent_id", false);
  const agentType = stringField("agent_type", false);
  const lastAssistantMessage = stringField("last_assistant_message", false);
  // A subagent's own transcript; for a Stop hook, the session's.
  const transcriptPath = stringField("agent_transcript_path", false) ?? stringField("transcript_path", false);

  if (problems.length > 0 || sessionId === undefined || cwd === undefined) return broken(problems.join("; "));
  return {
    ok: true,
    payload: {
      event: event as StopPayload["event"],
      sessionId,
      cwd,
      stopHookActive: active === true,
      ...(agentId === undefined || agentId === "" ? {} : { agentId }),
      ...(agentType === undefined || agentType === "" ? {} : { agentType }),
      ...(lastAssistantMessage === undefined ? {} : { lastAssistantMessage }),
      ...(transcriptPath === undefined || transcriptPath === "" ? {} : { transcriptPath }),
    },
  };
}

function broken(reason: string): PayloadOutcome {
  return { ok: false, reason };
}
