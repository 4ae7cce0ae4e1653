import { mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createFileView } from "./files.js";

const root = mkdtempSync(path.join(tmpdir(), "returnlint-files-"));
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

describe("createFileView().check", () => {
  it("gives a file's size and modification time (evidence of when it was written)", () => {
    const written = new Date("2026-01-28T10:31:12.000Z");
    writeFileSync(path.join(root, "report.md"), "# Report\n");
    utimesSync(path.join(root, "report.md"), written, written);
    expect(createFileView(root).check("report.md")).toEqual({ ok: true, kind: "file", size: 9, mtimeMs: written.getTime(), path: "report.md", links: 1 });
  });
});

describe("createFileView().check resolves a path one folder at a time", () => {
  const project = path.join(root, "project");
  const outside = path.join(root, "outside");
  mkdirSync(path.join(project, "specs", "1_x", "reports"), { recursive: true });
  mkdirSync(outside, { recursive: true });
  writeFileSync(path.join(project, "specs", "1_x", "reports", "r.md"), "# R\n");
  writeFileSync(path.join(outside, "secret.md"), "secret\n");
  // A folder link that stays inside, one that leaves, and one that leaves and leads back in.
  symlinkSync(path.join(project, "specs"), path.join(project, "specs-link"));
  symlinkSync(outside, path.join(project, "out"));
  symlinkSync(path.join(project, "specs", "1_x"), path.join(outside, "back-in"));

  it.each([
    ["a file through a folder link that stays inside", "specs-link/1_x/reports/r.md", { ok: true, size: 4 }],
    ["a folder link that leaves the root", "out/secret.md", { ok: false, problem: "symlinkEscapesRoot" }],
    ["a link that leaves and one that leads back: where it ends counts", "out/back-in/reports/r.md", { ok: true, size: 4 }],
    ["a file used as a folder", "specs/1_x/reports/r.md/x.md", { ok: false, problem: "notFound" }],
    ["a missing folder", "specs/2_y/reports/r.md", { ok: false, problem: "notFound" }],
    ["the root itself", "./", { ok: false, problem: "notAFile", kind: "directory" }],
  ])("%s", (_name, given, expected) => {
    expect(createFileView(project).check(given)).toMatchObject(expected);
  });

  it("a view is one moment: it answers from what it saw, a new view sees the change", () => {
    const view = createFileView(project);
    const report = path.join(project, "specs", "1_x", "reports", "new.md");
    expect(view.check("specs/1_x/reports/new.md")).toMatchObject({ ok: false, problem: "notFound" });
    writeFileSync(report, "# New\n");
    expect(view.check("specs/1_x/reports/new.md")).toMatchObject({ ok: false, problem: "notFound" });
    expect(createFileView(project).check("specs/1_x/reports/new.md")).toMatchObject({ ok: true, size: 6 });
  });
});
