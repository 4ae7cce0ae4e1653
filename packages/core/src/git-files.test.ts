import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { git, tempProject, type Files, type TreeOptions } from "@returnlint/testing";
import { GitObjectCache, GitTree, createGitFileView, type GitFileView } from "./git-files.js";
import { openGitObjects, type GitObjectReader } from "./git-objects.js";

const readers: GitObjectReader[] = [];
afterAll(() => {
  for (const reader of readers) reader.close();
});

/** A repository with one commit holding `files` (and `options.links`). */
function repository(files: Files, options: TreeOptions = {}, objectFormat = "sha1"): { dir: string; commit: string; tree: string } {
  const dir = tempProject(files, options);
  git(dir, ["init", "-q", `--object-format=${objectFormat}`]);
  git(dir, ["add", "-A"]);
  return { dir, ...commitAll(dir) };
}

function commitAll(dir: string): { commit: string; tree: string } {
  git(dir, ["commit", "-q", "--allow-empty", "-m", "commit"]);
  return { commit: git(dir, ["rev-parse", "HEAD"]), tree: git(dir, ["rev-parse", "HEAD^{tree}"]) };
}

function viewOf(repo: { dir: string; commit: string; tree: string }, cache?: GitObjectCache): GitFileView {
  const objects = openGitObjects(path.join(repo.dir, ".git"));
  readers.push(objects);
  return createGitFileView({ cache: cache ?? new GitObjectCache(objects), commit: repo.commit, tree: repo.tree, root: repo.dir, mtimeMs: 1_700_000_000_000 });
}

describe("createGitFileView: what a commit's tree holds", () => {
  const repo = repository(
    {
      "specs/1_x/reports/r.md": "# Report\n",
      "specs/1_x/empty.md": "",
      "src/lib/index.ts": "export {};\n",
      "bin/run.sh": "#!/bin/sh\n",
      "docs/real.md": "# Real\n",
    },
    {
      links: {
        "specs/1_x/inside.md": "../../docs/real.md",
        "specs/1_x/docs-dir": "../../docs",
        "specs/1_x/out.md": "../../../outside.md",
        "specs/1_x/absolute.md": "/etc/hostname",
        "specs/1_x/dangling.md": "nowhere.md",
        "loop-a": "loop-b",
        "loop-b": "loop-a",
      },
    },
  );
  execFileSync("chmod", ["+x", path.join(repo.dir, "bin/run.sh")]);
  // A submodule as git records it: a gitlink entry, no files of its own in this tree.
  git(repo.dir, ["update-index", "--add", "--cacheinfo", `160000,${repo.commit},vendor/sub`]);
  const latest = { dir: repo.dir, ...commitAll(repo.dir) };

  it.each([
    ["a blob", "specs/1_x/reports/r.md", { ok: true, kind: "file", size: 9, mtimeMs: 1_700_000_000_000 }],
    ["an empty blob: a file of size 0 (the artifacts rule fails it as empty)", "specs/1_x/empty.md", { ok: true, size: 0 }],
    ["an executable blob", "bin/run.sh", { ok: true, size: 10 }],
    ["a path with ./ and a folder climbed back", "./specs/1_x/../1_x/reports/r.md", { ok: true, size: 9 }],
    ["a missing file", "specs/1_x/reports/missing.md", { ok: false, problem: "notFound" }],
    ["a missing folder", "specs/2_y/reports/r.md", { ok: false, problem: "notFound" }],
    ["a file used as a folder", "specs/1_x/reports/r.md/x.md", { ok: false, problem: "notFound" }],
    ["a file with a slash after it (ENOTDIR on disk)", "specs/1_x/reports/r.md/", { ok: false, problem: "notFound" }],
    ["a file with /. after it", "specs/1_x/reports/r.md/.", { ok: false, problem: "notFound" }],
    ["a symlink to a file, with a slash after it", "specs/1_x/inside.md/", { ok: false, problem: "notFound" }],
    ["a tree with a slash after it", "src/lib/", { ok: false, problem: "notAFile", kind: "directory" }],
    ["a tree", "src/lib", { ok: false, problem: "notAFile", kind: "directory" }],
    ["the root", ".", { ok: false, problem: "notAFile", kind: "directory" }],
    ["a submodule", "vendor/sub", { ok: false, problem: "notAFile", kind: "submodule" }],
    ["a path inside a submodule", "vendor/sub/README.md", { ok: false, problem: "notAFile", kind: "path inside a submodule" }],
    ["a symlink inside the tree, followed", "specs/1_x/inside.md", { ok: true, size: 7 }],
    ["a file through a symlinked folder", "specs/1_x/docs-dir/real.md", { ok: true, size: 7 }],
    ["a symlink climbing out of the tree", "specs/1_x/out.md", { ok: false, problem: "symlinkEscapesRoot" }],
    ["an absolute symlink", "specs/1_x/absolute.md", { ok: false, problem: "symlinkEscapesRoot" }],
    ["a dangling symlink", "specs/1_x/dangling.md", { ok: false, problem: "notFound" }],
    ["a symlink loop", "loop-a", { ok: false, problem: "symlinkLoop" }],
    ["an absolute path", "/etc/passwd", { ok: false, problem: "absolute" }],
    ["a home-relative path", "~/notes.md", { ok: false, problem: "absolute" }],
    ["a path leaving the root", "../other/r.md", { ok: false, problem: "escapesRoot" }],
    ["an empty path", "", { ok: false, problem: "emptyPath" }],
  ])("%s", async (_name, given, expected) => {
    const view = viewOf(latest);
    await view.prefetch([given]);
    expect(view.check(given)).toMatchObject({ ...expected, path: given });
    // Everything the answer needed was prefetched.
    expect(await view.loadMissing()).toBe(false);
  });

  it("answers `unreadable` for what it has not loaded, remembers the path, and loads all of it at once", async () => {
    const view = viewOf(latest);
    expect(view.check("specs/1_x/reports/r.md")).toEqual({ ok: false, problem: "unreadable", path: "specs/1_x/reports/r.md", kind: "not loaded" });
    expect(view.list?.("specs/1_x")).toBeNull();
    // Every level the paths need (the root tree, specs, 1_x, reports, the blob's size) in one round, however deep.
    expect(await view.loadMissing()).toBe(true);
    expect(view.check("specs/1_x/reports/r.md")).toMatchObject({ ok: true, size: 9 });
    expect(view.list?.("specs/1_x")).toEqual(expect.arrayContaining(["reports"]));
    expect(await view.loadMissing()).toBe(false);
  });

  it("reads a blob's content up to maxBytes once it is loaded, through a symlink too", async () => {
    const view = viewOf(latest);
    await view.prefetch(["specs/1_x/inside.md"]);
    expect(view.read("specs/1_x/inside.md", 4)).toBeNull();
    expect(await view.loadMissing()).toBe(true);
    expect(view.read("specs/1_x/inside.md", 4)).toBe("# Re");
    // A longer read than what was loaded is another miss; a shorter one is answered.
    expect(view.read("specs/1_x/inside.md", 100)).toBeNull();
    expect(await view.loadMissing()).toBe(true);
    expect(view.read("specs/1_x/inside.md", 100)).toBe("# Real\n");
    expect(view.read("specs/1_x/inside.md", 2)).toBe("# ");
    // A folder is never read: once its trees are loaded, the answer is final.
    await view.prefetch(["src/lib"]);
    expect(view.read("src/lib", 100)).toBeNull();
    expect(await view.loadMissing()).toBe(false);
  });

  it("shows each commit's own tree: a file added later is missing in the earlier commit", async () => {
    const dir = tempProject({ "a.md": "a\n" });
    git(dir, ["init", "-q"]);
    git(dir, ["add", "-A"]);
    const first = { dir, ...commitAll(dir) };
    writeFileSync(path.join(dir, "b.md"), "b\n");
    git(dir, ["add", "-A"]);
    const second = { dir, ...commitAll(dir) };
    const objects = openGitObjects(path.join(dir, ".git"));
    readers.push(objects);
    const cache = new GitObjectCache(objects);
    const views = [first, second].map((repo) => createGitFileView({ cache, commit: repo.commit, tree: repo.tree, root: dir, mtimeMs: 0 }));
    await Promise.all(views.map((view) => view.prefetch(["a.md", "b.md"])));
    expect(views.map((view) => [view.check("a.md").ok, view.check("b.md").ok])).toEqual([
      [true, false],
      [true, true],
    ]);
  });

  it("reads a SHA-256 repository (32-byte object ids in trees)", async () => {
    const sha256 = repository({ "specs/1_x/reports/r.md": "# Report\n" }, {}, "sha256");
    expect(sha256.commit).toHaveLength(64);
    const view = viewOf(sha256);
    await view.prefetch(["specs/1_x/reports/r.md", "specs/1_x"]);
    expect(view.check("specs/1_x/reports/r.md")).toMatchObject({ ok: true, size: 9 });
    expect(view.check("specs/1_x")).toMatchObject({ ok: false, kind: "directory" });
  });
});

describe("createGitFileView: the folders git names", () => {
  // A specs/ folder of many tasks: it changes with every commit of a history, and is large.
  const tasks = Object.fromEntries(Array.from({ length: 600 }, (_, index) => [`specs/${String(index + 100)}_task/.return-meta.json`, "{}\n"]));
  const files: Files = { ...tasks, "docs/real.md": "# Real\n", "specs/7_x/reports/r.md": "# Report\n", "specs/7_x/summaries/s.md": "# Summary\n", "specs/7_x/new\nline/r.md": "# Odd\n" };
  const repo = repository(files, { links: { "specs/7_x/docs": "../../docs" } });
  git(repo.dir, ["update-index", "--add", "--cacheinfo", `160000,${repo.commit},vendor/sub`]);
  Object.assign(repo, commitAll(repo.dir));

  /** A view over `repo` whose reader records what it is asked for. */
  function recordedView(): { view: GitFileView; contents: string[]; infos: string[] } {
    const objects = openGitObjects(path.join(repo.dir, ".git"));
    readers.push(objects);
    const asked = { contents: [] as string[], infos: [] as string[] };
    const recording: GitObjectReader = {
      info: (name) => {
        asked.infos.push(name);
        return objects.info(name);
      },
      contents: (name, maxBytes) => {
        asked.contents.push(name);
        return objects.contents(name, maxBytes);
      },
      close: () => {
        objects.close();
      },
    };
    return { view: createGitFileView({ cache: new GitObjectCache(recording), commit: repo.commit, tree: repo.tree, root: repo.dir, mtimeMs: 0 }), ...asked };
  }
  const specs = git(repo.dir, ["rev-parse", `${repo.commit}:specs`]);

  it("never reads a large folder on a path's way: git names the folder below it", async () => {
    const { view, contents, infos } = recordedView();
    await view.prefetch(["specs/7_x/reports/r.md", "specs/7_x/summaries/s.md", "specs/7_x/reports/missing.md", "specs/7_x/gone/r.md"]);
    expect(view.check("specs/7_x/reports/r.md")).toMatchObject({ ok: true, size: 9 });
    expect(view.check("specs/7_x/summaries/s.md")).toMatchObject({ ok: true, size: 10 });
    expect(view.check("specs/7_x/reports/missing.md")).toMatchObject({ ok: false, problem: "notFound" });
    expect(view.check("specs/7_x/gone/r.md")).toMatchObject({ ok: false, problem: "notFound" });
    expect(contents).not.toContain(specs);
    expect(contents).not.toContain(repo.tree);
    // The folder the paths share is asked for once, and each path walks from it.
    expect(infos.filter((name) => name === `${repo.tree}:specs/7_x`)).toHaveLength(1);
  });

  it("says a folder that git names no tree for is not found, as the walk above it finds", async () => {
    const { view } = recordedView();
    // git cannot tell a missing folder from a submodule whose commit is elsewhere: the folder above it is read.
    await view.prefetch(["specs/8_y/reports/r.md", "vendor/sub/README.md"]);
    expect(view.check("specs/8_y/reports/r.md")).toMatchObject({ ok: false, problem: "notFound" });
    expect(view.check("vendor/sub/README.md")).toMatchObject({ ok: false, problem: "notAFile", kind: "path inside a submodule" });
  });

  it("answers a link on the way, and a name git cannot be asked for, by walking the trees", async () => {
    const { view } = recordedView();
    await view.prefetch(["specs/7_x/docs/real.md", "specs/7_x/new\nline/r.md"]);
    expect(view.check("specs/7_x/docs/real.md")).toMatchObject({ ok: true, size: 7 });
    expect(view.check("specs/7_x/new\nline/r.md")).toMatchObject({ ok: true, size: 6 });
    expect(view.check("specs/7_x/docs/missing.md")).toMatchObject({ ok: false, problem: "notFound" });
  });
});

describe("openGitObjects", () => {
  const repo = repository({ "a.md": "alpha\n", "b.md": "" });

  it("answers many pipelined requests in order, through one --batch and one --batch-check process", async () => {
    const objects = openGitObjects(path.join(repo.dir, ".git"));
    readers.push(objects);
    const names = Array.from({ length: 500 }, (_, index) => (index % 2 === 0 ? `${repo.commit}:a.md` : `${repo.commit}:b.md`));
    const [contents, infos] = await Promise.all([Promise.all(names.map((name) => objects.contents(name))), Promise.all(names.map((name) => objects.info(name)))]);
    expect(contents.map((object) => object?.data.toString())).toEqual(names.map((_, index) => (index % 2 === 0 ? "alpha\n" : "")));
    expect(infos.map((info) => info?.size)).toEqual(names.map((_, index) => (index % 2 === 0 ? 6 : 0)));
  });

  it("says null for a missing object, keeps at most maxBytes, and refuses a name with a line break", async () => {
    const objects = openGitObjects(path.join(repo.dir, ".git"));
    readers.push(objects);
    expect(await objects.contents("0".repeat(40))).toBeNull();
    expect(await objects.info(`${repo.commit}:nope.md`)).toBeNull();
    expect(await objects.contents(`${repo.commit}:a.md`, 3)).toMatchObject({ type: "blob", size: 6, data: Buffer.from("alp") });
    await expect(objects.contents(`${repo.commit}\n${repo.commit}`)).rejects.toThrow(/not an object name/);
    // The stream is still in step after all that.
    expect((await objects.contents(`${repo.commit}:a.md`))?.data.toString()).toBe("alpha\n");
  });

  it("rejects pending and later requests when git is not there", async () => {
    const objects = openGitObjects(path.join(repo.dir, ".git"), { git: path.join(tempProject(), "no-such-git") });
    await expect(objects.info("HEAD")).rejects.toThrow(/git was not found/);
    await expect(objects.contents("HEAD")).rejects.toThrow(/git was not found/);
    objects.close();
  });
});

describe("GitTree", () => {
  const oid = (byte: number) => Buffer.alloc(20, byte);
  // A name that holds another entry's "<mode> <name>" must not be taken for it.
  const data = Buffer.concat([Buffer.from("100644 100644 b.md\0"), oid(0x01), Buffer.from("100644 a file.md\0"), oid(0xab), Buffer.from("40000 dossier é\0"), oid(0xcd)]);

  it("finds entries by name where they lie, names with spaces and non-ASCII characters too", () => {
    const tree = new GitTree(data, 20);
    expect(tree.get("a file.md")).toEqual({ mode: "100644", oid: "ab".repeat(20) });
    expect(tree.get("dossier é")).toEqual({ mode: "40000", oid: "cd".repeat(20) });
    expect(tree.get("b.md")).toBeUndefined();
    expect(tree.get("100644 b.md")).toEqual({ mode: "100644", oid: "01".repeat(20) });
  });

  it("answers the same once it has indexed a tree asked often", () => {
    const tree = new GitTree(data, 20);
    for (let round = 0; round < 20; round += 1) {
      expect(tree.get("a file.md")?.oid).toBe("ab".repeat(20));
      expect(tree.get("b.md")).toBeUndefined();
    }
    expect([...tree.entries()].map(([name]) => name)).toEqual(["100644 b.md", "a file.md", "dossier é"]);
  });
});
