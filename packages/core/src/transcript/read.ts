import { statSync } from "node:fs";
import path from "node:path";
import { isObject } from "../pointer.js";
import { FileRefusedError, streamLines } from "../safe-fs.js";
import { claudeReader } from "./claude.js";
import { codexReader } from "./codex.js";
import { copilotReader } from "./copilot.js";
import type { HostReader, NoFacts, RunFacts, TranscriptHost } from "./facts.js";
import { testRunOf } from "./runners.js";
import type { Expected, RuleContext } from "../types.js";

export interface ReadFactsOptions {
  /** Where relative paths in the transcript resolve when it names no working folder. */
  readonly root: string;
  /** How much is read at most; a longer transcript is read this far, and says so (`truncated`). */
  readonly maxBytes: number;
  /** Whose run: Copilot CLI logs a whole session in one file, a subagent's events under its `agentId`. */
  readonly agentId?: string;
}

const CHUNK_BYTES = 1024 * 1024;

/** The entries of a Codex rollout, each a `type` and a `payload` (one that lost its `session_meta` opens with another). */
const CODEX_ENTRIES = new Set(["session_meta", "response_item", "event_msg", "turn_context", "world_state", "token_usage_record", "compacted"]);

/**
 * Which host wrote a transcript, from its first entry: Codex's entries are a `type` and a
 * `payload` (`session_meta` first), Copilot CLI's events a dotted `type` and a `data` object,
 * Claude Code's entries carry a `sessionId`, `uuid` or `message`.
 */
export function hostOf(entry: unknown): TranscriptHost | undefined {
  if (!isObject(entry)) return undefined;
  if (typeof entry.type === "string" && CODEX_ENTRIES.has(entry.type) && isObject(entry.payload)) return "codex";
  if (typeof entry.type === "string" && entry.type.includes(".") && isObject(entry.data)) return "copilot";
  if ("sessionId" in entry || "uuid" in entry || "message" in entry || "leafUuid" in entry) return "claude";
  return undefined;
}

function readerFor(host: TranscriptHost, options: ReadFactsOptions): HostReader {
  if (host === "codex") return codexReader(options.root);
  if (host === "copilot") return copilotReader(options.root, options.agentId);
  return claudeReader(options.root);
}

/** The last few transcripts read, so that the four claims rules on one return read it once. */
const recent = new Map<string, RunFacts>();
const RECENT_MAX = 4;

/**
 * A transcript's facts, read streaming: a chunk at a time, each line parsed only when its host's
 * reader wants it (most of a transcript is output no fact comes from). A transcript that cannot
 * be read, or that no host wrote, is a reason, never an empty run.
 */
export function readRunFacts(file: string, options: ReadFactsOptions): RunFacts | NoFacts {
  const key = cacheKey(file, options);
  const cached = key === undefined ? undefined : recent.get(key);
  if (cached !== undefined) return cached;
  let reader: HostReader | undefined;
  let host: TranscriptHost | undefined;
  // Set inside `take`: an object, so that the check after the read sees what the callbacks did.
  const first = { unknown: false };
  let badLines = 0;
  let line = 0;
  const take = (raw: string): void => {
    line += 1;
    if (first.unknown) return;
    const trimmed = raw.trim();
    if (trimmed === "") return;
    if (reader !== undefined && !reader.wants(trimmed)) return;
    let entry: unknown;
    try {
      entry = JSON.parse(trimmed);
    } catch {
      badLines += 1;
      return;
    }
    if (reader === undefined) {
      host = hostOf(entry);
      if (host === undefined) {
        first.unknown = true;
        return;
      }
      reader = readerFor(host, options);
    }
    if (isObject(entry)) reader.line(entry, line);
  };
  let opened: ReturnType<typeof streamLines>;
  try {
    opened = streamLines(file, { maxBytes: options.maxBytes, chunkBytes: CHUNK_BYTES }, (raw) => {
      take(raw.toString("utf8"));
      // A file whose first entry is no host's is not read further.
      return !first.unknown;
    });
  } catch (error) {
    if (!(error instanceof FileRefusedError)) throw error;
    return { ok: false, reason: `${file} ${error.kind === "missing" ? "does not exist" : error.reason}` };
  }
  const last = opened.rest.toString("utf8");
  // A last line cut by maxBytes is no entry; one the host is still writing may not be either.
  if (last.trim() !== "" && !opened.truncated) take(last);
  // The entry itself is not quoted: whoever names a file that is no transcript learns nothing of its content.
  if (first.unknown) return { ok: false, reason: `${file} is no transcript of Claude Code, Codex or Copilot CLI (its first entry is none of theirs)` };
  if (reader === undefined || host === undefined) return { ok: false, reason: `${file} holds no entry` };
  const seen = reader.finish();
  const facts: RunFacts = {
    ok: true,
    host,
    file,
    ...seen,
    tests: seen.commands.flatMap((command) => testRunOf(command) ?? []),
    badLines,
    bytes: Math.min(opened.stats.size, options.maxBytes),
    truncated: opened.truncated,
  };
  const readKey = `${file}\0${String(opened.stats.size)}\0${String(opened.stats.mtimeMs)}\0${options.agentId ?? ""}\0${String(options.maxBytes)}\0${options.root}`;
  recent.set(readKey, facts);
  if (recent.size > RECENT_MAX) recent.delete(recent.keys().next().value ?? "");
  return facts;
}

function cacheKey(file: string, options: ReadFactsOptions): string | undefined {
  try {
    const stats = statSync(file);
    return `${file}\0${String(stats.size)}\0${String(stats.mtimeMs)}\0${options.agentId ?? ""}\0${String(options.maxBytes)}\0${options.root}`;
  } catch {
    return undefined;
  }
}

/** The default of the claims rules' `maxTranscriptBytes`: a long session's transcript, whole. */
export const CLAIMS_TRANSCRIPT_BYTES = 256 * 1024 * 1024;

/**
 * The facts of the run a return answers, for a rule: undefined when the caller gave no
 * transcript, a reason when it cannot be read. Relative paths resolve against the project root.
 */
export function runFactsFor(expected: Expected, root: string, maxBytes: number): RunFacts | NoFacts | undefined {
  const given = expected.transcriptPath;
  if (given === undefined || given === "") return undefined;
  return readRunFacts(path.resolve(root, given), { root, maxBytes, ...(expected.transcriptAgentId === undefined ? {} : { agentId: expected.transcriptAgentId }) });
}

/** The option every claims rule takes: how much of the transcript it reads. */
export const MAX_TRANSCRIPT_BYTES_OPTION = {
  type: "integer",
  minimum: 1,
  description: "How much of the transcript is read at most; a longer one is read up to this size and an [INFO] line says so.",
} as const;

/** The messages a claims rule words for a transcript it has not, cannot read, or reads in part. */
type TranscriptMessageId = "noTranscript" | "transcriptUnreadable" | "transcriptTruncated";

/**
 * The facts a claims rule weighs `count` claims against, or undefined when there are none, said in
 * the rule's own words: no transcript is a note (`noTranscript`), one that cannot be read a warning
 * (`transcriptUnreadable`: it proves nothing either way, so never a pass and never a block); a
 * transcript read only in part says so too (`transcriptTruncated`).
 */
export function claimsFacts(
  context: Pick<RuleContext<{ readonly maxTranscriptBytes: number }, TranscriptMessageId>, "expected" | "files" | "options" | "info" | "report">,
  count: number,
): RunFacts | undefined {
  const { options } = context;
  const facts = runFactsFor(context.expected, context.files.root, options.maxTranscriptBytes);
  if (facts === undefined) {
    context.info({ messageId: "noTranscript", data: { count } });
    return undefined;
  }
  if (!facts.ok) {
    context.report({ messageId: "transcriptUnreadable", data: { reason: facts.reason }, level: "warn" });
    return undefined;
  }
  if (facts.truncated) context.info({ messageId: "transcriptTruncated", data: { maxBytes: options.maxTranscriptBytes, file: facts.file } });
  return facts;
}
