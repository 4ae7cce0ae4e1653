import path from "node:path";
import { GitObjectCache, ReturnlintError, createGitFileView, gitEnvironment, mapOrdered, openGitObjects, type GitFileView, type Importer } from "@returnlint/core";
import { maxInputBytes } from "@returnlint/api";
import { ResultCache, resultsKey, type CachedWalk } from "./cache.js";
import { auditConfig } from "./config.js";
import { renderJson, type AuditDocument } from "./document.js";
import { renderNdjson } from "./ndjson.js";
import { forgeOf, type Forge } from "./forge.js";
import { cutCommits, isAncestor, openRepository, remoteUrl, resolveCommit, walkVersions, type Repository, type Version } from "./repository.js";
import { knownOutcome, lintVersion, type AuditedReturn, type UnreadableReturn } from "./returns.js";
import { printable, percent, renderStylish, thousands, visible } from "./stylish.js";
import { SummaryBuilder } from "./summary.js";

/** What to audit: `returnlint audit`'s options, its arguments checked. */
export interface AuditOptions {
  /** The repository as the user named it (a clone, a folder in one, or a bare repository), resolved from `cwd`. */
  readonly repo: string;
  readonly cwd: string;
  /** The environment: git runs in a cleaned copy of it, and RETURNLINT_MAX_INPUT_BYTES bounds a version. */
  readonly env: NodeJS.ProcessEnv;
  /** The revision whose history is walked (default HEAD, where an empty history is no error). */
  readonly rev?: string;
  /** Only versions committed on or after `since` and on or before `until` (author date). */
  readonly since?: Date;
  readonly until?: Date;
  /** A config file (relative to `cwd`) instead of the one committed at the tip of the history. */
  readonly config?: string;
  readonly preset?: string;
  /** Imports a config file and the modules it names (the bin lends its loader's); Node's `import()` when absent. */
  readonly importer?: Importer;
  /** `--trust-repo-config`: the config committed in the audited repository may run code (a JavaScript config, rule and preset modules). */
  readonly trustRepoConfig?: boolean;
  /** Told what the audit is doing, for a progress line. */
  readonly progress?: AuditProgress;
  /**
   * Keep each version's result in `dir` (`auditCacheDir`), and take it from there next time: a
   * second audit of a repository lints only the versions it has not seen under the same config,
   * rules (`version`, returnlint's) and folder. No cache when absent.
   */
  readonly cache?: { readonly dir: string; readonly version: string };
}

/** Where an audit says how far it got: `tick`'s line is worked out only when it is drawn. */
export interface AuditProgress {
  show(line: string): void;
  tick(line: () => string): void;
  done(line: string): void;
}

export interface AuditRun {
  readonly document: AuditDocument;
  /** Versions linted in this run; the rest of the returns came from the cache. */
  readonly linted: number;
  /** Why the cache could not be written, when it could not; else null. */
  readonly cacheProblem: string | null;
  /** The forge the repository's remote is on, for links to its commits; null when none is known. */
  readonly forge: Forge | null;
}

export type AuditFormat = "stylish" | "json" | "ndjson" | "html";

/** Versions validated at once: enough to keep both git processes busy while some wait on a large tree. */
const CONCURRENCY = 64;

/** Validates every committed version of every `.return-meta.json` against the tree of its commit; the report, as a document. */
export async function runAudit(options: AuditOptions): Promise<AuditRun> {
  const started = performance.now();
  const rev = options.rev ?? "HEAD";
  if (rev === "" || rev.startsWith("-") || /[\s\0]/.test(rev)) throw new ReturnlintError("USAGE", `--rev must name a revision (a branch, a tag or a commit); received "${rev}".`);
  const maxBytes = maxInputBytes(options.env);
  const { since, until, progress } = options;

  const given = options.repo;
  const env = gitEnvironment(options.env);
  const repo = await openRepository(path.resolve(options.cwd, given), given, env);
  // Two questions git answers at once.
  const [tip, remote] = await Promise.all([resolveCommit(repo, rev, env), remoteUrl(repo, env)]);
  if (tip === null && options.rev !== undefined) {
    throw new ReturnlintError("USAGE", `Cannot audit ${given}: "${rev}" names no commit in ${repo.root}.`);
  }

  const objects = openGitObjects(repo.gitDir, { env });
  try {
    const cache = new GitObjectCache(objects);
    const tipView = tip === null ? null : await viewOf(cache, repo.root, tip);
    const { config, source, kind, refused, unapplied } = await auditConfig(repo, rev, tipView, options, options.cwd);

    const kept = options.cache === undefined ? undefined : { dir: options.cache.dir, key: resultsKey(config, { root: repo.root, version: options.cache.version, maxBytes, ...(options.preset === undefined ? {} : { preset: options.preset }) }) };
    // git walks the commits since the last audit while its results are parsed.
    const keptTip = kept === undefined ? undefined : ResultCache.keptTip(kept.dir, kept.key);
    const walking = keptTip === undefined || tip === null || keptTip === tip ? undefined : walkSince(repo, keptTip, tip, env);
    const results = kept === undefined ? undefined : ResultCache.open(kept.dir, kept.key);
    progress?.show(`Reading the history of ${printable(repo.root, 80)}…`);
    const walked = (tip === null ? [] : await walkFrom(repo, tip, env, results, walking)).filter(
      (version) => (since === undefined || version.time >= since.getTime()) && (until === undefined || version.time <= until.getTime()),
    );
    // A shallow clone's cut shows every file of its tree as added there: when those versions were written is not known.
    const cut = repo.shallow ? await cutCommits(objects, walked.filter((version) => version.parentless).map((version) => version.commit)) : new Set<string>();
    const inRange = walked.filter((version) => !cut.has(version.commit));

    // The last version of each file in range: an in_progress version before it is early metadata.
    const lastOfPath = new Map(inRange.map((version, index) => [version.path, index]));
    const versions = inRange.map((version, index) => ({ version, superseded: lastOfPath.get(version.path) !== index }));

    const summary = new SummaryBuilder();
    const returns: AuditedReturn[] = [];
    const unreadable: UnreadableReturn[] = [];
    const counts = { linted: 0, cached: 0 };
    const context = { repo, cache, config, maxBytes, counts, ...(results === undefined ? {} : { results }), ...(options.preset === undefined ? {} : { preset: options.preset }) };
    // What the cache keeps is judged at once; the other versions are linted, many at a time, and each outcome taken in the history's order.
    const known = versions.map(({ version, superseded }) => knownOutcome(version, superseded, context));
    const linting = mapOrdered(
      versions.filter((_, index) => known[index] === undefined),
      CONCURRENCY,
      ({ version, superseded }) => lintVersion(version, superseded, context),
    );
    const linted = async (): Promise<AuditedReturn | UnreadableReturn | undefined> => {
      const step = await linting.next();
      return step.done === true ? undefined : step.value;
    };
    for (const [index, kept] of known.entries()) {
      const outcome = kept ?? (await linted());
      if (outcome === undefined) throw new ReturnlintError("INTERNAL", `the audit lost the outcome of ${versions[index]?.version.path ?? "a version"}.`);
      if ("unreadable" in outcome) {
        unreadable.push(outcome);
        summary.unreadable += 1;
      } else {
        returns.push(outcome);
        summary.add(outcome);
      }
      progress?.tick(() => `Auditing ${printable(repo.root, 80)}: ${count(returns.length + unreadable.length, "return")} of ${thousands(inRange.length)}, ${phantomSoFar(returns)} phantom`);
    }
    const cacheProblem = results?.save() ?? null;
    const fromCache = counts.cached === 0 ? "" : ` (${count(counts.cached, "version")} from the cache)`;
    progress?.done(`Audited ${count(inRange.length, "return")} in ${((performance.now() - started) / 1000).toFixed(2)} s${fromCache}`);

    const forge = forgeOf(remote);
    const document: AuditDocument = {
      repo: { path: repo.root, bare: repo.bare, shallow: repo.shallow, rev, head: tip, web: forge?.web ?? null },
      shallowCut: repo.shallow ? { commits: [...cut], versions: walked.length - inRange.length } : null,
      range: {
        since: since?.toISOString() ?? null,
        until: until?.toISOString() ?? null,
        // History order is not date order (a rebased or merged branch keeps its authors' dates).
        first: returns.reduce<string | null>((earliest, audited) => (earliest === null || audited.date < earliest ? audited.date : earliest), null),
        last: returns.reduce<string | null>((latest, audited) => (latest === null || audited.date > latest ? audited.date : latest), null),
      },
      config: source,
      configKind: kind,
      configRefused: refused,
      unappliedConfig: unapplied,
      summary: summary.build(),
      returns,
      unreadable,
    };
    return { document, forge, linted: counts.linted, cacheProblem };
  } finally {
    objects.close();
  }
}

/** The report in `format`; `verdict` is the stylish report's last line (`auditVerdict`). The HTML page is built only when asked for. */
export async function renderAudit(run: AuditRun, format: AuditFormat, verdict: string): Promise<string> {
  if (format === "json") return renderJson(run.document);
  if (format === "ndjson") return renderNdjson(run.document);
  if (format === "html") return (await import("./html.js")).renderHtml(run.document, run.forge, new Date());
  return renderStylish(run.document, verdict);
}

/** What went wrong beside the findings, one line each: the versions that could not be read, the returns a rule crashed on. */
export function auditNotices(document: AuditDocument): string[] {
  // A notice names a path from the repository: written out, as every name is on the terminal.
  const notices = document.unreadable.map((skipped) => visible(skipped.unreadable));
  const crashed = document.summary.internalErrors;
  if (crashed > 0) notices.push(`a rule crashed on ${count(crashed, "return")}: their verdicts cannot be trusted (run "returnlint check" on one for the details).`);
  return notices;
}

/** A walk of the commits of `tip` since an earlier audit's tip `since`, started at once: whether `since` is still in the history, the versions after it, and a way to stop git. */
interface WalkSince {
  readonly since: string;
  readonly ancestor: Promise<boolean>;
  readonly versions: Promise<Version[]>;
  stop(): void;
}

function walkSince(repo: Repository, since: string, tip: string, env: NodeJS.ProcessEnv): WalkSince {
  const controller = new AbortController();
  const versions = walkVersions(repo, tip, env, { tip: since }, controller.signal);
  const ancestor = isAncestor(repo, since, tip, env);
  // Either may be left unread (a walk stopped, or not needed): its failure is then not heard.
  versions.catch(() => undefined);
  ancestor.catch(() => undefined);
  return {
    since,
    ancestor,
    versions,
    stop: () => {
      controller.abort();
    },
  };
}

/**
 * The versions in the history of `tip`: the cache's last walk, and a walk of only the commits
 * since its tip, when that tip is in `tip`'s history (one more commit on a branch, ten more after a
 * pull); a whole walk otherwise (no cache, another branch, a history rewritten). The walk is kept.
 * `started` is a walk since the tip the cache file named, begun before the file was parsed.
 */
async function walkFrom(repo: Repository, tip: string, env: NodeJS.ProcessEnv, results: ResultCache | undefined, started: WalkSince | undefined): Promise<readonly Version[]> {
  const last = results?.lastWalk();
  const since = last === undefined || last.tip === tip ? undefined : started?.since === last.tip ? started : walkSince(repo, last.tip, tip, env);
  if (started !== since) started?.stop();
  const whole = () => walkVersions(repo, tip, env);
  const versions = last === undefined ? await whole() : since === undefined ? last.versions : await continueWalk(last, since, whole);
  results?.keepWalk({ tip, versions });
  return versions;
}

/** The last walk and the versions after its tip, when that tip is in the history; else `whole()`. git's walk since the tip is stopped when it is not read. */
async function continueWalk(last: CachedWalk, since: WalkSince, whole: () => Promise<Version[]>): Promise<readonly Version[]> {
  let ancestor = false;
  try {
    ancestor = await since.ancestor;
  } finally {
    if (!ancestor) since.stop();
  }
  if (!ancestor) return whole();
  // A blob the last walk found is the version it was, first written before its tip.
  const known = new Set(last.versions.map((version) => version.blob));
  return [...last.versions, ...(await since.versions).filter((version) => !known.has(version.blob))];
}

async function viewOf(cache: GitObjectCache, root: string, commit: string): Promise<GitFileView> {
  const tree = await cache.objects.info(`${commit}^{tree}`);
  if (tree === null) throw new ReturnlintError("INTERNAL", `git gives no tree for commit ${commit}.`);
  return createGitFileView({ cache, commit, tree: tree.oid, root, mtimeMs: 0 });
}

/** The audit in one line: `[PASS]`, `[WARN]`, `[FAIL]` or `[INFO]`, and why (more phantom work than `maxPhantom` allows fails). */
export function auditVerdict(document: AuditDocument, maxPhantom: number | undefined): string {
  const { summary } = document;
  if (summary.returns === 0) {
    const ranged = document.range.since !== null || document.range.until !== null ? " in that range" : "";
    const atCut = document.shallowCut?.versions ?? 0;
    if (atCut > 0 && summary.unreadable === 0) return `[WARN] None of the ${count(atCut, "version")} of .return-meta.json${ranged} could be audited: all are at the cut of this shallow clone`;
    return summary.unreadable > 0
      ? `[FAIL] ${count(summary.unreadable, "version")} of .return-meta.json could not be read, and none was audited`
      : `[INFO] No .return-meta.json was committed in the history of ${document.repo.rev}${ranged}`;
  }
  const of = `of ${count(summary.returns, "return")}`;
  const failed = `${thousands(summary.failed)} ${of} failed validation (${percent(summary.failureRate)})`;
  if (summary.phantom === 0) return summary.failed === 0 ? `[PASS] All ${count(summary.returns, "return")} passed; no phantom work` : `[WARN] No phantom work; ${failed}`;
  const phantom = `${thousands(summary.phantom)} ${of} claimed work that was not in their commit (${percent(summary.phantomRate)} phantom work)`;
  if (maxPhantom !== undefined && summary.phantom > maxPhantom) return `[FAIL] ${phantom}, more than --max-phantom ${String(maxPhantom)}; ${thousands(summary.failed)} failed validation`;
  return `[WARN] ${phantom}; ${thousands(summary.failed)} failed validation`;
}

const phantomSoFar = (returns: readonly AuditedReturn[]): string => thousands(returns.filter((audited) => audited.phantom).length);

function count(n: number, word: string): string {
  return `${thousands(n)} ${word}${n === 1 ? "" : "s"}`;
}
