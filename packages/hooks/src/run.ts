import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import path from "node:path";
import { FileRefusedError, readRegularFile, readTranscript, ReturnlintError, writtenFiles } from "@returnlint/core";
import type { SubagentRun } from "@returnlint/api";
import type { HostAdapter } from "./host.js";

/** How much of a subagent's transcript the hook reads for the files it wrote and its prompt. */
const MAX_TRANSCRIPT_BYTES = 64 * 1024 * 1024;

/** An agent definition is a page of instructions; anything larger is not one. */
const MAX_DEFINITION_BYTES = 1024 * 1024;

/** The agent names whose definition may be looked up in the host's folder, as `.claude/agents/NAME.md` (no plugin prefix, no path). */
const DEFINITION_NAME = /^[\w.-]+$/;

/**
 * What the host shows of a subagent's run: the files its transcript says it wrote, the prompt
 * it was delegated with (from a Claude Code transcript), and its definition in the project's
 * folder of agents (`.claude/agents/NAME.md`, …: the host's `definitionFile`). A transcript that
 * cannot be read tells nothing: the final message is then all there is. A definition that is
 * there but is no regular file (a FIFO, a link to a device, something too large) is a sentence
 * (ReturnlintError): the hook says it, and gives way or, with --fail-closed, holds the agent.
 */
export function subagentRun(input: { readonly transcriptPath?: string; readonly root: string; readonly agent?: string; readonly host: HostAdapter }): SubagentRun {
  const { transcriptPath, root, agent, host } = input;
  const transcript = transcriptPath === undefined ? undefined : readTranscript(path.resolve(root, transcriptPath), root, MAX_TRANSCRIPT_BYTES);
  const definitionFile = agent !== undefined && DEFINITION_NAME.test(agent) && !agent.startsWith(".") ? host.definitionFile(agent) : undefined;
  const definition = definitionFile === undefined ? undefined : readDefinition(path.join(root, definitionFile));
  return {
    wrote: transcript?.ok === true ? writtenFiles(transcript) : [],
    ...(transcript?.ok === true && transcript.prompt !== undefined ? { prompt: transcript.prompt } : {}),
    ...(definition === undefined ? {} : { definition }),
  };
}

function readDefinition(file: string): string | undefined {
  try {
    return readRegularFile(file, { maxBytes: MAX_DEFINITION_BYTES }).bytes.toString("utf8");
  } catch (error) {
    if (!(error instanceof FileRefusedError)) throw error;
    if (error.kind === "missing") return undefined;
    throw new ReturnlintError("INPUT_UNREADABLE", `Cannot read the agent definition ${file}: ${error.reason}.`);
  }
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
