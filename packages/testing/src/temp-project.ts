import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll } from "vitest";

/** Files by path relative to a folder: a string or a Buffer is the content, any other value is written as JSON. */
export type Files = Readonly<Record<string, unknown>>;

export interface TreeOptions {
  /** Symlinks to make, by path relative to the folder: the target, written as given (relative to the link's folder, or absolute). */
  readonly links?: Readonly<Record<string, string>>;
}

const made: string[] = [];
// Vitest evaluates this module afresh for each test file, so each file removes the folders it made once its tests are done.
afterAll(() => {
  for (const dir of made.splice(0)) remove(dir);
});

function remove(dir: string): void {
  try {
    rmSync(dir, { recursive: true, force: true });
  } catch {
    // A test may have left a folder read-only (permissions are the point of some): open it up and try again.
    spawnSync("chmod", ["-R", "u+rwx", dir], { stdio: "ignore" });
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A new temporary folder holding `files` (and `options.links`), removed after the test file's tests.
 * Its real path is returned, the one a program that resolves paths in it sees.
 */
export function tempProject(files: Files = {}, options: TreeOptions = {}): string {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), "returnlint-test-")));
  made.push(root);
  writeFiles(root, files, options);
  return root;
}

/** Writes `files` (and `options.links`) below `root`, making the folders they need. */
export function writeFiles(root: string, files: Files, options: TreeOptions = {}): void {
  for (const [relative, content] of Object.entries(files)) {
    const target = path.join(root, relative);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, typeof content === "string" || Buffer.isBuffer(content) ? content : `${JSON.stringify(content, null, 2)}\n`);
  }
  for (const [relative, target] of Object.entries(options.links ?? {})) {
    const link = path.join(root, relative);
    mkdirSync(path.dirname(link), { recursive: true });
    symlinkSync(target, link);
  }
}
