import { linkSync, mkdirSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createFileView } from "@returnlint/core";
import { describe, expect, it } from "vitest";
import { SWAPPER, background, failures, markUnread, report, run, scratch, v7Return, wasRead, write } from "./harness.js";

// Issue 15, "Reads outside the root" and reproduction 9: what a check passes or reads is inside
// the root, whatever is swapped while it runs.

const SECRET = "# SECRET-HEADING outside the project\n" + "x".repeat(300);
const INSIDE = "# Inside heading\n" + "y".repeat(300);

/** root/d (a real folder, with `inside` in it or empty) and outside/d, whose report.md is the secret. */
function swappable(inside: boolean): { root: string; outside: string } {
  const base = scratch();
  const root = path.join(base, "root");
  const outside = path.join(base, "outside");
  mkdirSync(path.join(root, "d"), { recursive: true });
  mkdirSync(outside);
  writeFileSync(path.join(outside, "report.md"), SECRET);
  if (inside) writeFileSync(path.join(root, "d", "report.md"), INSIDE);
  return { root, outside };
}

/** Turns root/d into a symlink to `outside` (what a subagent's swap does), keeping the real folder aside. */
function swapToLink(root: string, outside: string): void {
  renameSync(path.join(root, "d"), path.join(root, "d.real"));
  symlinkSync(outside, path.join(root, "d"));
}

describe("9. what passes is inside the root", { timeout: 60_000 }, () => {
  it("a file path with a trailing slash names a directory: not found, never passed", () => {
    const root = scratch();
    write(root, { "real.md": "# Real\n" });
    const ran = run(["check", "-", "--format", "json"], { cwd: root, input: JSON.stringify(v7Return(["real.md/"])) });
    expect(ran.status).toBe(1);
    expect(failures(ran)).toEqual(["notFound"]);
  });

  it("--root / works: an artifact below it passes, one through a link stays what it is", () => {
    const root = scratch();
    write(root, { "real.md": "# Real\n" });
    const relative = path.relative("/", path.join(root, "real.md"));
    const ran = run(["check", "-", "--format", "json", "--root", "/"], { cwd: root, input: JSON.stringify(v7Return([relative])) });
    expect(failures(ran)).toEqual([]);
    expect(ran.status).toBe(0);
  });

  it("a directory swapped for a symlink during checks never passes an artifact that exists only outside (bounded race)", async () => {
    const { root, outside } = swappable(false);
    const swapper = background(SWAPPER, [path.join(root, "d"), outside]);
    let falsePasses = 0;
    let checks = 0;
    const until = Date.now() + 3000;
    try {
      // Let the swapper start flipping.
      await new Promise((resolve) => setTimeout(resolve, 200));
      while (Date.now() < until && checks < 20_000) {
        const view = createFileView(root);
        if (view.check("d/report.md").ok) falsePasses += 1;
                checks += 1;
      }
    } finally {
      await swapper.stop();
    }
    expect(checks).toBeGreaterThan(100);
    expect(falsePasses).toBe(0);
  });
});

describe("11. artifact-content reads only the file that was checked, inside the root", { timeout: 60_000 }, () => {
  it("a folder swapped for a symlink between check and read: the outside file is never read", () => {
    const { root, outside } = swappable(true);
    markUnread(path.join(outside, "report.md"));
    const view = createFileView(root);
    expect(view.check("d/report.md")).toMatchObject({ ok: true, size: INSIDE.length });
    swapToLink(root, outside);
    const read = view.read("d/report.md", 1024);
    expect(read === null || read === INSIDE).toBe(true);
    expect(wasRead(path.join(outside, "report.md"))).toBe(false);
  });

  it("through the CLI, with a swapper racing it: no outside heading is ever printed (bounded race)", async () => {
    const { root, outside } = swappable(true);
    write(root, {
      "r.json": v7Return(["d/report.md"]),
      "returnlint.config.json": { rules: { "artifact-content": ["error", { minBytes: 1, sections: { report: ["^never matches$"] } }] } },
    });
    const swapper = background(SWAPPER, [path.join(root, "d"), outside]);
    const leaks: string[] = [];
    try {
      for (let round = 0; round < 25; round += 1) {
        const ran = run(["check", "r.json", "--format", "json"], { cwd: root });
        if (ran.stdout.includes("SECRET-HEADING")) leaks.push(ran.stdout);
      }
    } finally {
      await swapper.stop();
    }
    expect(leaks).toEqual([]);
  });
});

describe("12. hard links: a file with more than one link is never read (SECURITY.md, Hard links)", { timeout: 60_000 }, () => {
  it("a hard link to a file outside the root: artifact-content says why and prints nothing of it", () => {
    const base = scratch();
    const root = path.join(base, "root");
    write(base, { "outside/secret.md": SECRET });
    write(root, {
      "r.json": v7Return(["report.md"]),
      "returnlint.config.json": { rules: { "artifact-content": ["error", { minBytes: 1, sections: { report: ["findings"] } }] } },
    });
    linkSync(path.join(base, "outside/secret.md"), path.join(root, "report.md"));
    markUnread(path.join(base, "outside/secret.md"));
    const ran = run(["check", "r.json", "--format", "json"], { cwd: root });
    expect(ran.status).toBe(1);
    expect(ran.stdout).not.toContain("SECRET-HEADING");
    const content = report(ran).results.filter((result) => result.ruleId === "artifact-content" && result.level === "fail");
    expect(content).toHaveLength(1);
    expect(content[0]).toMatchObject({ messageId: "unreadable", detail: "Error: it has 2 hard links, so it may also be a file outside the project; returnlint does not read it" });
    expect(wasRead(path.join(base, "outside/secret.md"))).toBe(false);
  });

  it("the file view itself never reads a file with two links", () => {
    const root = scratch();
    write(root, { "a.md": INSIDE });
    linkSync(path.join(root, "a.md"), path.join(root, "b.md"));
    const view = createFileView(root);
    expect(view.check("a.md")).toMatchObject({ ok: true, links: 2 });
    expect(view.read("a.md", 100)).toBeNull();
  });
});
