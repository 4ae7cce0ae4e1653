import path from "node:path";
import { createReturnGate, type ReturnGate, type ReturnGateOptions } from "@returnlint/api";

// The shapes below are the parts of @anthropic-ai/claude-agent-sdk's published types that this
// adapter uses (sdk.d.ts: `HookCallbackMatcher`, `HookCallback`, `SubagentStopHookInput`,
// `SyncHookJSONOutput`). Declared structurally, as @returnlint/opencode declares OpenCode's, so that
// the adapter runs with any SDK version whose hooks keep these fields.

/** What a hook callback is handed: every hook input names its event; a SubagentStop's has the fields below. */
export interface HookInput {
  readonly hook_event_name: string;
  readonly session_id?: string;
  /** The project directory the session runs in: artifact paths and the config are relative to it. */
  readonly cwd?: string;
  readonly agent_id?: string;
  readonly agent_type?: string;
  readonly agent_transcript_path?: string;
  readonly last_assistant_message?: string;
}

/** A hook's answer: `decision: "block"` keeps the subagent working, with `reason` as its next instruction. */
export interface HookOutput {
  decision?: "block";
  reason?: string;
}

export type SubagentStopCallback = (input: HookInput, toolUseID: string | undefined, options: { signal: AbortSignal }) => Promise<HookOutput>;

/** `options.hooks` for `query()`: a SubagentStop matcher, every subagent. */
export interface ReturnlintHooks {
  SubagentStop: { hooks: SubagentStopCallback[] }[];
}

/**
 * Hooks for `query({ options: { hooks } })`: every subagent's final message is checked when it
 * stops, as `returnlint hook claude` checks it, in this process. A failing return blocks the stop:
 * the subagent reads the problems addressed to it and goes on working, at most `maxBlocks` times.
 * The project is the session's `cwd` unless `options.cwd` names one.
 */
export function returnlintHooks(options: ReturnGateOptions = {}): ReturnlintHooks {
  const gates = new Map<string, ReturnGate>();
  const gateFor = (cwd: string) => {
    const root = path.resolve(options.cwd ?? cwd);
    let gate = gates.get(root);
    if (gate === undefined) gates.set(root, (gate = createReturnGate({ ...options, cwd: root })));
    return gate;
  };
  const subagentStop: SubagentStopCallback = async (input) => {
    // A Claude Code that sends no final message leaves nothing to check here (the CLI hook says so too).
    if (input.hook_event_name !== "SubagentStop" || input.last_assistant_message === undefined) return {};
    const verdict = await gateFor(input.cwd ?? process.cwd()).check({
      agent: input.agent_type,
      message: input.last_assistant_message,
      run: `${input.session_id ?? ""}:${input.agent_id ?? input.agent_type ?? ""}`,
      reader: "subagent",
      ...(input.agent_transcript_path === undefined ? {} : { transcriptPath: input.agent_transcript_path }),
    });
    return verdict.reason === undefined ? {} : { decision: "block", reason: verdict.reason };
  };
  return { SubagentStop: [{ hooks: [subagentStop] }] };
}
