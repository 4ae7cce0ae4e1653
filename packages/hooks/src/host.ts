/**
 * A host where subagents stop (Claude Code, Codex, Copilot CLI, Gemini CLI, Cursor), as the hook
 * sees it: how to read the payload it sends, and how to answer it. Everything between (finding the
 * return, checking it, the ledger of bounded blocks, the verdict files, fail-open and fail-closed)
 * is the hook's own and the same for every host (hook.ts): a host is an adapter, data in and out.
 */
export interface HostAdapter {
  /** What `returnlint hook NAME` and `returnlint init NAME` call it. */
  readonly name: string;
  /** The product's name, in sentences the user reads ("Claude Code"). */
  readonly title: string;
  /** Reads the host's payload: a stop to check, a call the hook leaves alone, or a sentence saying what is wrong. */
  parse(text: string): PayloadOutcome;
  /** What the hook prints on standard output to fail the return: the reason goes to `reader`. */
  block(reason: string): string;
  /** What the hook prints when the return passes, or an agent is none of its business ("" for nothing). */
  readonly passOutput: string;
  /** How a sentence for the user goes on standard output when the stop is let through ("" when the host shows none; standard error always has it). */
  notice(sentence: string): string;
  /**
   * The exit code of a stop let through with a sentence for the user: 0 (the default) where the host
   * reads `notice`; 2 where the host shows a hook's standard error only when it exits 2, and lets the
   * stop through all the same (Copilot CLI's hook warning).
   */
  readonly noticeExitCode?: 0 | 2;
  /**
   * How --fail-closed holds an agent whose return could not be checked: "exit" (the default), exit 2
   * with the sentence on standard error, the host's blocking error (Claude Code); "block", the host's
   * block with the sentence as its reason, where exit 2 only warns (Copilot CLI) or a host keeps an
   * agent working through its block alone (Cursor's follow-up message).
   */
  readonly holdBy?: "exit" | "block";
  /**
   * Whether the host itself caps how often a hook may keep an agent working (Cursor's `loop_limit`).
   * Only then does `--fail-closed` hold by block where the ledger cannot count (a payload that cannot
   * be read names no agent); elsewhere it exits 2, which no host loops on.
   */
  readonly capsLoops?: boolean;
  /**
   * Who reads a block's reason: the subagent, sent back to work (Claude Code, Codex, Copilot CLI,
   * Cursor), or the parent, which receives the reason in place of the return (Gemini CLI).
   */
  readonly reader: "subagent" | "parent";
  /** The files that may define a project agent, relative to the project root with `{name}` for its name, in the host's order: the first that is there is its definition (api's `agentDefinition`). */
  readonly definitionFiles: readonly string[];
  /**
   * Whether the transcript has caught up with this stop, from its last lines. For a host that writes
   * its log behind its hooks (Copilot CLI: a subagent's commands and writes can reach events.jsonl
   * after its subagentStop hook started); absent where the transcript is whole when the hook runs.
   */
  transcriptCaughtUp?(payload: StopPayload, tail: string): boolean;
}

/**
 * A stop, as every host's payload is read into it. The names are Claude Code's (the first host):
 * `StopHookInput` and `SubagentStopHookInput` in `@anthropic-ai/claude-agent-sdk`.
 */
export interface StopPayload {
  /** The host's event name, as it sent it (said in sentences, never decided on). */
  readonly event: string;
  /** Whether the main agent stops (a Stop hook) rather than a subagent. */
  readonly main: boolean;
  readonly sessionId: string;
  /** The project directory the hook runs for: artifact paths, the config and `.returnlint/` are relative to it. */
  readonly cwd: string;
  /** Another stop hook is already holding this agent. */
  readonly stopHookActive: boolean;
  readonly agentId?: string;
  readonly agentType?: string;
  /** The agent's final message; absent when the host's version does not send it. */
  readonly lastAssistantMessage?: string;
  /**
   * The subagent's transcript: Claude Code's JSONL, Codex's rollout, Copilot CLI's session log.
   * Evidence for artifact-evidence (Claude Code's) and the claims rules (every host's).
   */
  readonly transcriptPath?: string;
  /** Whose run the transcript holds, when it logs the whole session (Copilot CLI: the subagent's agentId). */
  readonly transcriptAgentId?: string;
  /** When the host says the agent stopped (Copilot CLI's `timestamp`, in ms), which its log repeats for this stop. */
  readonly stoppedAt?: number;
}

export type PayloadOutcome =
  | { readonly ok: true; readonly payload: StopPayload }
  /** A call of the hook that is not a subagent's stop (another tool, an event returnlint does not handle): nothing to check, nothing said. */
  | { readonly ok: true; readonly ignore: string }
  | { readonly ok: false; readonly reason: string };
