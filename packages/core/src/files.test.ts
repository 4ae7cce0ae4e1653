import { linkSync, renameSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tempProject } from "@returnlint/testing";
import { createFileView, relativeInside } from "./files.js";

const root = tempProject();

describe("createFileView().check", () => {
  it("gives a file's size and modification time (evidence of when it was written)", () => {
    const written = new Date("2026-01-28T10:31:12.000Z");
    writeFileSync(path.join(root, "report.md"), "# Report\n");
    utimesSync(path.join(root, "report.md"), written, written);
    expect(createFileView(root).check("report.md")).toEqual({ ok: true, kind: "file", size: 9, mtimeMs: written.getTime(), path: "report.md", links: 1 });
  });
});

describe("createFileView().check resolves a path one folder at a time", () => {
  const project = tempProject({ "specs/1_x/reports/r.md": "# R\n" });
  const outside = tempProject({ "secret.md": "secret\n" });
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

describe("createFileView(): the paths an attacker writes", () => {
  const project = tempProject({ "real.md": "# Real\n", "specs/1_x/.return-meta.json": "{}\n" }, { links: { "loop-a": "loop-b", "loop-b": "loop-a" } });
  symlinkSync(path.join(project, "real.md"), path.join(project, "absolute-inside.md"));

  it.each([
    ["a file named with a trailing slash", "real.md/", { ok: false, problem: "notFound" }],
    ["a file named with a trailing /.", "real.md/.", { ok: false, problem: "notFound" }],
    ["a folder named with a trailing slash", "specs/", { ok: false, problem: "notAFile", kind: "directory" }],
    ["a home-directory path", "~/real.md", { ok: false, problem: "homeRelative" }],
    ["another user's home directory", "~root", { ok: false, problem: "homeRelative" }],
    ["a metadata file", "specs/1_x/.return-meta.json", { ok: false, problem: "returnFile" }],
    ["a symlink loop", "loop-a", { ok: false, problem: "symlinkLoop" }],
    ["an absolute symlink that stays inside", "absolute-inside.md", { ok: true, size: 7 }],
    ["300 KB of ../, refused before it is taken apart", "../".repeat(100_000), { ok: false, problem: "nameTooLong" }],
    ["../ that stays under 4096 bytes", "../".repeat(1000), { ok: false, problem: "escapesRoot" }],
  ])("%s", (_name, given, expected) => {
    expect(createFileView(project).check(given)).toMatchObject(expected);
  });

  it("the file a return was read from is not an artifact of it (returnFiles, by device and inode)", () => {
    const stats = statSync(path.join(project, "real.md"));
    expect(createFileView(project, { returnFiles: [{ dev: stats.dev, ino: stats.ino }] }).check("real.md")).toMatchObject({ ok: false, problem: "returnFile" });
  });

  it("--root / : every absolute file is below the root", () => {
    expect(createFileView("/").check(path.relative("/", path.join(project, "real.md")))).toMatchObject({ ok: true, size: 7 });
  });

  it("counts links, and never reads a file with more than one", () => {
    writeFileSync(path.join(project, "once.md"), "# Once\n");
    writeFileSync(path.join(project, "twice.md"), "# Twice\n");
    linkSync(path.join(project, "twice.md"), path.join(project, "twice-again.md"));
    const view = createFileView(project);
    expect(view.check("once.md")).toMatchObject({ ok: true, links: 1 });
    expect(view.read("once.md", 100)).toBe("# Once\n");
    expect(view.check("twice.md")).toMatchObject({ ok: true, links: 2 });
    expect(view.read("twice.md", 100)).toBeNull();
  });

  it("reads only the file it checked: one replaced since is not read", () => {
    writeFileSync(path.join(project, "swapped.md"), "# First\n");
    const view = createFileView(project);
    expect(view.check("swapped.md")).toMatchObject({ ok: true });
    renameSync(path.join(project, "swapped.md"), path.join(project, "swapped.old"));
    writeFileSync(path.join(project, "swapped.md"), "# Second\n");
    expect(view.read("swapped.md", 100)).toBeNull();
  });

});

describe("createFileView(): a path that leads nowhere", () => {
  it("is notFound, and the stack trace limit the process had is left as it was", () => {
    const before = Error.stackTraceLimit;
    Error.stackTraceLimit = 17;
    try {
      expect(createFileView(root).check("nowhere/at-all.md")).toEqual({ ok: false, problem: "notFound", path: "nowhere/at-all.md" });
      expect(createFileView(root).read("nowhere/at-all.md", 10)).toBeNull();
      expect(Error.stackTraceLimit).toBe(17);
      expect((new Error("x").stack ?? "").split("\n").length).toBeGreaterThan(1);
    } finally {
      Error.stackTraceLimit = before;
    }
  });
});

describe("createFileView().listed: what a folder held when the caller listed it", () => {
  const project = tempProject({ "specs/1_x/report.md": "# Report\n" });

  it("a name missing from the listing is notFound without a lookup: one written since is not seen by this view", () => {
    const view = createFileView(project);
    view.listed(path.join("specs", "1_x"), ["report.md"]);
    writeFileSync(path.join(project, "specs", "1_x", ".postflight-pending"), "{}\n");
    expect(view.check("specs/1_x/.postflight-pending")).toEqual({ ok: false, problem: "notFound", path: "specs/1_x/.postflight-pending" });
    // Another view, another moment: the disk is asked.
    expect(createFileView(project).check("specs/1_x/.postflight-pending")).toMatchObject({ ok: true, size: 3 });
    rmSync(path.join(project, "specs", "1_x", ".postflight-pending"));
  });

  it("a name in the listing is looked at on disk as usual, as is any name in a folder not listed", () => {
    const view = createFileView(project);
    view.listed("specs/1_x", ["report.md", "gone.md"]);
    expect(view.check("specs/1_x/report.md")).toMatchObject({ ok: true, size: 9 });
    expect(view.check("specs/1_x/gone.md")).toMatchObject({ ok: false, problem: "notFound" });
    expect(view.check("specs/../specs/1_x/./report.md")).toMatchObject({ ok: true, size: 9 });
    expect(view.check("report.md")).toMatchObject({ ok: false, problem: "notFound" });
  });

  it("takes no absence from a listing where another spelling could be the same name (case, Unicode), or from a large folder", () => {
    writeFileSync(path.join(project, "specs", "1_x", "late.md"), "late\n");
    const cased = createFileView(project);
    cased.listed("specs/1_x", ["LATE.MD"]);
    expect(cased.check("specs/1_x/late.md")).toMatchObject({ ok: true });
    const unicode = createFileView(project);
    unicode.listed("specs/1_x", ["r\u00e9sum\u00e9.md"]);
    expect(unicode.check("specs/1_x/late.md")).toMatchObject({ ok: true });
    const large = createFileView(project);
    large.listed("specs/1_x", Array.from({ length: 100 }, (_, index) => `${String(index)}.md`));
    expect(large.check("specs/1_x/late.md")).toMatchObject({ ok: true });
    const plain = createFileView(project);
    plain.listed("specs/1_x", ["report.md"]);
    expect(plain.check("specs/1_x/late.md")).toMatchObject({ ok: false, problem: "notFound" });
  });
});

describe("createFileView(): a path's spelling", () => {
  const project = tempProject({ "specs/1_x/report.md": "# Report\n", "specs/1_x/..notes.md": "notes\n", "specs/1_x/...": "dots\n" });

  it("a folder told with `.`, `..` or doubled separators is the folder its plain spelling names", () => {
    const view = createFileView(project);
    view.listed("./specs//other/../1_x/", ["report.md"]);
    writeFileSync(path.join(project, "specs", "1_x", ".postflight-pending"), "{}\n");
    expect(view.check("specs/1_x/.postflight-pending")).toEqual({ ok: false, problem: "notFound", path: "specs/1_x/.postflight-pending" });
    expect(view.check("specs/./1_x//.postflight-pending")).toMatchObject({ ok: false, problem: "notFound" });
    // A folder that climbs out of the root is no folder of the view's: nothing is taken from its listing.
    const climbing = createFileView(project);
    climbing.listed("../specs/1_x", ["report.md"]);
    expect(climbing.check("specs/1_x/.postflight-pending")).toMatchObject({ ok: true, size: 3 });
    rmSync(path.join(project, "specs", "1_x", ".postflight-pending"));
  });

  it("names that only start with dots are names, and a trailing separator names a folder", () => {
    const view = createFileView(project);
    view.listed("specs/1_x", ["report.md", "..notes.md", "..."]);
    expect(view.check("specs/1_x/..notes.md")).toMatchObject({ ok: true, size: 6 });
    expect(view.check("specs/1_x/...")).toMatchObject({ ok: true, size: 5 });
    expect(view.check("specs/1_x/report.md/")).toMatchObject({ ok: false, problem: "notFound" });
    expect(view.check("specs/1_x/report.md/.")).toMatchObject({ ok: false, problem: "notFound" });
    expect(view.check("specs/1_x/../1_x/report.md")).toMatchObject({ ok: true, size: 9 });
    expect(view.check("specs/1_x/../../..")).toMatchObject({ ok: false, problem: "escapesRoot" });
  });
});

describe("relativeInside", () => {
  it("gives the path below the root, \"\" for the root, and undefined for anywhere else", () => {
    expect(relativeInside("/p", "/p/specs/1_x/.return-meta.json")).toBe("specs/1_x/.return-meta.json");
    expect(relativeInside("/p", "/p")).toBe("");
    // A name that starts with two dots is a file in the root, not its parent.
    expect(relativeInside("/p", "/p/..notes.md")).toBe("..notes.md");
    expect(relativeInside("/p", "/")).toBeUndefined();
    expect(relativeInside("/p", "/q/x.json")).toBeUndefined();
    expect(relativeInside("/p", "/p/../q")).toBeUndefined();
  });
});
