import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { tempProject, writeFiles, type Files } from "./temp-project.js";

/**
 * git with a fixed identity, no signing and `main` as the first branch, whatever the machine's
 * config says; no GIT_* variable of the environment (a hook's GIT_DIR, GIT_INDEX_FILE…) leads it
 * to another repository. Returns what it printed, trimmed.
 */
export function git(cwd: string, args: readonly string[], env: Readonly<Record<string, string>> = {}): string {
  const inherited = Object.entries(process.env).filter(([name]) => !name.startsWith("GIT_"));
  return execFileSync("git", ["-c", "user.name=Returnlint Test", "-c", "user.email=test@returnlint.invalid", "-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main", ...args], {
    cwd,
    env: { ...Object.fromEntries(inherited), ...env },
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  }).trim();
}

/** A new, empty repository in a temporary folder, removed after the test file's tests. */
export function newRepository(): string {
  const dir = tempProject();
  git(dir, ["init", "-q"]);
  return dir;
}

/** What one commit changes in a repository. */
export interface Change {
  /** Files to write: strings are contents, objects are written as JSON. */
  readonly files?: Files;
  /** Symlinks to make: path → target. */
  readonly links?: Readonly<Record<string, string>>;
  /** Paths to delete. */
  readonly remove?: readonly string[];
  /** Folders to move (git mv): from → to. */
  readonly move?: Readonly<Record<string, string>>;
  /** Submodule entries (gitlinks) to record: path → commit. */
  readonly gitlinks?: Readonly<Record<string, string>>;
}

/** Applies a change and commits it with both dates set to `date`; returns the commit. */
export function commit(dir: string, date: string, change: Change, message = `change of ${date}`): string {
  writeFiles(dir, change.files ?? {}, { links: change.links ?? {} });
  for (const relative of change.remove ?? []) git(dir, ["rm", "-q", "-r", relative]);
  for (const [from, to] of Object.entries(change.move ?? {})) {
    mkdirSync(path.dirname(path.join(dir, to)), { recursive: true });
    git(dir, ["mv", from, to]);
  }
  git(dir, ["add", "-A"]);
  // After `add -A`, which would stage the removal of a gitlink that has no folder in the work tree.
  for (const [relative, oid] of Object.entries(change.gitlinks ?? {})) git(dir, ["update-index", "--add", "--cacheinfo", `160000,${oid},${relative}`]);
  git(dir, ["commit", "-q", "--allow-empty", "-m", message], { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date });
  return git(dir, ["rev-parse", "HEAD"]);
}
