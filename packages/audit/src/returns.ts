import {
  COMMAND_SUCCESS,
  GitObjectCache,
  commandOfStatus,
  createGitFileView,
  decodeUtf8,
  isObject,
  isSuccessLike,
  parseReturn,
  stripBom,
  taskOfPath,
  type FileView,
  type LoadedConfig,
} from "@returnlint/core";
import { validate, type ValidationReport } from "@returnlint/api";
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
  /** The command the return answers, as inferred (see `commandOf`); null when nothing says. */
  readonly command: string | null;
  readonly ok: boolean;
  /** A success status whose artifacts do not all exist in the commit as non-empty files (or that names none). */
  readonly phantom: boolean;
  readonly failures: readonly AuditFailure[];
  /** A rule crashed on this return: its verdict cannot be trusted. */
  readonly internalError: boolean;
}

/** A version that could not be validated at all: too large, or its object missing from the repository. */
export interface UnreadableReturn {
  readonly commit: string;
  readonly date: string;
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
}

/**
 * Rules run again, on complete answers, while they asked the view for something it
 * had not loaded (a custom rule looking at a path the return does not list as an
 * artifact): each round loads what the last one missed. A rule that keeps asking for
 * new paths gets `unreadable` for those after the last round.
 */
const MAX_ROUNDS = 4;

/** Validates one version against the tree of the commit that introduced it. */
export async function auditVersion(version: Version, context: AuditContext): Promise<AuditedReturn | UnreadableReturn> {
  const date = new Date(version.time).toISOString();
  const where = { commit: version.commit, date, path: version.path };
  const object = await context.cache.objects.contents(version.blob, context.maxBytes + 1);
  if (object?.type !== "blob") return { ...where, unreadable: `Cannot read ${version.path} at ${version.commit}: the object ${version.blob} is missing from the repository.` };
  if (object.size > context.maxBytes) {
    return {
      ...where,
      unreadable: `Cannot read ${version.path} at ${version.commit}: it is ${String(object.size)} bytes, more than the ${String(context.maxBytes)} read (RETURNLINT_MAX_INPUT_BYTES).`,
    };
  }
  const text = stripBom(decodeUtf8(object.data));
  // Parsed once, here: the command and the artifacts to fetch come from it, and validate uses it as it is.
  const parse = parseReturn(text);
  const value = parse.ok ? parse.value : undefined;
  const status = isObject(value) && typeof value.status === "string" ? value.status : null;
  const command = commandOf(value, status);
  const files = createGitFileView({ cache: context.cache, commit: version.commit, tree: version.tree, root: context.repo.root, mtimeMs: version.time });
  const named = artifactPaths(value);
  await files.prefetch(named.flatMap((artifact) => (artifact === undefined ? [] : [artifact])));
  const task = taskOfPath(version.path);
  let report: ValidationReport;
  for (let round = 1; ; round += 1) {
    report = await validate(text, {
      config: context.config,
      files,
      command,
      parsed: parse,
      // Time-dependent rules judge the return as of its commit.
      now: new Date(version.time),
      ...(task === undefined ? {} : { task: String(Number(task)) }),
      ...(context.preset === undefined ? {} : { preset: context.preset }),
    });
    if (round === MAX_ROUNDS || !(await files.loadMissing())) break;
  }
  const agent = agentOf(value);
  return {
    ...where,
    status,
    agent,
    command,
    ok: report.ok,
    phantom: status !== null && isSuccessLike(status) && !allExist(named, files),
    failures: report.results
      .filter((result) => result.level === "fail")
      .map(({ ruleId, messageId, message, pointer }) => (pointer === undefined ? { ruleId, messageId, message } : { ruleId, messageId, message, pointer })),
    internalError: report.internalError,
  };
}

/**
 * What each artifact entry names, as the artifacts rule reads it: a bare path, or an
 * object's `path`; undefined for an entry that names no path. Empty when the return
 * lists no artifacts (or has no list at all).
 */
function artifactPaths(value: unknown): (string | undefined)[] {
  if (!isObject(value) || !Array.isArray(value.artifacts)) return [];
  return value.artifacts.map((entry: unknown) => (typeof entry === "string" ? entry : isObject(entry) && typeof entry.path === "string" ? entry.path : undefined));
}

/** Whether there is at least one artifact and every one is a non-empty file in the view. */
function allExist(named: readonly (string | undefined)[], files: FileView): boolean {
  return (
    named.length > 0 &&
    named.every((artifact) => {
      if (artifact === undefined) return false;
      const checked = files.check(artifact);
      return checked.ok && checked.size > 0;
    })
  );
}

function agentOf(value: unknown): string | null {
  if (!isObject(value)) return null;
  const claimed = isObject(value.metadata) ? value.metadata.agent_type : value.agent_type;
  return typeof claimed === "string" && claimed.trim() !== "" ? claimed : null;
}

/**
 * The command a metadata file answers: the delegation path's command
 * (`["orchestrator", "implement", …]`) when it is one returnlint knows and agrees
 * with a success status; else the command of a contextual success status
 * (researched → research, planned → plan, implemented → implement); else none.
 * So a `partial` return from /implement is checked, and counted, as /implement's.
 */
export function commandOf(value: unknown, status: string | null): string | null {
  const path = isObject(value) && isObject(value.metadata) ? value.metadata.delegation_path : undefined;
  const step = Array.isArray(path) ? (path as unknown[])[1] : undefined;
  const named = typeof step === "string" ? step.replace(/^\//, "") : "";
  const delegated = Object.hasOwn(COMMAND_SUCCESS, named) ? named : undefined;
  const byStatus = commandOfStatus(status) ?? undefined;
  if (byStatus !== undefined) return delegated !== undefined && COMMAND_SUCCESS[delegated] === status ? delegated : byStatus;
  return delegated ?? null;
}
