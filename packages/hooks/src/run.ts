import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import path from "node:path";
import { readTranscript, writtenFiles } from "@returnlint/core";
import { agentDefinition, type SubagentRun } from "@returnlint/api";
import type { HostAdapter } from "./host.js";

/** How much of a subagent's transcript the hook reads for the files it wrote and its prompt. */
const MAX_TRANSCRIPT_BYTES = 64 * 1024 * 1024;

/**
 * What the host shows of a subagent's run: the files its transcript says it wrote, the prompt
 * it was delegated with (from a Claude Code transcript), and its definition in the project's
 * folder of agents (`.claude/agents/NAME.md`, …: the first of the host's `definitionFiles` there). A transcript that
 * cannot be read tells nothing: the final message is then all there is. A definition that is
 * there but is no regular file (a FIFO, a link to a device, something too large) is a sentence
 * (ReturnlintError): the hook says it, and gives way or, with --fail-closed, holds the agent.
 *
 * The transcript (megabytes, for a subagent that did some work) is read the first time its writes
 * or its prompt are asked for, and once: a console return in the final message asks for neither
 * (api's `returnOfMessage`, `owesReturn`).
 */
export function subagentRun(input: { readonly transcriptPath?: string; readonly root: string; readonly agent?: string; readonly host: HostAdapter }): SubagentRun {
  const { transcriptPath, root, agent, host } = input;
  const definition = agentDefinition(root, agent, host.definitionFiles);
  let shown: { readonly wrote: readonly string[]; readonly prompt?: string } | undefined;
  const transcript = () => {
    if (shown !== undefined) return shown;
    const read = transcriptPath === undefined ? undefined : readTranscript(path.resolve(root, transcriptPath), root, MAX_TRANSCRIPT_BYTES);
    shown = read?.ok === true ? { wrote: writtenFiles(read), ...(read.prompt === undefined ? {} : { prompt: read.prompt }) } : { wrote: [] };
    return shown;
  };
  return {
    get wrote() {
      return transcript().wrote;
    },
    get prompt() {
      return transcript().prompt;
    },
    ...(definition === undefined ? {} : { definition }),
  };
}

/**
 * The last `bytes` of a file (a host's log), or undefined when it is not a regular file that can be
 * read. Opened without blocking, so that a FIFO by that name never holds the hook up.
 */
export function readTail(file: string, bytes: number): string | undefined {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) return undefined;
    const length = Math.min(stats.size, bytes);
    const buffer = Buffer.alloc(length);
    let read = 0;
    while (read < length) {
      const got = readSync(fd, buffer, read, length - read, stats.size - length + read);
      if (got === 0) break;
      read += got;
    }
    return buffer.toString("utf8", 0, read);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}
