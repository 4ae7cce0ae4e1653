import type { HostAdapter, PayloadOutcome } from "../host.js";
import { claude, parsePayload } from "./claude.js";

/**
 * Reads a Codex `SubagentStop` (or `Stop`) hook's input. Codex 0.169.0 sends Claude Code's fields
 * under Claude Code's names (`session_id`, `cwd`, `hook_event_name`, `stop_hook_active`,
 * `agent_id`, `agent_type`, `agent_transcript_path`, `last_assistant_message`, null when it has
 * none) plus `turn_id`, `model` and `permission_mode`, which the hook does not need.
 *
 * `agent_transcript_path` names the subagent's Codex rollout (JSONL of `response_item` and
 * `event_msg` entries): the claims rules read its commands, test runs and subagent calls. A Codex
 * subagent writes files through a shell or `apply_patch`, so artifact-evidence, which reads
 * Claude Code's write tools, takes no evidence from it and says so (core's transcript.ts).
 */
export function parseCodexPayload(text: string): PayloadOutcome {
  return parsePayload(text);
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
  definitionFiles: [".codex/agents/{name}.toml"],
};
