import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { ReportObject } from "@returnlint/api";
import { cloneRealRepository, realRepository } from "@returnlint/testing";
import { returnlint } from "./helpers.js";

// A real repository of the family returnlint was built for (../shared/repos/README.md), cloned at
// test time into a temporary folder, never copied into the project.
const BUNDLE = realRepository("ProofChecker");
const absent = BUNDLE === undefined;
const skipped = absent ? " (skipped: no ../shared/repos/ProofChecker.bundle here)" : "";

/** What a user sees of a verdict: exit code, format, and each failure and warning with its pointer. */
function verdictOf(run: { status: number | null; stdout: string }) {
  const report = JSON.parse(run.stdout) as ReportObject;
  return { exit: run.status, format: report.format, findings: report.results.filter((result) => result.level === "fail" || result.level === "warn").map((result) => `${result.ruleId}/${result.messageId} ${result.pointer ?? ""}`) };
}

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

describe("a real repository, end to end", () => {
  it.skipIf(absent)(`init writes one config for scan and standard input, and each metadata file gets the same verdict by name and piped${skipped}`, () => {
    const clone = mkdtempSync(path.join(tmpdir(), "returnlint-formats-"));
    folders.push(clone);
    cloneRealRepository(BUNDLE ?? "", clone, "agents");

    const init = returnlint(["init"], { cwd: clone });
    expect(init.status).toBe(0);
    expect(init.stdout).toMatch(/^Wrote returnlint\.config\.yaml with the auto preset \(found specs\/.+\/\.return-meta\.json: /);
    expect(readFileSync(path.join(clone, "returnlint.config.yaml"), "utf8")).not.toMatch(/^\s+summary-length:/m);

    const scanned = JSON.parse(returnlint(["scan", "--format", "json"], { cwd: clone }).stdout) as ReportObject[];
    expect(scanned.length).toBeGreaterThan(10);
    expect(new Set(scanned.map((report) => report.format))).toEqual(new Set(["metadata-file"]));
    // One in three of them, to keep the run short on a small machine.
    for (const report of scanned.filter((_, index) => index % 3 === 0)) {
      const byName = verdictOf(returnlint(["check", report.source, "--format", "json"], { cwd: clone }));
      const piped = verdictOf(returnlint(["check", "-", "--format", "json"], { cwd: clone, input: readFileSync(path.join(clone, report.source)) }));
      expect(piped, report.source).toEqual(byName);
    }
  }, 120_000);
});
