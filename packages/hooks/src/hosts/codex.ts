import type { HostAdapter, PayloadOutcome } from "../host.js";
import { claude, parsePayload } from "./claude.js";

/**
 * Reads a Codex `SubagentStop` (or `Stop`) hook's input. Codex 0.169.0 sends Claude Code's fields
 * under Claude Code's names (`session_id`, `cwd`, `hook_event_name`, `stop_hook_active`,
 * `agent_id`, `agent_type`, `agent_transcript_path`, `last_assistant_message`, null when it has
 * none) plus `turn_id`, `model` and `permission_mode`, which the hook does not need.
 *
 * The transcript is left out: `agent_transcript_path` names a Codex rollout (JSONL of
 * `response_item` and `event_msg` entries), not Claude Code's transcript, and a Codex subagent
 * writes files through a shell or `apply_patch`, which no reader of tool calls can prove. Read as
 * Claude Code's, it would show no write of any file: evidence of nothing, reported as evidence of
 * phantom work. Without it, artifact-evidence weighs freshness and git alone.
 */
export function parseCodexPayload(text: string): PayloadOutcome {
  const outcome = parsePayload(text);
  if (!outcome.ok || "ignore" in outcome) return outcome;
  const payload = { ...outcome.payload };
  delete payload.transcriptPath;
  return { ok: true, payload };
}

/**
 * Codex: a `SubagentStop` command hook in `.codex/hooks.json`. `{"decision":"block","reason"}`
 * sends the subagent back: Codex gives it the reason as its next input, inside
 * `<hook_prompt hook_run_id="subagent-stop:…">`. Nothing on standard output lets it stop;
 * `{"systemMessage"}` is Codex's warning to the user: Claude Code's answers, all of them. Project
 * agents are defined in `.codex/agents/NAME.toml`.
 */
export const codex: HostAdapter = {
  ...claude,
  name: "codex",
  title: "Codex",
  parse: parseCodexPayload,
  definitionFile: (agent) => `.codex/agents/${agent}.toml`,
};
