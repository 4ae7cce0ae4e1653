import path from "node:path";
import { realpathSync } from "node:fs";
import { CLAIMS_TRANSCRIPT_BYTES, claimsFacts, MAX_TRANSCRIPT_BYTES_OPTION, claimedValues, defineRule, docsUrl, isObject, isSuccessLike, valueAt, type CommandFact, type RunFacts, type WriteFact } from "@returnlint/core";

interface Options {
  maxTranscriptBytes: number;
}

/** Lists of files a return says it created (the README names where each was seen): paths, or objects with a `path`. */
const KNOWN_PLACES = ["/files_created/*", "/metadata/files_created/*", "/completion_data/files_created/*"];
/** What an artifact entry's `action` (or `operation`) says when the file is new. */
const CREATED_WORDS = new Set(["created", "create", "new", "added", "add"]);

interface Claimed {
  readonly path: string;
  readonly pointer: string;
}

function createdClaims(value: Record<string, unknown>, artifacts: Iterable<{ readonly path: string; readonly pointer: string; readonly entry: string }>): Claimed[] {
  const found: Claimed[] = [];
  for (const artifact of artifacts) {
    const entry = valueAt(value, artifact.entry);
    const action = isObject(entry) ? (entry.action ?? entry.operation) : undefined;
    if (typeof action === "string" && CREATED_WORDS.has(action.toLowerCase())) found.push({ path: artifact.path, pointer: artifact.pointer });
  }
  for (const { pointer, value: given } of claimedValues(value, KNOWN_PLACES)) {
    if (typeof given === "string" && given !== "") found.push({ path: given, pointer });
    else if (isObject(given) && typeof given.path === "string" && given.path !== "") found.push({ path: given.path, pointer: `${pointer}/path` });
  }
  return found;
}

/** A shell command that wrote the file: it names the path after a redirection, `tee`, `cp`, `mv` or `touch`. */
function shellWriteOf(candidates: readonly string[], commands: readonly CommandFact[]): CommandFact | undefined {
  return commands.findLast((command) => {
    if (command.exitCode !== 0) return false;
    return candidates.some((candidate) => {
      const at = command.command.indexOf(candidate);
      if (at === -1) return false;
      const before = command.command.slice(0, at);
      return /(?:>>?|\btee(?: -a)?|\bcp\b[^;&|]*|\bmv\b[^;&|]*|\btouch\b[^;&|]*)\s*['"]?$/.test(before);
    });
  });
}

/** The paths a claimed file may appear under: as given from the root, and through the root's real path. */
function candidatesOf(root: string, given: string): string[] {
  const paths = [path.resolve(root, given)];
  try {
    paths.push(path.resolve(realpathSync.native(root), given));
  } catch {
    // The root's own path is all there is.
  }
  return [...new Set(paths)];
}

/** Issue 35: a file the return says it created was written by this run with a successful tool call, and was not there before. */
export default defineRule<Options>(docsUrl)({
  id: "write-claims",
  meta: {
    description: "A file the return says it created was written by this run with a successful tool call (not only present on disk), and was not there before the run.",
    schema: {
      type: "object",
      additionalProperties: false,
      properties: {
        maxTranscriptBytes: MAX_TRANSCRIPT_BYTES_OPTION,
      },
      required: ["maxTranscriptBytes"],
    },
    defaultOptions: { maxTranscriptBytes: CLAIMS_TRANSCRIPT_BYTES },
    messages: {
      noTranscript: { text: "Write claims not checked: no transcript of the run", detail: "Note: {count} file(s) claimed created; pass --transcript FILE (the hooks pass the host's own) to check them" },
      transcriptUnreadable: {
        text: "Write claims not checked: {reason}",
        detail: "Warning: the files claimed created are taken on trust",
        recommendation: "Pass the subagent's own transcript (Claude Code's agent_transcript_path, Codex's rollout, Copilot CLI's events.jsonl)",
      },
      transcriptTruncated: { text: "Transcript read up to {maxBytes} bytes of {file}", detail: "Note: writes after that point are not seen; raise maxTranscriptBytes" },
      created: { text: "File created by this run: {path}", detail: "Transcript line {line}: {how}" },
      existedBefore: {
        text: "File claimed created, but it was there before the run: {path}",
        detail: "Transcript line {line}: {tool} changed a file that was there (the tool said it updated it); no call of this run created it",
        recommendation: "Verify {agent} reports a file it changed as modified, and checks whether a file exists before it says it created it",
        reask: "{path} was there before your run (transcript line {line}: {tool} updated it); report it as modified, not created",
      },
      writeFailed: {
        text: "File claimed created, but the write failed: {path}",
        detail: "Transcript line {line}: {tool} failed; no call of this run wrote the file",
        recommendation: "Verify {agent} reads the result of each write before it reports the file",
        reask: "your write of {path} failed (transcript line {line}, {tool}); write it again and check the result",
      },
      notWritten: {
        text: "File claimed created, but this run did not write it: {path}",
        detail: "Error: no tool call and no shell command in {file} writes {path}{onDisk}",
        recommendation: "Verify {agent} creates the files it reports in this run",
        reask: "your transcript shows no write of {path}; create it in this run, or stop reporting it as created",
      },
    },
  },
  check(context) {
    const { value, claims, files } = context;
    const claimed = createdClaims(value, claims.artifacts);
    if (claimed.length === 0) return;
    if (!(claims.counted ?? (claims.status === null || isSuccessLike(claims.status)))) return;
    const facts = claimsFacts(context, claimed.length);
    if (facts === undefined) return;
    const seen = new Set<string>();
    for (const { path: given, pointer } of claimed) {
      if (seen.has(given)) continue;
      seen.add(given);
      judge(given, pointer, facts);
    }

    function judge(given: string, pointer: string, facts: RunFacts): void {
      const candidates = candidatesOf(files.root, given);
      const writes: WriteFact[] = facts.writes.filter((write) => candidates.includes(write.path));
      const done = writes.filter((write) => write.ok);
      // The first successful write says whether the file was new: later ones edit what this run made.
      const first = done[0];
      if (first?.action === "modified") {
        context.report({ messageId: "existedBefore", data: { path: given, line: first.line, tool: first.tool }, pointer });
      } else if (first !== undefined) {
        context.pass({ messageId: "created", data: { path: given, line: first.line, how: `${first.tool}${first.action === "created" ? " created it" : " wrote it"}` } });
      } else if (writes[0] !== undefined) {
        context.report({ messageId: "writeFailed", data: { path: given, line: writes[0].line, tool: writes[0].tool }, pointer });
      } else {
        const shell = shellWriteOf(candidates, facts.commands);
        if (shell !== undefined) {
          context.pass({ messageId: "created", data: { path: given, line: shell.line, how: "a shell command wrote it" } });
          return;
        }
        const onDisk = files.check(given).ok ? " (the file is on disk: an earlier run, or another process, wrote it)" : "";
        context.report({ messageId: "notWritten", data: { path: given, file: facts.file, onDisk }, pointer });
      }
    }
  },
});
