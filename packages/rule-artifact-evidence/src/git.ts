import { execFile } from "node:child_process";

export type GitProblem = "gitMissing" | "notARepository" | "unknownRevision" | "shallowClone" | "gitFailed";

/** What git says about the artifacts, relative to the base revision. */
export type GitEvidence =
  | {
      readonly ok: true;
      readonly base: string;
      /** Tracked paths whose working-tree content differs from the base (staged or not), or that the index adds. */
      readonly changed: ReadonlySet<string>;
      /** New files git does not track yet (ignored ones excluded). */
      readonly untracked: ReadonlySet<string>;
      /** Paths that exist in the base commit. */
      readonly inBase: ReadonlySet<string>;
    }
  | { readonly ok: false; readonly problem: GitProblem; readonly reason: string };

const TIMEOUT_MS = 10_000;
const MAX_BUFFER = 32 * 1024 * 1024;

type Outcome = { readonly ok: true; readonly stdout: string } | { readonly ok: false; readonly problem: "gitMissing" | "timeout" | "exit"; readonly stderr: string };

function git(root: string, args: readonly string[]): Promise<Outcome> {
  // `-C root` must decide the repository, not a GIT_DIR inherited from a git hook.
  const env: Record<string, string | undefined> = { ...process.env, GIT_OPTIONAL_LOCKS: "0", LC_ALL: "C" };
  delete env.GIT_DIR;
  delete env.GIT_WORK_TREE;
  delete env.GIT_INDEX_FILE;
  return new Promise((resolve) => {
    execFile(
      "git",
      // No fsmonitor hook runs (the repository's config could name any program); pathspecs are literal (an artifact may be called `*.md`).
      ["-C", root, "-c", "core.fsmonitor=false", "--literal-pathspecs", ...args],
      { timeout: TIMEOUT_MS, maxBuffer: MAX_BUFFER, env, windowsHide: true, encoding: "utf8" },
      (error, stdout, stderr) => {
        if (error === null) resolve({ ok: true, stdout });
        else if ((error as NodeJS.ErrnoException).code === "ENOENT") resolve({ ok: false, problem: "gitMissing", stderr: "" });
        else if (error.killed) resolve({ ok: false, problem: "timeout", stderr });
        else resolve({ ok: false, problem: "exit", stderr: stderr.trim() || error.message });
      },
    );
  });
}

const split = (output: string): Set<string> => new Set(output.split("\0").filter((entry) => entry !== ""));

function failure(outcome: Exclude<Outcome, { ok: true }>, what: string): GitEvidence {
  if (outcome.problem === "gitMissing") return { ok: false, problem: "gitMissing", reason: "no git executable was found on the PATH" };
  if (outcome.problem === "timeout") return { ok: false, problem: "gitFailed", reason: `git ${what} did not answer within ${String(TIMEOUT_MS / 1000)} s` };
  return { ok: false, problem: "gitFailed", reason: `git ${what} failed: ${firstLine(outcome.stderr)}` };
}

const firstLine = (text: string): string => text.split("\n")[0] ?? text;

/**
 * Asks git, in the project root, which of `paths` (relative, normalized, `/`-separated)
 * changed since `base`, are new and untracked, or exist in the base commit.
 */
export async function gitEvidence(root: string, base: string, paths: readonly string[]): Promise<GitEvidence> {
  const where = await git(root, ["rev-parse", "--is-inside-work-tree", "--is-shallow-repository"]);
  if (!where.ok) {
    if (where.problem === "exit" && /not a git repository/i.test(where.stderr)) {
      return { ok: false, problem: "notARepository", reason: `${root} is not inside a git working tree` };
    }
    return failure(where, "rev-parse");
  }
  const [inside, shallow] = where.stdout.split("\n");
  if (inside !== "true") return { ok: false, problem: "notARepository", reason: `${root} is not inside a git working tree` };

  // A revision that starts with "-" would be read as an option.
  const resolved = base.startsWith("-") ? undefined : await git(root, ["rev-parse", "--verify", "--quiet", `${base}^{commit}`]);
  if (resolved === undefined || !resolved.ok) {
    if (resolved !== undefined && resolved.problem !== "exit") return failure(resolved, "rev-parse");
    return shallow === "true"
      ? { ok: false, problem: "shallowClone", reason: `the clone is shallow and does not hold "${base}"` }
      : { ok: false, problem: "unknownRevision", reason: `"${base}" is not a commit in this repository` };
  }
  const commit = resolved.stdout.trim();
  if (paths.length === 0) return { ok: true, base, changed: new Set(), untracked: new Set(), inBase: new Set() };

  const [changed, untracked, inBase] = await Promise.all([
    git(root, ["diff", "--name-only", "--no-renames", "--no-ext-diff", "--relative", "-z", commit, "--", ...paths]),
    git(root, ["ls-files", "--others", "--exclude-standard", "-z", "--", ...paths]),
    git(root, ["ls-tree", "-r", "--name-only", "-z", commit, "--", ...paths]),
  ]);
  if (!changed.ok) return failure(changed, "diff");
  if (!untracked.ok) return failure(untracked, "ls-files");
  if (!inBase.ok) return failure(inBase, "ls-tree");
  return { ok: true, base, changed: split(changed.stdout), untracked: split(untracked.stdout), inBase: split(inBase.stdout) };
}
