import { IN_PROGRESS, decodeUtf8, type GitObjectCache, type LoadedConfig } from "@returnlint/core";
import { gitSource, lintSource } from "@returnlint/api";
import type { CachedVerdict, ResultCache } from "./cache.js";
import type { Repository, Version } from "./repository.js";

/** One failure of one return, as the JSON report lists it. */
export interface AuditFailure {
  readonly ruleId: string;
  readonly messageId: string;
  readonly message: string;
  readonly pointer?: string;
}

/** The verdict on one version of a metadata file, in the commit that introduced it. */
export interface AuditedReturn {
  readonly commit: string;
  /** The commit's author date, ISO 8601 in UTC. */
  readonly date: string;
  readonly path: string;
  readonly status: string | null;
  /** `metadata.agent_type` (or a top-level `agent_type`); null when the return names none. */
  readonly agent: string | null;
  /** The command the return answers, as the library infers it (`commandOfReturn`); null when nothing says. */
  readonly command: string | null;
  /** Passed validation; an early version always passes. */
  readonly ok: boolean;
  /** Phantom work, as the library's `ReturnFacts` says: a success status while the work it claims is not in the commit. */
  readonly phantom: boolean;
  /**
   * Early metadata: an `in_progress` version that a later version of its file (in the audited range)
   * replaced. The agent wrote it while it worked, and went on: it is not judged (no failures).
   * The last version of a file is judged whatever its status, as `scan` judges it at the tip.
   */
  readonly early: boolean;
  readonly failures: readonly AuditFailure[];
  /** A rule crashed on this return: its verdict cannot be trusted. */
  readonly internalError: boolean;
}

/** A version that could not be validated at all: too large, its object missing from the repository, or dated past 9999. */
export interface UnreadableReturn {
  readonly commit: string;
  /** Null when the commit's date cannot be written as an ISO date. */
  readonly date: string | null;
  readonly path: string;
  readonly unreadable: string;
}

export interface AuditContext {
  readonly repo: Repository;
  readonly cache: GitObjectCache;
  readonly config: LoadedConfig;
  readonly preset?: string;
  /** The largest metadata file validated (RETURNLINT_MAX_INPUT_BYTES). */
  readonly maxBytes: number;
  /** Results of earlier audits, by version: a version found there is neither read nor linted. */
  readonly results?: ResultCache;
  /** Counts the versions linted, and those whose result came from `results`. */
  readonly counts: { linted: number; cached: number };
}

/** The dates an ISO 8601 date of four-digit years can write: 0000-01-01 to 9999-12-31, in UTC. */
const FIRST_DATE = Date.parse("0000-01-01T00:00:00.000Z");
const LAST_DATE = Date.parse("9999-12-31T23:59:59.999Z");

/**
 * A version's outcome without reading or linting it, when there is one: a date the report cannot
 * write, or a verdict `context.results` keeps. Undefined when the version must be linted (`lintVersion`).
 */
export function knownOutcome(version: Version, superseded: boolean, context: AuditContext): AuditedReturn | UnreadableReturn | undefined {
  if (!(version.time >= FIRST_DATE && version.time <= LAST_DATE)) {
    // A commit's date is whatever its author wrote: one past 9999 has no ISO date (nor, far enough, a Date).
    const seconds = Number.isFinite(version.time) ? String(version.time / 1000) : "unreadable";
    return { commit: version.commit, date: null, path: version.path, unreadable: `Cannot date ${version.path} at ${version.commit}: its author date (${seconds} seconds after 1970) is outside the years 0000 to 9999 that the report can write.` };
  }
  const cached = context.results?.get(version);
  if (cached === undefined) return undefined;
  context.counts.cached += 1;
  return judgedAs({ commit: version.commit, date: new Date(version.time).toISOString(), path: version.path }, cached, superseded, false);
}

/**
 * Validates one version that `knownOutcome` has no outcome for against the tree of the commit that
 * introduced it; `superseded`: a later version of its file is audited too.
 */
export async function lintVersion(version: Version, superseded: boolean, context: AuditContext): Promise<AuditedReturn | UnreadableReturn> {
  const where = { commit: version.commit, date: new Date(version.time).toISOString(), path: version.path };
  const object = await context.cache.objects.contents(version.blob, context.maxBytes + 1);
  if (object?.type !== "blob") return { ...where, unreadable: `Cannot read ${version.path} at ${version.commit}: the object ${version.blob} is missing from the repository.` };
  if (object.size > context.maxBytes) {
    return {
      ...where,
      unreadable: `Cannot read ${version.path} at ${version.commit}: it is ${String(object.size)} bytes, more than the ${String(context.maxBytes)} read (RETURNLINT_MAX_INPUT_BYTES).`,
    };
  }
  const source = gitSource({ text: decodeUtf8(object.data), path: version.path, commit: version.commit, tree: version.tree, time: version.time, cache: context.cache });
  const { report, facts } = await lintSource(source, {
    config: context.config,
    root: context.repo.root,
    ...(context.preset === undefined ? {} : { preset: context.preset }),
  });
  context.counts.linted += 1;
  const verdict: CachedVerdict = {
    status: facts.status,
    agent: facts.agent,
    command: facts.command,
    ok: report.ok,
    phantom: facts.phantom !== undefined,
    failures: report.results
      .filter((result) => result.level === "fail")
      .map(({ ruleId, messageId, message, pointer }) => (pointer === undefined ? { ruleId, messageId, message } : { ruleId, messageId, message, pointer })),
  };
  // A rule that crashed may not crash next time: only a whole verdict is kept.
  if (!report.internalError) context.results?.set(version, verdict);
  return judgedAs(where, verdict, superseded, report.internalError);
}

/** The audited return of a version's verdict: an in_progress version that a later one replaced is early metadata, not judged. */
function judgedAs(where: { commit: string; date: string; path: string }, verdict: CachedVerdict, superseded: boolean, internalError: boolean): AuditedReturn {
  const early = superseded && verdict.status === IN_PROGRESS;
  // Written out, one shape for every return: an object literal that spreads another first is V8's slow
  // path, and the report of a history stringifies tens of thousands of these.
  return {
    commit: where.commit,
    date: where.date,
    path: where.path,
    status: verdict.status,
    agent: verdict.agent,
    command: verdict.command,
    ok: early || verdict.ok,
    phantom: !early && verdict.phantom,
    early,
    failures: early ? [] : verdict.failures,
    internalError,
  };
}
