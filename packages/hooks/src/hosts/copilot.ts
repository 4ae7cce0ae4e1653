import type { HostAdapter, PayloadOutcome, StopPayload } from "../host.js";
import { decisionBlock, parsePayload as parseClaudePayload } from "./claude.js";
import { PayloadFields } from "./payload-fields.js";

/**
 * Reads a Copilot CLI stop hook's input, in either shape Copilot CLI sends (recorded from 1.0.102 in
 * fixtures/copilot-1.0.102/):
 *
 * 1. its own, to a `subagentStop` hook (camelCase, no event name): `sessionId` (the parent's
 *    session), `cwd`, `agentId`, `agentType`, `agentName`, `agentDisplayName` (custom agents only),
 *    `response` (the subagent's final message), `stopReason`, `stop_hook_active`, `transcriptPath`,
 *    `timestamp`, `parentAgentId`. An `agentStop` payload is the same without `agentName` and
 *    `response`: Copilot CLI sends it for the main agent and again inside each subagent, where a
 *    block does not send the subagent back; the hook leaves it alone;
 * 2. Claude Code's, to a hook registered as `SubagentStop` (PascalCase) or in `.claude/settings.json`:
 *    read as Claude Code's (claude.ts); its `Stop` carries no final message, so it is left alone.
 *
 * The subagentStop's `transcriptPath` is the session's log (`events.jsonl`), the parent's and every
 * subagent's events in one file, a subagent's under its `agentId`: the claims rules read the
 * subagent's own from it (`transcriptAgentId`).
 */
export function parseCopilotPayload(text: string): PayloadOutcome {
  const fields = PayloadFields.read(text);
  if (!(fields instanceof PayloadFields)) return { ok: false, reason: fields.reason };
  if (fields.value.hook_event_name !== undefined) {
    const outcome = parseClaudePayload(text);
    if (outcome.ok && "payload" in outcome && outcome.payload.main) return { ok: true, ignore: "Copilot CLI's Stop carries no final message: subagentStop is checked" };
    return outcome;
  }
  if (fields.value.stopReason === undefined) {
    return { ok: false, reason: `the payload has no "stopReason": it is no subagentStop hook's (returnlint handles subagentStop hooks only)` };
  }
  if (fields.value.agentName === undefined) return { ok: true, ignore: "an agentStop: subagentStop is checked" };
  const sessionId = fields.string("sessionId", true);
  const cwd = fields.string("cwd", true);
  const stopHookActive = fields.boolean("stop_hook_active");
  const agentId = fields.string("agentId");
  const agentType = fields.string("agentType") ?? fields.string("agentName");
  const lastAssistantMessage = fields.value.response === "" ? "" : fields.string("response");
  const transcriptPath = fields.string("transcriptPath");
  const stoppedAt = typeof fields.value.timestamp === "number" ? fields.value.timestamp : undefined;
  if (fields.reason !== undefined || sessionId === undefined || cwd === undefined) return { ok: false, reason: fields.reason ?? "" };
  return {
    ok: true,
    payload: {
      event: "subagentStop",
      main: false,
      sessionId,
      cwd,
      stopHookActive,
      ...(agentId === undefined ? {} : { agentId }),
      ...(agentType === undefined ? {} : { agentType }),
      ...(lastAssistantMessage === undefined ? {} : { lastAssistantMessage }),
      ...(transcriptPath === undefined ? {} : { transcriptPath, ...(agentId === undefined ? {} : { transcriptAgentId: agentId }) }),
      ...(stoppedAt === undefined ? {} : { stoppedAt }),
    },
  };
}

/**
 * Whether Copilot CLI's session log has caught up with this stop: it holds the `hook.start` event
 * of this subagentStop (the hook's input, with the agent's id and the stop's timestamp). Copilot CLI
 * appends its events in order but writes them behind the hooks it runs (1.0.102): the subagent's
 * last commands and writes may reach the file after the hook started, and a log read before they
 * do would show work done as work missing. Every event before this stop's `hook.start` is in the
 * file once it is.
 */
export function copilotLogCaughtUp(payload: StopPayload, tail: string): boolean {
  if (payload.agentId === undefined || payload.stoppedAt === undefined) return true;
  const agentId = JSON.stringify(payload.agentId);
  const stamp = `"timestamp":${String(payload.stoppedAt)}`;
  return tail.split("\n").some((line) => {
    if (!line.includes('"hook.start"') || !line.includes(agentId) || !line.includes(stamp)) return false;
    try {
      const entry = JSON.parse(line) as { type?: unknown; data?: { hookType?: unknown; input?: { agentId?: unknown; timestamp?: unknown } } };
      const input = entry.data?.input;
      return entry.type === "hook.start" && entry.data?.hookType === "subagentStop" && input !== undefined && input.agentId === payload.agentId && input.timestamp === payload.stoppedAt;
    } catch {
      return false;
    }
  });
}

/**
 * GitHub Copilot CLI: a `subagentStop` command hook in `.github/hooks/*.json`.
 * `{"decision":"block","reason"}` sends the subagent back with the reason as its next prompt;
 * nothing on standard output lets it stop. Copilot CLI shows no output of a hook that lets a stop
 * through; a hook that exits 2 is shown as a warning and the stop goes through all the same, which is
 * how a give-way reaches the user, and why --fail-closed holds with a block.
 */
export const copilot: HostAdapter = {
  name: "copilot",
  title: "Copilot CLI",
  parse: parseCopilotPayload,
  block: decisionBlock,
  passOutput: "",
  notice: () => "",
  noticeExitCode: 2,
  holdBy: "block",
  reader: "subagent",
  definitionFiles: [".github/agents/{name}.agent.md", ".claude/agents/{name}.md"],
  transcriptCaughtUp: copilotLogCaughtUp,
};
