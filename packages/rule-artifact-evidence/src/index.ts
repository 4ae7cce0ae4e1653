import { realpathSync } from "node:fs";
import path from "node:path";
import { defineRule, docsUrl, isSuccessLike, MAX_ARTIFACT_PATHS, readTranscript, WRITE_TOOL_NAMES, type ClaimedArtifact, type FileCheck, type RuleContext, type Transcript } from "@returnlint/core";
import type { GitEvidence, GitProblem } from "./git.js";

type Kind = "freshness" | "git" | "transcript";

interface Options {
  evidence: Kind[];
  toleranceSeconds: number;
  maxTranscriptBytes: number;
}

/** One kind of evidence for one artifact: found or not, and what was seen. */
interface Finding {
  readonly kind: Kind;
  readonly found: boolean;
  readonly seen: string;
}

const GIT_PROBLEM_LEVEL: Readonly<Record<GitProblem, "info" | "report">> = {
  // The machine or the project has no git: nothing the caller can fix by changing --git-base.
  gitMissing: "info",
  notARepository: "info",
  // The caller asked for a base that cannot be used: the evidence they wanted is not there.
  unknownRevision: "report",
  shallowClone: "report",
  gitFailed: "report",
};

const NO_EVIDENCE = "Verify {agent} writes its artifacts in this run; an artifact left by an earlier run is phantom work";

/** Artifact paths as the artifacts rule reads them: the return's claims. */
interface NamedPath {
  readonly path: string;
  readonly pointer: string;
}

/** Each path once, the first MAX_ARTIFACT_PATHS (the artifacts rule fails a return that names more). */
function namedPaths(artifacts: Iterable<ClaimedArtifact>): NamedPath[] {
  const named: NamedPath[] = [];
  const seen = new Set<string>();
  for (const { path: given, pointer } of artifacts) {
    if (named.length === MAX_ARTIFACT_PATHS) break;
    if (seen.has(given)) continue;
    seen.add(given);
    named.push({ path: given, pointer });
  }
  return named;
}

/** A path as git prints it relative to the root, or undefined for one that leaves the root. */
function gitPath(given: string): string | undefined {
  if (given === "" || given.includes("\0") || path.isAbsolute(given)) return undefined;
  const normalized = path.normalize(given).split(path.sep).join("/");
  return normalized === ".." || normalized.startsWith("../") || normalized === "." ? undefined : normalized;
}

const iso = (ms: number): string => new Date(ms).toISOString();

/** A path as messages print it, unless it holds control characters that would garble the line. */
function shown(given: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what this looks for
  return /[\u0000-\u001f\u007f]/.test(given) ? JSON.stringify(given) : given;
}

function freshness(checked: FileCheck, since: Date, toleranceSeconds: number): Finding {
  if (!checked.ok) return { kind: "freshness", found: false, seen: `not found (the file cannot be inspected: ${checked.problem})` };
  const modified = iso(checked.mtimeMs);
  return checked.mtimeMs >= since.getTime() - toleranceSeconds * 1000
    ? { kind: "freshness", found: true, seen: `found (modified ${modified}, at or after the run's start ${since.toISOString()})` }
    : { kind: "freshness", found: false, seen: `not found (last modified ${modified}, before the run's start ${since.toISOString()})` };
}

function gitFinding(checked: FileCheck, given: string, git: Extract<GitEvidence, { ok: true }>): Finding & { identical: boolean } {
  const relative = gitPath(given);
  const base = git.base;
  if (!checked.ok || relative === undefined) {
    return { kind: "git", found: false, identical: false, seen: "not found (the file cannot be inspected)" };
  }
  if (git.changed.has(relative)) return { kind: "git", found: true, identical: false, seen: `found (changed relative to ${base})` };
  if (git.untracked.has(relative)) return { kind: "git", found: true, identical: false, seen: "found (new, untracked)" };
  if (git.inBase.has(relative)) {
    return { kind: "git", found: false, identical: true, seen: `not found (identical to the committed version at ${base}: git shows no change)` };
  }
  return { kind: "git", found: false, identical: false, seen: "not found (ignored by git, which therefore holds no evidence)" };
}

function transcriptFinding(candidates: readonly string[], transcript: Extract<Transcript, { ok: true }>): Finding {
  const writes = candidates.flatMap((candidate) => transcript.writes.get(candidate) ?? []);
  const done = writes.find((write) => !write.failed);
  if (done !== undefined) return { kind: "transcript", found: true, seen: `found (${done.tool} at line ${String(done.line)})` };
  const failed = writes[0];
  if (failed !== undefined) return { kind: "transcript", found: false, seen: `not found (the ${failed.tool} at line ${String(failed.line)} failed)` };
  return { kind: "transcript", found: false, seen: `not found (no ${WRITE_TOOL_NAMES.join(", ")} of this path)` };
}

/** The run's start: the caller's --since, else the return's own started_at. */
interface RunStart {
  readonly date?: Date;
  readonly from?: string;
  readonly bad?: string;
}

function runStart(since: Date | undefined, startedAt: unknown): RunStart {
  if (since !== undefined && !Number.isNaN(since.getTime())) return { date: since, from: "--since" };
  if (typeof startedAt !== "string") return {};
  const parsed = new Date(startedAt);
  return Number.isNaN(parsed.getTime()) ? { bad: startedAt } : { date: parsed, from: "the return's started_at" };
}

/** Issue 10: each artifact of a success return shows evidence that this run produced it. */
export default defineRule<Options>(docsUrl)({
  id: "artifact-evidence",
  meta: {
    description: "Each artifact of a success return shows evidence that this run produced it: a fresh mtime, a git change, or a write in the transcript.",
    schema: {
      type: "object",
      additionalProperties: false,
      properties: {
        evidence: {
          type: "array",
          items: { type: "string", enum: ["freshness", "git", "transcript"] },
          minItems: 1,
          uniqueItems: true,
          description:
            "Kinds of evidence to look for: `freshness` (modified at or after the run's start, from --since or the return's started_at), `git` (changed or untracked relative to --git-base), `transcript` (a Write/Edit tool call in --transcript). One found is enough.",
        },
        toleranceSeconds: {
          type: "number",
          minimum: 0,
          description: "Clock skew allowed when comparing a file's mtime with the run's start, in seconds.",
        },
        maxTranscriptBytes: {
          type: "integer",
          minimum: 1,
          description: "How much of the transcript is read at most; a longer one is read up to this size and an [INFO] line says so.",
        },
      },
      required: ["evidence", "toleranceSeconds", "maxTranscriptBytes"],
    },
    defaultOptions: { evidence: ["freshness", "git", "transcript"], toleranceSeconds: 2, maxTranscriptBytes: 64 * 1024 * 1024 },
    messages: {
      skipped: { text: "Skipping artifact evidence (status={status})" },
      nothingToCheck: {
        text: "Artifact evidence not checked: no source of evidence is available",
        detail: "Note: {reasons}\nNote: pass --since, --git-base or --transcript to prove the artifacts were written by this run",
      },
      sources: { text: "Artifact evidence looked for: {sources}", detail: "{unavailable}" },
      badStartedAt: {
        text: "started_at is not a timestamp: {value}",
        detail: "Note: freshness needs the run's start; pass --since or fix started_at (ISO 8601)",
      },
      gitMissing: { text: "Git evidence not available: {reason}", detail: "Note: install git, or drop --git-base" },
      notARepository: { text: "Git evidence not available: {reason}", detail: "Note: --git-base {base} was given, but git has nothing to compare" },
      unknownRevision: {
        text: "Git evidence not available: {reason}",
        detail: "Error: --git-base must name a commit the repository holds",
        recommendation: "Pass the revision the run started from (for example the output of `git rev-parse HEAD` before delegating)",
      },
      shallowClone: {
        text: "Git evidence not available: {reason}",
        detail: "Error: a shallow clone lacks the history --git-base {base} needs",
        recommendation: "Fetch the missing history (`git fetch --unshallow`, or a deeper --depth) or pass a base inside the clone",
      },
      gitFailed: { text: "Git evidence not available: {reason}", detail: "Error: git could not answer for --git-base {base}" },
      transcriptUnreadable: {
        text: "Transcript evidence not available: {reason}",
        detail: "Error: --transcript must name the subagent's Claude Code JSONL transcript",
        recommendation: "Pass the hook's agent_transcript_path, or drop --transcript",
      },
      transcriptOtherHost: {
        text: "Transcript evidence not available: {reason}",
        detail: "Note: that host's subagents write through a shell or apply_patch, which no write tool call proves; the claims rules read its transcript (write-claims)",
      },
      transcriptTruncated: { text: "Transcript read up to {maxBytes} bytes of {file}", detail: "Note: writes recorded after that point are not seen; raise maxTranscriptBytes" },
      transcriptBadLines: { text: "Transcript lines skipped: {count} of {file} are not JSON" },
      produced: { text: "Artifact produced by this run: {path}", detail: "{evidence}" },
      noEvidence: {
        text: "No evidence that this run produced {path}",
        detail: "{evidence}\nError: looked for {lookedFor}; found none",
        recommendation: NO_EVIDENCE,
        reask: "nothing shows that this run wrote {path} (looked for {lookedFor}); write the artifact in this run",
      },
      identicalToBase: {
        text: "Artifact written but identical to the committed version: {path}",
        detail: "{evidence}\nError: {path} has the same content as at {base}, so git shows no change: this run did not produce it",
        recommendation: "Verify {agent} writes the new content this run was asked for, not a copy of what was committed",
        reask: "{path} is identical to the committed version at {base}; write the new content this run was asked for",
      },
    },
  },
  check(context) {
    const { value, expected, options, claims } = context;
    const { status } = claims;
    if (claims.artifactCount === 0 && claims.artifactList === undefined) return;
    if (claims.counted === undefined && status === null) return;
    // Under a contract its success status says whether the claims count; in a format, the status vocabulary.
    if (!(claims.counted ?? isSuccessLike(status ?? ""))) {
      context.info({ messageId: "skipped", data: { status: status ?? "" } });
      return;
    }
    const named = namedPaths(claims.artifacts);
    if (named.length === 0) return; // the artifacts rule reports phantom work and malformed entries

    const kinds = new Set(options.evidence);
    const unavailable: string[] = [];
    const sources: string[] = [];

    const start = kinds.has("freshness") ? runStart(expected.since, value.started_at) : {};
    if (start.bad !== undefined) context.info({ messageId: "badStartedAt", data: { value: start.bad }, pointer: "/started_at" });
    if (start.date !== undefined) sources.push(`freshness (run started ${start.date.toISOString()}, from ${start.from ?? ""})`);
    else if (kinds.has("freshness")) unavailable.push("freshness: no --since and no started_at in the return");

    const base = expected.gitBase;
    const wantsGit = kinds.has("git") && base !== undefined && base !== "";
    if (kinds.has("git") && !wantsGit) unavailable.push("git: no --git-base");
    const transcriptPath = expected.transcriptPath;
    const wantsTranscript = kinds.has("transcript") && transcriptPath !== undefined && transcriptPath !== "";
    if (kinds.has("transcript") && !wantsTranscript) unavailable.push("transcript: no --transcript");
    const gathered: Gathered = { named, start, sources, unavailable };
    // Git and the transcript are asked only when the caller gave them: a run without
    // them stays synchronous and never loads child_process or readline.
    if (!wantsGit && !wantsTranscript) {
      conclude(context, gathered);
      return;
    }
    return gatherAndConclude(context, gathered, wantsGit ? base : undefined, wantsTranscript ? transcriptPath : undefined);
  },
});

interface Gathered {
  readonly named: readonly NamedPath[];
  readonly start: RunStart;
  readonly sources: string[];
  readonly unavailable: string[];
  git?: Extract<GitEvidence, { ok: true }>;
  transcript?: Extract<Transcript, { ok: true }>;
}

/** The messages that gathering and weighing the evidence report: each source's problems and notes, then each artifact's verdict. */
type Context = RuleContext<
  Options,
  GitProblem | "transcriptTruncated" | "transcriptBadLines" | "transcriptUnreadable" | "transcriptOtherHost" | "nothingToCheck" | "sources" | "identicalToBase" | "produced" | "noEvidence"
>;

async function gatherAndConclude(context: Context, gathered: Gathered, base: string | undefined, transcriptPath: string | undefined): Promise<void> {
  const { files, options } = context;
  const { named, sources, unavailable } = gathered;
  if (base !== undefined) {
    const paths = named.map(({ path: given }) => gitPath(given)).filter((given): given is string => given !== undefined);
    const { gitEvidence } = await import("./git.js");
    const answer = await gitEvidence(files.root, base, paths);
    if (answer.ok) {
      gathered.git = answer;
      sources.push(`git (changes relative to ${base})`);
    } else {
      const descriptor = { messageId: answer.problem, data: { reason: answer.reason, base } };
      if (GIT_PROBLEM_LEVEL[answer.problem] === "info") context.info(descriptor);
      else context.report(descriptor);
      unavailable.push(`git: ${answer.reason}`);
    }
  }
  if (transcriptPath !== undefined) {
    const file = path.resolve(transcriptPath);
    const answer = readTranscript(file, files.root, options.maxTranscriptBytes);
    if (answer.ok) {
      gathered.transcript = answer;
      sources.push(`transcript (${file})`);
      if (answer.truncated) context.info({ messageId: "transcriptTruncated", data: { maxBytes: options.maxTranscriptBytes, file } });
      if (answer.badLines > 0) context.info({ messageId: "transcriptBadLines", data: { count: answer.badLines, file } });
    } else if (answer.host !== undefined) {
      context.info({ messageId: "transcriptOtherHost", data: { reason: answer.reason } });
      unavailable.push(`transcript: ${answer.reason}`);
    } else {
      context.report({ messageId: "transcriptUnreadable", data: { reason: answer.reason } });
      unavailable.push(`transcript: ${answer.reason}`);
    }
  }
  conclude(context, gathered);
}

function conclude(context: Context, gathered: Gathered): void {
  const { files, options } = context;
  const { named, start, sources, unavailable, git, transcript } = gathered;
  // Failing every artifact because no evidence could be gathered would fail every return
  // of a caller that passed none: say once that nothing was checked instead.
  if (sources.length === 0) {
    context.info({ messageId: "nothingToCheck", data: { reasons: unavailable.join("; ") } });
    return;
  }
  context.info({
    messageId: "sources",
    data: { sources: sources.join(", "), unavailable: unavailable.length === 0 ? "Note: every kind of evidence asked for is available" : `Note: not available: ${unavailable.join("; ")}` },
  });

  const realRoot = realRootOf(files.root);
  const checks = named.map(({ path: given }) => files.check(given));
  const lookedFor = [start.date === undefined ? "" : "freshness", git === undefined ? "" : "git", transcript === undefined ? "" : "transcript"].filter(Boolean).join(", ");
  named.forEach(({ path: given, pointer }, index) => {
    const checked = checks[index];
    if (checked === undefined) return;
    const findings: Finding[] = [];
    if (start.date !== undefined) findings.push(freshness(checked, start.date, options.toleranceSeconds));
    const gitSeen = git === undefined ? undefined : gitFinding(checked, given, git);
    if (gitSeen !== undefined) findings.push(gitSeen);
    if (transcript !== undefined) {
      findings.push(transcriptFinding([path.resolve(files.root, given), path.resolve(realRoot, given)], transcript));
    }
    const evidence = findings.map(({ kind, seen }) => `${kind}: ${seen}`).join("\n");
    const data = { path: shown(given), evidence, lookedFor };
    // Content identical to the base outweighs a fresh mtime or a recorded write: rewriting a file
    // with what was already committed produced nothing.
    if (gitSeen?.identical === true && findings.some((finding) => finding.found)) {
      context.report({ messageId: "identicalToBase", data: { ...data, base: git?.base ?? "" }, pointer });
    } else if (findings.some((finding) => finding.found)) {
      context.pass({ messageId: "produced", data });
    } else {
      context.report({ messageId: "noEvidence", data, pointer });
    }
  });
}

function realRootOf(root: string): string {
  try {
    return realpathSync.native(root);
  } catch {
    return root;
  }
}
