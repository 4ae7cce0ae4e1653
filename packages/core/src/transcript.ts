import path from "node:path";
import { isObject } from "./pointer.js";
import { FileRefusedError, markedIn, streamLines } from "./safe-fs.js";
import type { TranscriptHost } from "./transcript/facts.js";
import { hostOf } from "./transcript/read.js";

// A Claude Code subagent's transcript (JSONL), read for two things: the files the subagent wrote
// with its tools (the artifact-evidence rule's proof of work, the hosts' way to find the return
// file it wrote), and the prompt it was delegated with (the task it was given). Another host's
// transcript (a Codex rollout, Copilot CLI's session log) is told apart, never read as one that
// shows no write: its subagents write through a shell, which proves nothing either way. What
// every host's transcript says a run did is transcript/ (the claims rules' facts).

/** Claude Code's tools that write a file, and the input field naming it. */
export const WRITE_TOOLS: Readonly<Record<string, string>> = {
  Write: "file_path",
  Edit: "file_path",
  MultiEdit: "file_path",
  NotebookEdit: "notebook_path",
};
export const WRITE_TOOL_NAMES = Object.keys(WRITE_TOOLS);

export interface TranscriptWrite {
  readonly tool: string;
  /** 1-based line of the transcript that holds the tool call. */
  readonly line: number;
  /** The tool's result said it failed (`is_error`), so nothing was written. */
  readonly failed: boolean;
}

export type Transcript =
  | {
      readonly ok: true;
      /** Write tool calls by the absolute path they name, in the order they were made. */
      readonly writes: ReadonlyMap<string, readonly TranscriptWrite[]>;
      /** The first user message: for a subagent, the prompt it was delegated with. */
      readonly prompt?: string;
      /** Lines that are not JSON (a transcript being written ends in a partial line). */
      readonly badLines: number;
      /** Only the first `maxBytes` were read. */
      readonly truncated: boolean;
    }
  | {
      readonly ok: false;
      readonly reason: string;
      /** The transcript is another host's: no evidence of Claude Code's kind, and no fault of the caller's. */
      readonly host?: Exclude<TranscriptHost, "claude">;
    };

const IS_ERROR = /"is_error":\s*true/;

interface PendingWrite {
  readonly file: string;
  readonly tool: string;
  readonly line: number;
  readonly id: unknown;
}

/**
 * Reads at most `maxBytes` of a Claude Code JSONL transcript and collects its file-writing tool
 * calls and its first user message. Only the lines that can hold either are parsed: a
 * transcript is mostly tool output, and a stop hook reads it on every stop. Relative file paths
 * resolve against the line's `cwd`, else the project root.
 */
export function readTranscript(file: string, root: string, maxBytes: number): Transcript {
  const pending: PendingWrite[] = [];
  const failedIds = new Set<unknown>();
  let prompt: string | undefined;
  let badLines = 0;
  let line = 0;
  let firstLine: number | undefined;
  let otherHost: Extract<Transcript, { ok: false }> | undefined;
  const visit = (raw: Buffer, marked: number): void => {
    line += 1;
    // Most of a transcript is tool output and calls of tools that write nothing: once the prompt
    // is known, an entry that holds no call of a write tool and no failed result is passed over
    // in its bytes, never decoded (what the lines below would conclude from its text).
    if (prompt !== undefined && firstLine !== undefined && isEntryOfNoInterest(raw, marked)) return;
    const trimmed = raw.toString("utf8").trim();
    if (trimmed === "") return;
    firstLine ??= line;
    if (!trimmed.startsWith("{") || !trimmed.endsWith("}")) {
      // Not an entry; not JSON at all, most likely (a partial last line).
      if (!parses(trimmed)) badLines += 1;
      return;
    }
    if (prompt !== undefined && !callsWriteTool(trimmed) && !IS_ERROR.test(trimmed)) return;
    let entry: unknown;
    try {
      entry = JSON.parse(trimmed);
    } catch {
      badLines += 1;
      return;
    }
    if (line === firstLine) {
      const host = hostOf(entry);
      if (host !== undefined && host !== "claude") {
        otherHost = { ok: false, reason: `${file} is ${host === "codex" ? "a Codex rollout" : "a Copilot CLI session log"}, not a Claude Code transcript`, host };
        return;
      }
    }
    if (!isObject(entry) || !isObject(entry.message)) return;
    const content: unknown = entry.message.content;
    if (prompt === undefined && entry.type === "user") prompt = textOf(content);
    if (!Array.isArray(content)) return;
    const base = typeof entry.cwd === "string" && path.isAbsolute(entry.cwd) ? entry.cwd : root;
    for (const item of content as unknown[]) {
      if (!isObject(item)) continue;
      if (item.type === "tool_result" && item.is_error === true) failedIds.add(item.tool_use_id);
      if (item.type !== "tool_use" || typeof item.name !== "string" || !isObject(item.input)) continue;
      const field = WRITE_TOOLS[item.name];
      const named = field === undefined ? undefined : item.input[field];
      if (typeof named !== "string" || named === "") continue;
      pending.push({ file: path.resolve(base, named), tool: item.name, line, id: item.id });
    }
  };
  let truncated: boolean;
  try {
    const read = streamLines(file, { maxBytes, chunkBytes: CHUNK_BYTES, marks: MARKS }, (raw, marked) => {
      visit(raw, marked);
      return otherHost === undefined;
    });
    if (otherHost === undefined) visit(read.rest, markedIn(read.rest, MARKS));
    truncated = read.truncated;
  } catch (error) {
    if (!(error instanceof FileRefusedError)) throw error;
    const why = error.kind === "missing" ? " does not exist" : error.kind === "notFile" ? " is not a regular file" : `: ${error.reason}`;
    return { ok: false, reason: `${file}${why}` };
  }
  if (otherHost !== undefined) return otherHost;
  const writes = new Map<string, TranscriptWrite[]>();
  for (const { file: written, tool, line: at, id } of pending) {
    const list = writes.get(written) ?? [];
    list.push({ tool, line: at, failed: id !== undefined && failedIds.has(id) });
    writes.set(written, list);
  }
  return { ok: true, writes, ...(prompt === undefined ? {} : { prompt }), badLines, truncated };
}

/**
 * How much of a transcript is read at a time, into one buffer: a transcript of megabytes is never
 * held whole, and a run touches no more memory for one of 64 MB than for one of 256 kB.
 */
const CHUNK_BYTES = 256 * 1024;

/** The write tools' names as JSON strings: a line of tool calls that holds none of them calls only tools that write nothing. */
const WRITE_TOOL_STRINGS = WRITE_TOOL_NAMES.map((name) => JSON.stringify(name));
const TOOL_USE = '"tool_use"';
const IS_ERROR_KEY = Buffer.from('"is_error":');
/** What makes a line of interest, looked for in its bytes (streamLines' marks): a tool call (bit 0), a result's `"is_error":` (bit 1), a write tool's name (the bits after). */
const MARKS = [Buffer.from(TOOL_USE), IS_ERROR_KEY, ...WRITE_TOOL_STRINGS.map((name) => Buffer.from(name))];
const TOOL_USE_MARK = 1;
const IS_ERROR_MARK = 2;
const WRITE_TOOL_MARK = ((1 << WRITE_TOOL_STRINGS.length) - 1) << 2;
const TRUE = Buffer.from("true");
/** The ASCII characters `\s` and String.prototype.trim take for whitespace; every other one they take is not ASCII. */
const isAsciiSpace = (byte: number): boolean => byte === 0x20 || (byte >= 0x09 && byte <= 0x0d);

/** Whether an entry's text may hold a call of a write tool: `"tool_use"` and a write tool's name. */
function callsWriteTool(text: string): boolean {
  return text.includes(TOOL_USE) && WRITE_TOOL_STRINGS.some((name) => text.includes(name));
}

/**
 * Whether a line's bytes are a JSON entry (`{…}` once trimmed) that holds neither a call of a
 * write tool (`"tool_use"` and a write tool's name: most calls are of tools that write nothing)
 * nor a match of IS_ERROR, given which of MARKS it holds. Anything less certain (a line that
 * starts or ends in a byte that is not ASCII once its ASCII whitespace is trimmed, or
 * `"is_error":` followed by one) is of interest: its text is decoded and judged as a string.
 */
function isEntryOfNoInterest(raw: Buffer, marked: number): boolean {
  let first = 0;
  let last = raw.length - 1;
  while (first <= last && isAsciiSpace(raw[first] ?? 0)) first += 1;
  while (last >= first && isAsciiSpace(raw[last] ?? 0)) last -= 1;
  if (first > last || raw[first] !== 0x7b || raw[last] !== 0x7d) return false;
  if ((marked & TOOL_USE_MARK) !== 0 && (marked & WRITE_TOOL_MARK) !== 0) return false;
  if ((marked & IS_ERROR_MARK) === 0) return true;
  for (let at = raw.indexOf(IS_ERROR_KEY); at !== -1; at = raw.indexOf(IS_ERROR_KEY, at + 1)) {
    let next = at + IS_ERROR_KEY.length;
    while (next < raw.length && isAsciiSpace(raw[next] ?? 0)) next += 1;
    if ((raw[next] ?? 0) >= 0x80 || raw.subarray(next, next + TRUE.length).equals(TRUE)) return false;
  }
  return true;
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** A message's text: the string itself, or its text blocks joined. */
function textOf(content: unknown): string | undefined {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return undefined;
  const texts = (content as unknown[]).flatMap((item) => (isObject(item) && item.type === "text" && typeof item.text === "string" ? [item.text] : []));
  return texts.length === 0 ? undefined : texts.join("\n");
}

/** The files a transcript shows written (no failed write among its calls to them), last written last. */
export function writtenFiles(transcript: Extract<Transcript, { ok: true }>): string[] {
  const done: { file: string; line: number }[] = [];
  for (const [file, writes] of transcript.writes) {
    const last = writes.findLast((write) => !write.failed);
    if (last !== undefined) done.push({ file, line: last.line });
  }
  return done.sort((a, b) => a.line - b.line).map((entry) => entry.file);
}
