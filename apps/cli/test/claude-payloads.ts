// Claude Code stop hook payloads, written from the published types of
// @anthropic-ai/claude-agent-sdk (sdk.d.ts):
//   BaseHookInput         = { session_id, transcript_path, cwd, permission_mode? }
//   SubagentStopHookInput = BaseHookInput & { hook_event_name: "SubagentStop"; stop_hook_active: boolean;
//                            agent_id: string; agent_transcript_path: string; agent_type: string;
//                            last_assistant_message?: string }
//   StopHookInput         = BaseHookInput & { hook_event_name: "Stop"; stop_hook_active: boolean;
//                            last_assistant_message?: string }
// and the hooks reference (code.claude.com/docs/en/hooks): stop_hook_active is true when the
// agent is already continuing because a stop hook blocked it.

export interface PayloadOptions {
  readonly cwd: string;
  readonly message: string;
  readonly sessionId?: string;
  readonly agentId?: string;
  readonly agentType?: string;
  readonly stopHookActive?: boolean;
}

/** A SubagentStopHookInput. */
export function subagentStop(options: PayloadOptions): Record<string, unknown> {
  const sessionId = options.sessionId ?? "9f3c2a51-6d0e-4b8a-9a41-2f7c1e0d5b66";
  const agentId = options.agentId ?? "a4e1f2c3";
  return {
    session_id: sessionId,
    transcript_path: `/home/dev/.claude/projects/-work-project/${sessionId}.jsonl`,
    cwd: options.cwd,
    permission_mode: "default",
    hook_event_name: "SubagentStop",
    stop_hook_active: options.stopHookActive ?? false,
    agent_id: agentId,
    agent_transcript_path: `/home/dev/.claude/projects/-work-project/${sessionId}/subagents/agent-${agentId}.jsonl`,
    agent_type: options.agentType ?? "lean-research-agent",
    last_assistant_message: options.message,
  };
}

/** A StopHookInput (the main agent, e.g. a headless `claude -p` run used as a subagent). */
export function stop(options: Omit<PayloadOptions, "agentId" | "agentType">): Record<string, unknown> {
  const sessionId = options.sessionId ?? "0b7d4e22-1c3a-4f5e-8d6b-7a9c0e1f2d33";
  return {
    session_id: sessionId,
    transcript_path: `/home/dev/.claude/projects/-work-project/${sessionId}.jsonl`,
    cwd: options.cwd,
    permission_mode: "default",
    hook_event_name: "Stop",
    stop_hook_active: options.stopHookActive ?? false,
    last_assistant_message: options.message,
  };
}

/** The subagent's final message: a short summary, then its v7 return in a ```json fence. */
export function finalMessage(artifacts: readonly string[], status = "completed"): string {
  const value = {
    status,
    summary: "Researched task 259 and wrote the report.",
    artifacts: artifacts.map((artifact) => ({ type: "report", path: artifact, summary: "Research report" })),
    metadata: {
      session_id: "sess_1736700000_abc123",
      agent_type: "lean-research-agent",
      delegation_depth: 1,
      delegation_path: ["orchestrator", "research", "lean-research-agent"],
    },
  };
  return `Research complete.\n\n\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\``;
}
