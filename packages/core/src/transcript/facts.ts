/**
 * What a subagent's run did, as its host's transcript records it: the facts the claims rules
 * (command-claims, test-claims, write-claims, subagent-claims) weigh a return's words against.
 * Every fact names the transcript line that holds it, so that a finding can send a reader there.
 */

/** The hosts whose transcripts are read, each by a reader of its own (claude.ts, codex.ts, copilot.ts). */
export const TRANSCRIPT_HOSTS = ["claude", "codex", "copilot"] as const;
export type TranscriptHost = (typeof TRANSCRIPT_HOSTS)[number];

/** A shell command the run ran. */
export interface CommandFact {
  /** 1-based line of the transcript that holds the call. */
  readonly line: number;
  readonly command: string;
  /** Its exit code, when the host recorded one (undefined: the call never finished, or the host does not say). */
  readonly exitCode: number | undefined;
  /** The end of its output, as the host recorded it (at most OUTPUT_TAIL_CHARS). */
  readonly outputTail: string;
}

/** A file a tool call wrote. */
export interface WriteFact {
  readonly line: number;
  /** Absolute. */
  readonly path: string;
  readonly tool: string;
  /** What the tool said it did: made a new file, changed one that was there, or did not say. */
  readonly action: "created" | "modified" | "unknown";
  /** The tool reported success. */
  readonly ok: boolean;
}

/** A subagent the run called. */
export interface SubagentFact {
  readonly line: number;
  readonly agent: string;
  /** It came back with an answer (the call's result is in the transcript, and is no error). */
  readonly returned: boolean;
  /** Where it came back, when it did. */
  readonly returnLine?: number;
}

/** A test run: a command whose output ends with a known runner's summary. */
export interface TestRunFact {
  readonly line: number;
  readonly command: string;
  readonly runner: string;
  readonly passed: boolean;
  readonly passedCount?: number;
  readonly failedCount?: number;
  /** The runner's own closing line, as it printed it. */
  readonly closingLine: string;
}

export interface RunFacts {
  readonly ok: true;
  readonly host: TranscriptHost;
  /** The host's version, when the transcript says it. */
  readonly hostVersion?: string;
  readonly file: string;
  readonly commands: readonly CommandFact[];
  readonly writes: readonly WriteFact[];
  readonly subagents: readonly SubagentFact[];
  readonly tests: readonly TestRunFact[];
  /** Lines that are not JSON (a transcript being written ends in a partial line). */
  readonly badLines: number;
  readonly bytes: number;
  /** Only the first `maxBytes` were read. */
  readonly truncated: boolean;
}

/** Why no facts: the file is missing, unreadable, or no host's transcript. Said, never taken for "nothing happened". */
export interface NoFacts {
  readonly ok: false;
  readonly reason: string;
}

/** How much of a command's output a fact keeps: enough for any runner's summary and a failing line. */
export const OUTPUT_TAIL_CHARS = 4000;

export const tailOf = (text: string): string => (text.length > OUTPUT_TAIL_CHARS ? text.slice(-OUTPUT_TAIL_CHARS) : text);

/** What every host's reader does with a transcript: take its lines one by one, then say what it saw. */
export interface HostReader {
  /** One parsed JSON line. */
  line(entry: Record<string, unknown>, line: number): void;
  /** Whether a line needs parsing at all: most of a transcript is output no fact is read from. */
  wants(raw: string): boolean;
  finish(): Pick<RunFacts, "commands" | "writes" | "subagents" | "hostVersion">;
}

/** A command's last line of output, for a finding to quote (at most 200 characters). */
export function lastOutputLine(command: CommandFact): string {
  const lines = command.outputTail.split("\n").map((line) => line.trim()).filter((line) => line !== "");
  const last = lines.at(-1) ?? "";
  return last.length > 200 ? `${last.slice(0, 199)}\u2026` : last;
}
