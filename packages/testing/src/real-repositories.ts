import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { git } from "./git.js";

// The real repositories of the family returnlint serves, kept as git bundles beside the checkout
// (`../shared/repos/`, with a README saying what each is). Third-party data: a test clones one into
// a temporary folder at test time and never copies its files into the project.

/** `../shared/repos/`, beside the checkout (this file is `packages/testing/{src,dist}/…`). */
export const REAL_REPOSITORIES = path.join(fileURLToPath(new URL("../../../..", import.meta.url)), "shared", "repos");

/** The bundle of a real repository (`ProofChecker` → `../shared/repos/ProofChecker.bundle`), or undefined when this machine has none: the test then skips and says so. */
export function realRepository(name: string): string | undefined {
  const bundle = path.join(REAL_REPOSITORIES, `${name}.bundle`);
  return existsSync(bundle) ? bundle : undefined;
}

/**
 * Clones a bundle into `dir` (a folder that does not exist yet) and checks out `at`: the tip; the
 * last commit that still has `.claude/agents/` (the parent of the commit that deleted them; the tip
 * when none did): the repository as its maintainer had it while its agents were defined there; or
 * the first commit that has them (`first-agents`): its agents as they were first written. Returns
 * the commit checked out.
 */
export function cloneRealRepository(bundle: string, dir: string, at: "tip" | "agents" | "first-agents" = "tip"): string {
  git(path.dirname(dir), ["clone", "-q", "--no-checkout", bundle, dir]);
  const commit = git(dir, ["rev-parse", revisionAt(dir, at)]);
  git(dir, ["-c", "advice.detachedHead=false", "checkout", "-q", commit]);
  return commit;
}

function revisionAt(dir: string, at: "tip" | "agents" | "first-agents"): string {
  if (at === "first-agents") {
    const added = git(dir, ["log", "--reverse", "--format=%H", "--diff-filter=A", "--", ".claude/agents"]).split("\n")[0] ?? "";
    return added === "" ? "HEAD" : added;
  }
  const removed = at === "agents" ? git(dir, ["log", "-1", "--format=%H", "--diff-filter=D", "--", ".claude/agents"]) : "";
  return removed === "" ? "HEAD" : `${removed}^`;
}
