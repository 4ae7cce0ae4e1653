import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const BIN = fileURLToPath(new URL("../dist/returnlint.js", import.meta.url));
export const REPO = fileURLToPath(new URL("../../..", import.meta.url));
export const EXAMPLES = path.join(REPO, "examples");

export interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the built CLI as a user would. */
export function returnlint(args: readonly string[], options: { cwd?: string; input?: string | Buffer; env?: Record<string, string> } = {}): Run {
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: "1" };
  // What the machine running the tests sets must not leak into what they assert: only the test's own env counts.
  delete env.RETURNLINT_SESSION_ID;
  delete env.FORCE_COLOR;
  Object.assign(env, options.env);
  const result = spawnSync(process.execPath, [BIN, ...args], {
    cwd: options.cwd ?? REPO,
    input: options.input ?? "",
    env,
    encoding: "utf8",
    timeout: 20_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** A temporary project (files by relative path; objects are written as JSON), removed after the file's tests: the CLI suites' name for it. */
export { tempProject as project } from "@returnlint/testing";

export const metadata = (agent: string, session = "sess_1") => ({
  session_id: session,
  agent_type: agent,
  delegation_depth: 1,
  delegation_path: ["orchestrator", "research", agent],
});

/** A stack trace's telltale line. */
export const STACK_FRAME = /^\s+at .+:\d+:\d+\)?$/m;
