// Cursor's stop hook payloads, written from its hooks documentation (cursor.com/docs/agent/hooks),
// field by field: Cursor's agent is not on the npm registry, so no test here receives a payload
// from a real Cursor. Every hook gets conversation_id, generation_id, model, hook_event_name,
// cursor_version, workspace_roots, user_email and transcript_path; a subagentStop adds
// subagent_type, status ("completed", "error" or "aborted"), task, description, summary (what the
// subagent returns to its parent), duration_ms, message_count, tool_call_count, loop_count,
// modified_files and agent_transcript_path, and subagent_id (which subagentStart documents).

export const CURSOR_CONVERSATION = "c7d2a9e4-5b1f-4e38-9a60-2f4b8c1d0e77";
export const CURSOR_SUBAGENT_ID = "sa_4e1f2c3b";

/** A subagentStop payload from the project at `root`; `overrides` replace fields, and a field set to undefined is left out. */
export function cursorSubagentStop(root: string, summary: string, overrides: Readonly<Record<string, unknown>> = {}): Record<string, unknown> {
  return {
    conversation_id: CURSOR_CONVERSATION,
    generation_id: "0e5f3b7a-91c4-4d2e-b8a6-3c7d9e1f2a40",
    model: "claude-4.5-sonnet",
    hook_event_name: "subagentStop",
    cursor_version: "2.4.21",
    workspace_roots: [root],
    user_email: "dev@example.com",
    transcript_path: null,
    subagent_id: CURSOR_SUBAGENT_ID,
    subagent_type: "lean-research-agent",
    status: "completed",
    task: "Research task 259 and write the report.",
    description: "Research task 259",
    summary,
    duration_ms: 45_210,
    message_count: 14,
    tool_call_count: 9,
    loop_count: 0,
    modified_files: [],
    agent_transcript_path: null,
    ...overrides,
  };
}

/** A research subagent's final text: a sentence, then its v7 return claiming `artifacts`, in a ```json fence. */
export function researchReturnText(artifacts: readonly string[]): string {
  const value = {
    status: "researched",
    summary: "Researched task 259 and wrote the report.",
    artifacts: artifacts.map((artifact) => ({ type: "report", path: artifact, summary: "Research report" })),
    metadata: { session_id: "sess_1736700000_abc123", agent_type: "lean-research-agent", delegation_depth: 1, delegation_path: ["orchestrator", "research", "lean-research-agent"] },
  };
  return `Research complete.\n\n\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\``;
}
