import {
  ABSENT_FATES,
  artifactPath,
  claimedAgent,
  MAX_ARTIFACT_PATHS,
  COMMAND_SUCCESS,
  commandOfStatus,
  fateOf,
  IN_PROGRESS,
  isObject,
  isSuccessLike,
  quoted,
  type ArtifactFate,
  type ClaimedArtifact,
  type Claims,
  type FileView,
  type FormatName,
} from "@returnlint/core";

/**
 * What a return claims, worked out once, after its rules ran, from the same parse and the same
 * file view: every output (check's reports, scan's table, audit's tables and HTML, the hooks'
 * verdict files, the MCP server) reads these and works out none of them again.
 */
export interface ReturnFacts {
  /** The command whose rules ran: the caller's, else the one the return names (`commandOfReturn`). */
  readonly command: string | null;
  /** The agent: the caller's word, else the return's `metadata.agent_type` (or `agent_type`); null when neither says. */
  readonly agent: string | null;
  readonly status: string | null;
  /** The status claims finished work (researched, planned, implemented, completed, or a word like done). */
  readonly success: boolean;
  /** Each artifact the return claims, with what became of it: the first MAX_LISTED_ARTIFACTS. */
  readonly artifacts: readonly ArtifactFact[];
  /** How many more artifacts the return claims than `artifacts` lists (phantom work counts them all). */
  readonly unlisted: number;
  /** Phantom work (see `phantomWork`), with why; undefined when there is none. */
  readonly phantom?: string;
}

/** One claimed artifact: where the return names it, the path it gives, and its fate. */
export type ArtifactFact = { readonly pointer: string; readonly path: string } & ArtifactFate;

/** A return's claims, as `factsOf` needs them from its report. */
export interface FactsInput {
  readonly value: unknown;
  readonly format: FormatName;
  readonly command: string | null;
  /** What the return claims, and where (the runner's, from its format or its contract). */
  readonly claims: Claims;
}

/**
 * How many artifacts are listed with their fates (and looked at for hints: an archived twin, a near
 * miss, a path inside the root): a return that claims a million is judged on all of them, and
 * described by its first hundred.
 */
export const MAX_LISTED_ARTIFACTS = 100;

/** `agent`: the caller's word on the agent (`--agent`, the host's payload), if any. */
export function factsOf(input: FactsInput, agent: string | undefined, files: FileView): ReturnFacts {
  const { value, claims } = input;
  const { status } = claims;
  // Under a contract its success status says whether the claims count; in a format, the status vocabulary.
  const success = claims.counted ?? (status !== null && isSuccessLike(status));
  const entries = claims.artifacts;
  // Phantom work looks at every artifact (each path once, the first MAX_ARTIFACT_PATHS different ones,
  // as the artifacts rule does) until two are absent; the list of fates is made when an output reads it
  // (scan --quiet never does).
  const absent: ArtifactFact[] = [];
  const looked = new Set<string>();
  let position = 0;
  for (const entry of entries) {
    const { path } = entry;
    position += 1;
    if (absent.length === 2 || looked.size === MAX_ARTIFACT_PATHS) break;
    if (looked.has(path)) continue;
    looked.add(path);
    const checked = files.check(path);
    if (checked.ok && checked.size > 0) continue;
    // Options made only for an artifact that is not there (most returns have none).
    const fact = factOf(entry, files, position <= MAX_LISTED_ARTIFACTS ? { hints: true, alsoClaimed: entries } : NO_HINTS);
    if (ABSENT_FATES.has(fact.fate)) absent.push(fact);
  }
  const claimed = claims.artifactCount;
  const phantom = success ? phantomWork(input, claimed, absent) : undefined;
  return new Facts(input.command, agent ?? claimedAgent(value) ?? null, status, success, Math.max(0, claimed - MAX_LISTED_ARTIFACTS), phantom, entries, files);
}

/**
 * A return's facts: plain fields, and the list of fates made when an output first reads it. A
 * class, not an object literal with a getter and a spread: one is made for every return a scan checks.
 */
class Facts implements ReturnFacts {
  readonly phantom?: string;
  #listed: ArtifactFact[] | undefined;
  readonly #entries: Iterable<ClaimedArtifact>;
  readonly #files: FileView;

  constructor(
    readonly command: string | null,
    readonly agent: string | null,
    readonly status: string | null,
    readonly success: boolean,
    readonly unlisted: number,
    phantom: string | undefined,
    entries: Iterable<ClaimedArtifact>,
    files: FileView,
  ) {
    if (phantom !== undefined) this.phantom = phantom;
    this.#entries = entries;
    this.#files = files;
  }

  get artifacts(): readonly ArtifactFact[] {
    this.#listed ??= listedArtifacts(this.#entries, this.#files);
    return this.#listed;
  }
}

/** The first MAX_LISTED_ARTIFACTS claimed artifacts with their fates (the file view answers again from its cache). */
function listedArtifacts(entries: Iterable<ClaimedArtifact>, files: FileView): ArtifactFact[] {
  const listed: ArtifactFact[] = [];
  const hints = { hints: true, alsoClaimed: entries };
  for (const entry of entries) {
    if (listed.length === MAX_LISTED_ARTIFACTS) break;
    listed.push(factOf(entry, files, hints));
  }
  return listed;
}

/** One claimed artifact and its fate; with hints, an archived twin, a near miss (none the return also claims), a path inside the root are looked for. */
function factOf({ path, pointer }: ClaimedArtifact, files: FileView, options: Parameters<typeof fateOf>[2]): ArtifactFact {
  // Paths are the return's own text: quoted, never longer than a message may quote.
  return { pointer, path: quoted(path), ...fateOf(path, files, options) };
}

/**
 * Phantom work: a return whose status claims finished work while the work it claims is not there
 * inside the root. By format, as each states its claims:
 *
 * 1. a multi-task return claims tasks: it lists no completed task (`metadata.tasks_completed`);
 * 2. a handoff names artifacts only when it has any of its own (the metadata file beside it
 *    carries the task's): one it names is missing or empty;
 * 3. any other return: it names no artifact at all, or one it names is missing (a near miss
 *    included) or empty.
 *
 * An artifact that is elsewhere (archived with its task, an absolute path, outside the root, a
 * folder) is not phantom work: its fate says what it is. `absent`: the first artifacts whose fate
 * is absent (two at most: the reason names the first, and says whether there are more).
 */
function phantomWork(input: FactsInput, claimed: number, absent: readonly ArtifactFact[]): string | undefined {
  const { value } = input;
  if (input.format === "multi-task") {
    const completed = isObject(value) && isObject(value.metadata) ? value.metadata.tasks_completed : undefined;
    return Array.isArray(completed) && completed.length > 0 ? undefined : "it lists no completed task";
  }
  // A contract whose return holds no list to name files in claims none.
  if (claimed === 0) return input.format === "handoff" || (input.claims.fromContract && input.claims.artifactList === undefined) ? undefined : "it names no artifact";
  const [first] = absent;
  if (first === undefined) return undefined;
  return `${first.path} is ${first.fate === "empty" ? "empty" : "not there"}${absent.length > 1 ? " (and more)" : ""}`;
}

const NO_HINTS = { hints: false } as const;

/** The different paths a return claims as artifacts, the first MAX_ARTIFACT_PATHS (what a git view loads before the rules run). */
export function claimedPaths(value: unknown): string[] {
  if (!isObject(value) || !Array.isArray(value.artifacts)) return [];
  const paths = new Set<string>();
  for (const entry of value.artifacts as unknown[]) {
    const path = artifactPath(entry);
    if (path !== undefined) paths.add(path);
    if (paths.size === MAX_ARTIFACT_PATHS) break;
  }
  return [...paths];
}

/**
 * The command a return says it answers, when the caller does not say, from the evidence in
 * this order:
 *
 * 1. `in_progress`: none. Early metadata is written while the agent works; a command would make
 *    the check a postflight gate, which fails it.
 * 2. a contextual success status (researched → research, planned → plan, implemented →
 *    implement), refined by the delegation path when its command has the same success status
 *    (`planned` from `["orchestrator", "revise", …]` is /revise's);
 * 3. the delegation path's command (`metadata.delegation_path[1]`), when returnlint knows it:
 *    so a `partial` return from /implement is checked, and counted, as /implement's;
 * 4. none.
 */
export function commandOfReturn(value: unknown): string | null {
  if (!isObject(value)) return null;
  const status = typeof value.status === "string" ? value.status : null;
  if (status === IN_PROGRESS) return null;
  const trail = isObject(value.metadata) ? value.metadata.delegation_path : undefined;
  const step = Array.isArray(trail) ? (trail as unknown[])[1] : undefined;
  const named = typeof step === "string" ? step.replace(/^\//, "") : "";
  const delegated = Object.hasOwn(COMMAND_SUCCESS, named) ? named : undefined;
  const byStatus = commandOfStatus(status);
  if (byStatus !== null) return delegated !== undefined && COMMAND_SUCCESS[delegated] === status ? delegated : byStatus;
  return delegated ?? null;
}
