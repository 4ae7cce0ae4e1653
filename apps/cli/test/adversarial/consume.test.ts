import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { subagentStop } from "../claude-payloads.js";
import { failures, markUnread, metadataReturn, report, ruleModule, run, runAsync, scratch, v7Return, wasRead, write } from "./harness.js";

// Issue 15, reproductions 2, 3 and 5, and parallel consumers: --consume deletes only the file
// that was validated, inside the root, through real folders; what cannot be consumed is said.

const META = ".return-meta.json";

/** A project with task 10's metadata file (passing: its one artifact exists). */
function project(): string {
  const root = scratch();
  write(root, { "specs/10_task/reports/r.md": "# Report\n", [`specs/10_task/${META}`]: metadataReturn(["specs/10_task/reports/r.md"]) });
  return root;
}

describe("2. a task folder that is a symlink into another project is never read, passed or deleted", { timeout: 60_000 }, () => {
  /** This project's specs/10_link → the other project's task folder, whose metadata file would pass. */
  function linked(): { root: string; theirs: string } {
    const base = scratch();
    const root = path.join(base, "mine");
    const other = path.join(base, "theirs");
    write(other, { "specs/10_real/reports/r.md": "# Report\n", [`specs/10_real/${META}`]: metadataReturn(["specs/10_real/reports/r.md"], "sess_theirs") });
    mkdirSync(path.join(root, "specs"), { recursive: true });
    symlinkSync(path.join(other, "specs", "10_real"), path.join(root, "specs", "10_link"));
    const theirs = path.join(other, "specs", "10_real", META);
    markUnread(theirs);
    return { root, theirs };
  }

  it("check --task 10 --consume: refused with a sentence (exit 2); their file is not read and still there", () => {
    const { root, theirs } = linked();
    const ran = run(["check", "--task", "10", "--consume", "--session-id", "sess_mine", "--format", "json"], { cwd: root });
    expect(ran.status).toBe(2);
    expect(ran.stdout).toBe("");
    expect(ran.stderr).toBe(
      "returnlint: Task 10: refusing to read specs/10_link/.return-meta.json: specs/10_link is a symbolic link. returnlint reads a metadata file only through real folders inside the project (a link may lead into another project).\n",
    );
    expect(ran.stderr).not.toContain("sess_theirs");
    expect(wasRead(theirs)).toBe(false);
    expect(existsSync(theirs)).toBe(true);
  });

  it("the hook's metadata-file lookup: the link is refused (the stop is blocked with the reason), their file is not read", () => {
    const { root, theirs } = linked();
    const message = "Research complete. Metadata: specs/10_link/.return-meta.json";
    write(root, { "returnlint.config.json": { preset: "metadata-file" } });
    const ran = run(["hook", "claude", "--command", "research"], { cwd: root, input: JSON.stringify(subagentStop({ cwd: root, message })) });
    expect(ran.status).toBe(0);
    const decision = JSON.parse(ran.stdout) as { decision: string; reason: string };
    expect(decision.decision).toBe("block");
    expect(decision.reason).toContain("specs/10_link is a symbolic link");
    expect(wasRead(theirs)).toBe(false);
    expect(existsSync(theirs)).toBe(true);
  });
});

describe("3. --consume deletes only the file that was validated", { timeout: 60_000 }, () => {
  it("a file swapped in while the check runs is not deleted: the run says so (exit 2) and the new file stays", () => {
    const root = project();
    const file = path.join(root, "specs/10_task", META);
    // A slow check, during which the metadata file is replaced by another (one that would fail).
    const swap = ruleModule(
      "swapper",
      `check() { renameSync(${JSON.stringify(file)}, ${JSON.stringify(`${file}.old`)}); writeFileSync(${JSON.stringify(file)}, '{"status":"researched","artifacts":[]}'); }`,
      'import { renameSync, writeFileSync } from "node:fs";',
    );
    write(root, { "rules/swapper.mjs": swap, "returnlint.config.json": { rules: { "./rules/swapper.mjs": "error" } } });
    const ran = run(["check", "--task", "10", "--consume", "--format", "json"], { cwd: root });
    expect(ran.stdout).toBe("");
    expect(ran.status).toBe(2);
    expect(ran.stderr).toBe(`returnlint: ${file} changed while it was being checked, so it was not deleted (it is back at ${file}). Check it again.\n`);
    expect(readFileSync(file, "utf8")).toBe('{"status":"researched","artifacts":[]}');
  });

  it("an unchanged file that passed is deleted, and the run says so", () => {
    const root = project();
    const ran = run(["check", "--task", "10", "--consume"], { cwd: root });
    expect(ran.status).toBe(0);
    expect(ran.stderr).toBe("returnlint: consumed specs/10_task/.return-meta.json\n");
    expect(existsSync(path.join(root, "specs/10_task", META))).toBe(false);
    expect(readdirSync(path.join(root, "specs/10_task"))).toEqual(["reports"]);
  });

  it("FILE --consume outside the root, or through a symlinked folder, is refused", () => {
    const root = project();
    const outside = project();
    const away = run(["check", path.join(outside, "specs/10_task", META), "--consume"], { cwd: root });
    expect(away.status).toBe(2);
    expect(away.stderr).toContain("--consume deletes only a metadata file inside the project root");
    symlinkSync(path.join(outside, "specs"), path.join(root, "elsewhere"));
    const through = run(["check", `elsewhere/10_task/${META}`, "--consume"], { cwd: root });
    expect(through.status).toBe(2);
    expect(through.stderr).toContain("elsewhere is a symbolic link");
    expect(existsSync(path.join(outside, "specs/10_task", META))).toBe(true);
  });
});

describe("5. a return file is never the evidence of its own work", { timeout: 60_000 }, () => {
  it("a metadata file naming itself as its only artifact fails, and --consume keeps it", () => {
    const root = scratch();
    write(root, { [`specs/10_task/${META}`]: metadataReturn([`specs/10_task/${META}`]) });
    const ran = run(["check", "--task", "10", "--consume", "--format", "json"], { cwd: root });
    expect(ran.status).toBe(1);
    expect(failures(ran)).toEqual(["returnFile"]);
    expect(report(ran).results.find((result) => result.messageId === "returnFile")?.message).toBe(`Artifact is a return file, not work: specs/10_task/${META}`);
    expect(existsSync(path.join(root, "specs/10_task", META))).toBe(true);
  });

  it("another task's metadata file is not work either", () => {
    const root = scratch();
    write(root, { [`specs/10_task/${META}`]: metadataReturn([`specs/9_old/${META}`]), [`specs/9_old/${META}`]: metadataReturn([]) });
    expect(failures(run(["check", "--task", "10", "--format", "json"], { cwd: root }))).toEqual(["returnFile"]);
  });

  it("a console return (check FILE) naming its own file fails too", () => {
    const root = scratch();
    write(root, { "return.json": v7Return(["return.json"]) });
    const ran = run(["check", "return.json", "--format", "json"], { cwd: root });
    expect(ran.status).toBe(1);
    expect(failures(ran)).toEqual(["returnFile"]);
  });
});

describe("parallel consumers of one file: exactly one consumes it; the others never pass", { timeout: 120_000 }, () => {
  it.each([1, 2, 3])("20 at once, round %i: one exit 0 with the passing report; each other run exits 1, with no verdict or with the missing file's finding", async () => {
    const root = project();
    const runs = await Promise.all(Array.from({ length: 20 }, () => runAsync(["check", "--task", "10", "--consume", "--format", "json"], { cwd: root })));
    const [winner, ...others] = runs.filter((ran) => ran.status === 0);
    expect(others).toHaveLength(0);
    expect(winner === undefined ? undefined : report(winner)).toMatchObject({ ok: true });
    for (const loser of runs.filter((ran) => ran.status !== 0)) {
      expect(loser.status).toBe(1);
      if (loser.stdout === "") {
        // It read the file, and another run consumed it first: a sentence, no verdict.
        expect(loser.stderr).toMatch(/^returnlint: .*was consumed by another process while this one checked it; this run deleted nothing and gives no verdict\.\n$/);
      } else {
        // It came after the file was gone: the seeds' finding for a missing metadata file.
        expect(loser.stderr).toBe("");
        expect(failures(loser)).toEqual(["missingFile"]);
      }
    }
    expect(existsSync(path.join(root, "specs/10_task", META))).toBe(false);
    expect(readdirSync(path.join(root, "specs/10_task"))).toEqual(["reports"]);
  });
});
