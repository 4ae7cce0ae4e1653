import { execFileSync, spawnSync } from "node:child_process";
import { statSync, symlinkSync, utimesSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { BIN, STACK_FRAME, metadata, project } from "./helpers.js";

/**
 * Artifact paths a subagent may name, on a tree generated here (FIFOs, devices and
 * symlinks cannot live in the repository). Beside the root lies `outside/`, whose
 * files every escape points at: their access times prove that none was read.
 */
let base = "";
let root = "";
let outside = "";
const OLD = new Date("2001-01-01T00:00:00Z");

function canMakeDevices(): boolean {
  try {
    execFileSync("mknod", [path.join(project(), "zero"), "c", "1", "5"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

beforeAll(() => {
  base = project({ "outside/secret.md": "secret\n", "root/specs/1_x/reports/ok.md": "# Report\n", "root/two\nlines.md": "x" });
  root = path.join(base, "root");
  outside = path.join(base, "outside");
  execFileSync("mkfifo", [path.join(outside, "pipe")]);
  execFileSync("mkfifo", [path.join(root, "pipe.md")]);
  symlinkSync(path.join(outside, "secret.md"), path.join(root, "out.md"));
  symlinkSync("../outside", path.join(root, "out-dir"));
  symlinkSync(path.join(outside, "pipe"), path.join(root, "out-pipe.md"));
  symlinkSync("/dev/zero", path.join(root, "zero.md"));
  symlinkSync("/dev/null", path.join(root, "null.md"));
  symlinkSync("loop-b.md", path.join(root, "loop-a.md"));
  symlinkSync("loop-a.md", path.join(root, "loop-b.md"));
  symlinkSync("specs/1_x/reports/ok.md", path.join(root, "inside-link.md"));
  utimesSync(path.join(outside, "secret.md"), OLD, new Date());
});

interface Checked {
  readonly status: number | null;
  readonly elapsed: number;
  readonly results: { ruleId: string; level: string; messageId: string; pointer?: string }[];
}

/** `returnlint check` on a return whose one artifact is `artifactPath`, from another directory than the root. */
function checkArtifact(artifactPath: unknown): Checked {
  const input = JSON.stringify({ status: "completed", summary: "Done.", artifacts: [{ type: "report", path: artifactPath, summary: "Report" }], metadata: metadata("researcher") });
  const started = Date.now();
  const run = spawnSync(process.execPath, [BIN, "check", "-", "--format", "json", "--root", root], { cwd: base, input, encoding: "utf8", timeout: 10_000, env: { ...process.env, NO_COLOR: "1" } });
  const elapsed = Date.now() - started;
  expect(run.stderr).toBe("");
  expect(run.stdout).not.toMatch(STACK_FRAME);
  const { results } = JSON.parse(run.stdout) as Pick<Checked, "results">;
  return { status: run.status, elapsed, results: results.filter((result) => result.ruleId === "artifacts") };
}

const problem = (checked: Checked) => checked.results.filter((result) => result.level === "fail").map((result) => result.messageId);

describe("hostile artifact paths: each has its own finding, and nothing outside --root is opened", { timeout: 60_000 }, () => {
  const cases: readonly [string, unknown, string][] = [
    ["an absolute path outside the root", "/etc/hostname", "absolutePath"],
    ["an absolute path to a file beside the root", "<outside>/secret.md", "absolutePath"],
    ["a home-directory path", "~/.ssh/id_rsa", "homeRelativePath"],
    ["a .. escape", "../outside/secret.md", "escapesRoot"],
    ["a .. escape hidden after a directory", "specs/../../outside/secret.md", "escapesRoot"],
    ["a symlink to a file outside", "out.md", "symlinkEscapesRoot"],
    ["a path through a symlinked directory outside", "out-dir/secret.md", "symlinkEscapesRoot"],
    ["a symlink to a FIFO outside", "out-pipe.md", "symlinkEscapesRoot"],
    ["a symlink to /dev/zero", "zero.md", "symlinkEscapesRoot"],
    ["a symlink to /dev/null", "null.md", "symlinkEscapesRoot"],
    ["a symlink loop", "loop-a.md", "symlinkLoop"],
    ["a directory", "specs/1_x", "notAFile"],
    ["a missing file", "specs/1_x/reports/gone.md", "notFound"],
    ["a name longer than the file system allows", `${"x".repeat(300)}.md`, "nameTooLong"],
    ["a path longer than PATH_MAX", `${"d/".repeat(3000)}f.md`, "nameTooLong"],
    ["a path with a newline that names no file", "specs/1_x/reports/ok.md\nextra", "notFound"],
    ["a NUL byte", "specs/1_x/reports/ok.md\u0000../../outside/secret.md", "nulByte"],
    ["an empty path", "", "emptyPath"],
    ["a number", 42, "pathNotString"],
    ["null", null, "missingPath"],
    ["an object", { path: "specs/1_x/reports/ok.md" }, "pathNotString"],
    ["an array", ["specs/1_x/reports/ok.md"], "pathNotString"],
    ["a boolean", true, "pathNotString"],
  ];
  it.each(cases)("%s", (_name, given, messageId) => {
    const checked = checkArtifact(typeof given === "string" ? given.replace("<outside>", outside) : given);
    expect(checked.status).toBe(1);
    expect(problem(checked)).toEqual([messageId]);
    expect(statSync(path.join(outside, "secret.md")).atime.getTime()).toBe(OLD.getTime());
  });

  it("a FIFO named as an artifact is classified, not opened: a finding in well under a second", () => {
    const checked = checkArtifact("pipe.md");
    expect(checked.status).toBe(1);
    expect(problem(checked)).toEqual(["notAFile"]);
    expect(checked.elapsed).toBeLessThan(1000);
  });

  it.runIf(canMakeDevices())("a device file inside the root is classified as a device, never read", () => {
    execFileSync("mknod", [path.join(root, "dev-zero.md"), "c", "1", "5"]);
    const checked = checkArtifact("dev-zero.md");
    expect(checked.status).toBe(1);
    expect(problem(checked)).toEqual(["notAFile"]);
    expect(checked.elapsed).toBeLessThan(1000);
  });

  it("the paths that are fine: a file with a newline in its name, a symlink that stays inside", () => {
    for (const fine of ["two\nlines.md", "inside-link.md", "./specs/1_x/../1_x/reports/ok.md"]) {
      const checked = checkArtifact(fine);
      expect(checked.status, JSON.stringify(fine)).toBe(0);
      expect(problem(checked)).toEqual([]);
    }
  });

  it("a FIFO or a device given as the return itself is refused at once (exit 2)", () => {
    for (const file of [path.join(root, "pipe.md"), path.join(root, "zero.md"), path.join(root, "specs")]) {
      const started = Date.now();
      const run = spawnSync(process.execPath, [BIN, "check", file], { cwd: root, encoding: "utf8", timeout: 10_000 });
      expect(Date.now() - started).toBeLessThan(1000);
      expect(run.status).toBe(2);
      expect(run.stderr).toMatch(/^returnlint: Cannot read .*: it is (not a regular file|a directory)\.\n$/);
    }
  });
});
