// docs/hosts.md's hook command that runs the project's own returnlint and falls back to npx
// ("What a stop costs"), run by the real `sh` with stand-ins for both programs: which one runs, with
// which arguments, and whose exit code the hook gives. The hosts suite runs it in the real Claude Code.
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tempProject } from "@returnlint/testing";
import { jsonSnippet } from "./hosts/docs.js";

const command = String(jsonSnippet("claude-hook-direct").command);

const scratch = tempProject();

/** An executable shell script that says its name and arguments, then exits with `code`. */
function standIn(file: string, name: string, code: number): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `#!/bin/sh\necho "${name} $*"\nexit ${String(code)}\n`);
  chmodSync(file, 0o755);
}

// `npx` on the PATH is a stand-in that exits 3, so that its exit code is told apart from the bin's.
const pathDir = path.join(scratch, "path");
standIn(path.join(pathDir, "npx"), "npx", 3);

/** A project folder, with the installed bin (a stand-in that exits 2) or without. */
function projectDir(name: string, installed: boolean): string {
  const root = path.join(scratch, name);
  mkdirSync(root, { recursive: true });
  if (installed) standIn(path.join(root, "node_modules", ".bin", "returnlint"), "bin", 2);
  return root;
}

function runHook(projectDirEnv: string | undefined): { stdout: string; status: number | null } {
  const env: NodeJS.ProcessEnv = { PATH: `${pathDir}${path.delimiter}${process.env.PATH ?? ""}` };
  if (projectDirEnv !== undefined) env.CLAUDE_PROJECT_DIR = projectDirEnv;
  const run = spawnSync("sh", ["-c", command], { env, encoding: "utf8", cwd: scratch });
  return { stdout: run.stdout, status: run.status };
}

describe("the docs' hook command with an npx fallback", () => {
  it("runs the project's own bin, and gives its exit code: a failing run is not retried through npx", () => {
    expect(runHook(projectDir("installed", true))).toEqual({ stdout: "bin hook claude\n", status: 2 });
  });

  it("finds the bin in a project whose path has a space in it", () => {
    expect(runHook(projectDir("my project", true))).toEqual({ stdout: "bin hook claude\n", status: 2 });
  });

  it("goes through npx --no-install when the project has no returnlint of its own", () => {
    expect(runHook(projectDir("not-installed", false))).toEqual({ stdout: "npx --no-install returnlint hook claude\n", status: 3 });
  });

  it("goes through npx when Claude Code did not set CLAUDE_PROJECT_DIR", () => {
    expect(runHook(undefined)).toEqual({ stdout: "npx --no-install returnlint hook claude\n", status: 3 });
  });
});
