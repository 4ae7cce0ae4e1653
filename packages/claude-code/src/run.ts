import { readFileSync } from "node:fs";
import path from "node:path";
import { readTranscript, writtenFiles } from "@returnlint/core";
import type { SubagentRun } from "@returnlint/api";

/** How much of a subagent's transcript the hook reads for the files it wrote and its prompt. */
const MAX_TRANSCRIPT_BYTES = 64 * 1024 * 1024;

/** The agent names whose definition may be looked up as `.claude/agents/NAME.md` (no plugin prefix, no path). */
const DEFINITION_NAME = /^[\w.-]+$/;

/**
 * What Claude Code shows of a subagent's run: the files its transcript says it wrote, the prompt
 * it was delegated with, and its definition in the project's `.claude/agents/`. A transcript that
 * cannot be read tells nothing: the final message is then all there is.
 */
export function subagentRun(input: { readonly transcriptPath?: string; readonly root: string; readonly agent?: string }): SubagentRun {
  const { transcriptPath, root, agent } = input;
  const transcript = transcriptPath === undefined ? undefined : readTranscript(path.resolve(root, transcriptPath), root, MAX_TRANSCRIPT_BYTES);
  const definition = agent !== undefined && DEFINITION_NAME.test(agent) && !agent.startsWith(".") ? readIfThere(path.join(root, ".claude", "agents", `${agent}.md`)) : undefined;
  return {
    wrote: transcript?.ok === true ? writtenFiles(transcript) : [],
    ...(transcript?.ok === true && transcript.prompt !== undefined ? { prompt: transcript.prompt } : {}),
    ...(definition === undefined ? {} : { definition }),
  };
}

function readIfThere(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}
