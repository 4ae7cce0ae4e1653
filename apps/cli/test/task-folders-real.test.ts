import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cloneRealRepository, realRepository } from "@returnlint/testing";
import { returnlint } from "./helpers.js";

// A real repository of the family returnlint serves (../shared/repos/README.md): cloned at test
// time, never copied into the project. CI has it beside the repository.
const BUNDLE = realRepository("ProofChecker");
const scratch = BUNDLE !== undefined ? mkdtempSync(path.join(tmpdir(), "returnlint-real-tasks-")) : undefined;
afterAll(() => {
  if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
});

describe.skipIf(scratch === undefined)("--task on a real repository's task folders (skipped: ../shared/repos/ProofChecker.bundle is absent)", { timeout: 120_000 }, () => {
  it("reaches every task folder of the clone by its number, and a folder without a metadata file is the missingFile finding", () => {
    const root = path.join(scratch ?? "", "repo");
    cloneRealRepository(BUNDLE ?? "", root);
    // The folders as the repository names them: a number, an underscore, a slug.
    const folders = readdirSync(path.join(root, "specs"), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && /^\d+_/.test(entry.name))
      .map((entry) => entry.name);
    expect(folders.length).toBeGreaterThan(5);
    const tasks = folders.map((name) => String(Number(/^\d+/.exec(name)?.[0])));
    const run = returnlint(["check", "--task", tasks.join(","), "--format", "json"], { cwd: root });
    expect(run.stderr).toBe("");
    const reports = JSON.parse(run.stdout) as { task: string; source: string; results: { messageId: string }[] }[];
    expect(reports.map((report) => [report.task, report.source])).toEqual(folders.map((name, index) => [tasks[index], `specs/${name}/.return-meta.json`]));
    for (const report of reports) {
      if (!existsSync(path.join(root, report.source))) expect(report.results.map((result) => result.messageId), report.source).toContain("missingFile");
    }
  });
});
