import { spawn } from "node:child_process";
import { statSync } from "node:fs";
import { METADATA_FILE, ReturnlintError, gitEnvironment, type GitObjectReader } from "@returnlint/core";

/** The repository an audit reads, as git describes it. */
export interface Repository {
  /** The top-level folder of a clone, or the git directory of a bare repository: what artifact paths are relative to. */
  readonly root: string;
  readonly gitDir: string;
  readonly bare: boolean;
  /** A shallow clone: history before its cut is not there to audit. */
  readonly shallow: boolean;
}

/** One commit of the walk that wrote a metadata file. */
export interface Version {
  readonly commit: string;
  /** The commit has no parent in this repository: a root, or a shallow clone's cut. */
  readonly parentless: boolean;
  /** The commit's root tree. */
  readonly tree: string;
  /** Author time, milliseconds since the epoch: when the agent's work was written. */
  readonly time: number;
  readonly path: string;
  readonly blob: string;
}

interface GitRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Options every git call of an audit starts with: nothing the audited repository configures may run a program or sign. */
const SAFE = ["--no-pager", "-c", "core.fsmonitor=false", "-c", "log.showSignature=false", "-c", "core.quotePath=false"];

const GIT_MISSING = "git was not found on the PATH: returnlint audit reads history with the git command. Install git (apt-get install git) and run it again.";

/**
 * How long a question about the repository (where it is, what a revision names, its remote) may
 * take: each is answered in milliseconds, unless a file git reads on the way cannot be read to its
 * end. The repository's config is whatever its writer made it, and an `include.path` there that
 * names a FIFO (or `.git/config` that is one) blocks git for ever: the audit stops and says so.
 */
export const GIT_QUESTION_TIMEOUT_MS = 10_000;

/** Runs git to the end and collects what it printed; stopped (a USAGE error naming `what`) when it takes longer than `deadline.ms`. */
export function runGit(args: readonly string[], env: NodeJS.ProcessEnv, deadline?: { readonly ms: number; readonly what: string }): Promise<GitRun> {
  return new Promise((resolve, reject) => {
    const child = spawn("git", [...SAFE, ...args], { env, stdio: ["ignore", "pipe", "pipe"] });
    const timer =
      deadline === undefined
        ? undefined
        : setTimeout(() => {
            child.kill("SIGKILL");
            reject(
              new ReturnlintError(
                "USAGE",
                `Cannot audit ${deadline.what}: git did not answer within ${String(deadline.ms / 1000)} s. A file it reads first may never end: look for a FIFO or a device at .git/config, or at a file that config includes (include.path, includeIf).`,
              ),
            );
          }, deadline.ms);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    child.on("error", (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(error.code === "ENOENT" ? new ReturnlintError("USAGE", GIT_MISSING) : error);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? 128, stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8") });
    });
  });
}

/** git's own first line of complaint, for a sentence of ours. */
function said(run: GitRun): string {
  const line = run.stderr.trim().split("\n")[0]?.replace(/^fatal: /, "") ?? "";
  return line === "" ? `git exited ${String(run.code)}` : line;
}

/** Finds the repository at or above `dir` (a clone, a folder in one, or a bare repository); exit 2 when there is none. */
export async function openRepository(dir: string, shown: string, env: NodeJS.ProcessEnv = gitEnvironment()): Promise<Repository> {
  try {
    if (!statSync(dir).isDirectory()) throw new ReturnlintError("USAGE", `Cannot audit ${shown}: it is not a directory. Give the folder of a clone or a bare repository.`);
  } catch (error) {
    if (error instanceof ReturnlintError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new ReturnlintError("USAGE", `Cannot audit ${shown}: ${code === "ENOENT" ? "no such directory" : code === "EACCES" ? "permission denied" : String(code)}.`);
  }
  const question = { ms: GIT_QUESTION_TIMEOUT_MS, what: shown };
  const probe = await runGit(["-C", dir, "rev-parse", "--absolute-git-dir", "--is-bare-repository", "--is-shallow-repository"], env, question);
  if (probe.code !== 0) {
    const reason = said(probe);
    // git's own "not a git repository" would only repeat ours: it is said once.
    const why = /not a git repository/i.test(reason) ? "it is not in a git repository (nor is any folder above it)" : `git cannot read it (${reason})`;
    throw new ReturnlintError("USAGE", `Cannot audit ${shown}: ${why}. Give the folder of a clone or a bare repository.`);
  }
  const [gitDir = "", bare = "", shallow = ""] = probe.stdout.split("\n");
  let root = gitDir;
  if (bare !== "true") {
    const top = await runGit(["-C", dir, "rev-parse", "--show-toplevel"], env, question);
    // Inside the .git folder of a clone there is no work tree: the git directory stands for it.
    if (top.code === 0 && top.stdout.trim() !== "") root = top.stdout.trim();
  }
  return { root, gitDir, bare: bare === "true", shallow: shallow === "true" };
}

/** The repository's `remote.origin.url`, or null when it has none. */
export async function remoteUrl(repo: Repository, env: NodeJS.ProcessEnv = gitEnvironment()): Promise<string | null> {
  const remote = await runGit(["--git-dir", repo.gitDir, "config", "--get", "remote.origin.url"], env, { ms: GIT_QUESTION_TIMEOUT_MS, what: repo.root });
  return remote.code === 0 ? remote.stdout.trim() || null : null;
}

/** Whether `ancestor` is in the history of `commit` (the same commit counts): false too when git no longer has it. */
export async function isAncestor(repo: Repository, ancestor: string, commit: string, env: NodeJS.ProcessEnv = gitEnvironment()): Promise<boolean> {
  const run = await runGit(["--git-dir", repo.gitDir, "merge-base", "--is-ancestor", ancestor, commit], env, { ms: GIT_QUESTION_TIMEOUT_MS, what: repo.root });
  return run.code === 0;
}

/** The commit a revision names, or null when it names none (an empty repository's HEAD). */
export async function resolveCommit(repo: Repository, revision: string, env: NodeJS.ProcessEnv = gitEnvironment()): Promise<string | null> {
  const run = await runGit(["--git-dir", repo.gitDir, "rev-parse", "--verify", "--quiet", `${revision}^{commit}`], env, { ms: GIT_QUESTION_TIMEOUT_MS, what: repo.root });
  const oid = run.stdout.trim();
  return run.code === 0 && OBJECT_ID.test(oid) ? oid : null;
}

/** A whole object id as git writes it: SHA-1 or SHA-256, in hex. */
export const OBJECT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

const RECORD = "\x1e";
const FIELD = "\x1f";
const PATHSPEC = `:(glob)**/${METADATA_FILE}`;

/**
 * Every distinct version of every `.return-meta.json` (any depth) in the history of
 * `tip`, oldest first, each with the commit that introduced it: one `git log` for the
 * whole walk. A version is a blob: the same content moved to an archive folder (or
 * merged in from a branch) is the version it was, audited once, in the commit that
 * first wrote it. Only regular files count (a symlink named like a metadata file is not one).
 *
 * `after` continues an earlier walk: only the commits of `tip` that `after.tip` does not hold are
 * read (a blob that walk found is a version of its own: the caller leaves it out). `signal` stops git.
 */
export function walkVersions(repo: Repository, tip: string, env: NodeJS.ProcessEnv = gitEnvironment(), after?: { readonly tip: string }, signal?: AbortSignal): Promise<Version[]> {
  const args = [
    "--git-dir",
    repo.gitDir,
    "log",
    "--reverse",
    "--topo-order",
    // Merges too, against each parent: a version first written while resolving a merge is seen there.
    "-m",
    "--raw",
    "-z",
    "--no-abbrev",
    "--no-renames",
    "--no-color",
    "--no-ext-diff",
    "--no-textconv",
    `--format=${RECORD}%H${FIELD}%T${FIELD}%at${FIELD}%P`,
    tip,
    ...(after === undefined ? [] : [`^${after.tip}`]),
    "--",
    PATHSPEC,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn("git", [...SAFE, ...args], { env, stdio: ["ignore", "pipe", "pipe"], ...(signal === undefined ? {} : { signal }) });
    const parser = new LogParser();
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      parser.push(chunk);
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk.toString("utf8")).slice(-2000);
    });
    child.on("error", (error: NodeJS.ErrnoException) => {
      reject(error.code === "ENOENT" ? new ReturnlintError("USAGE", GIT_MISSING) : error);
    });
    child.on("close", (code) => {
      if (code !== 0) {
        reject(new ReturnlintError("USAGE", `Cannot read the history of ${repo.root}: ${said({ code: code ?? 128, stdout: "", stderr })}.`));
        return;
      }
      resolve(parser.end());
    });
  });
}

/**
 * `git log -z --raw` output: a record `\x1e<commit>\x1f<tree>\x1f<time>`, then for each
 * file changed `:<mode> <mode> <oid> <oid> <status>` and its path, every token ended
 * by a NUL. Paths may hold any byte but NUL, so tokens are taken by position, never
 * by what they look like.
 */
class LogParser {
  private rest: Buffer = Buffer.alloc(0);
  private commit: { commit: string; tree: string; time: number; parentless: boolean } | undefined;
  /** The raw entry whose path comes next. */
  private entry: { mode: string; blob: string; status: string } | undefined;
  private readonly seen = new Set<string>();
  private readonly versions: Version[] = [];

  push(chunk: Buffer): void {
    let data = this.rest.length === 0 ? chunk : Buffer.concat([this.rest, chunk]);
    for (let end = data.indexOf(0); end !== -1; end = data.indexOf(0)) {
      this.token(data.toString("utf8", 0, end));
      data = data.subarray(end + 1);
    }
    this.rest = data;
  }

  end(): Version[] {
    if (this.rest.length > 0) this.token(this.rest.toString("utf8"));
    return this.versions;
  }

  private token(token: string): void {
    if (this.entry !== undefined) {
      const { mode, blob, status } = this.entry;
      this.entry = undefined;
      if (this.commit === undefined || this.seen.has(blob)) return;
      // Added, modified or changed type, to a regular file (not deleted, not a symlink or submodule).
      if ((status === "A" || status === "M" || status === "T") && (mode === "100644" || mode === "100755")) {
        this.seen.add(blob);
        const { commit, parentless, tree, time } = this.commit;
        this.versions.push({ commit, parentless, tree, time, path: token, blob });
      }
      return;
    }
    const text = token.startsWith("\n") ? token.slice(1) : token;
    if (text.startsWith(RECORD)) {
      const [commit = "", tree = "", time = "0", parents = ""] = text.slice(1).split(FIELD);
      this.commit = { commit, tree, time: Number(time) * 1000, parentless: parents.trim() === "" };
      return;
    }
    // ":100644 100644 <old oid> <new oid> M"
    const raw = /^:\d+ (\d+) [0-9a-f]+ ([0-9a-f]+) ([A-Z])/.exec(text);
    if (raw !== null) this.entry = { mode: raw[1] ?? "", blob: raw[2] ?? "", status: raw[3] ?? "" };
  }
}

/**
 * The commits of a shallow clone's cut among `commits` (the parentless ones of the walk): a
 * commit whose object names parents that the clone does not have. git shows it without
 * parents, so every file in its tree looks added there; a true root commit names none.
 */
export async function cutCommits(objects: GitObjectReader, commits: Iterable<string>): Promise<Set<string>> {
  const cut = new Set<string>();
  await Promise.all(
    [...new Set(commits)].map(async (commit) => {
      const object = await objects.contents(commit, MAX_COMMIT_HEADER_BYTES);
      if (object?.type !== "commit") return;
      const header = object.data.toString("utf8").split("\n\n", 1)[0] ?? "";
      if (/^parent [0-9a-f]+$/m.test(header)) cut.add(commit);
    }),
  );
  return cut;
}

/** A commit's header (tree, parents, author, committer) is in its first few kilobytes, whatever its message. */
const MAX_COMMIT_HEADER_BYTES = 64 * 1024;
