import { mkdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tempProject, writeFiles, type Files } from "@returnlint/testing";
import { findConfig } from "./load.js";

const root = tempProject();

/** A folder below the root (made even when empty) holding `files`. */
function folder(relative: string, files: Files = {}): string {
  const dir = path.join(root, relative);
  mkdirSync(dir, { recursive: true });
  writeFiles(dir, files);
  return dir;
}

describe("findConfig", () => {
  it("finds the nearest config upwards and names it by its normalised absolute path", async () => {
    const project = folder("a", { "returnlint.config.json": { preset: "v7" } });
    const deep = folder("a/b/c");
    for (const cwd of [deep, `${deep}${path.sep}`, path.join(deep, "..", "c"), path.relative(process.cwd(), deep)]) {
      expect(await findConfig(cwd)).toEqual({ file: path.join(project, "returnlint.config.json"), value: { preset: "v7" } });
    }
  });

  it("takes the names in order in one folder, and a folder's config before a package.json key further up", async () => {
    const project = folder("b", { "package.json": { name: "b", returnlint: { preset: "v5" } } });
    folder("b/app", { "returnlint.config.yml": "preset: v7\n", "returnlint.config.json": { preset: "metadata-file" } });
    expect(await findConfig(path.join(project, "app"))).toMatchObject({ file: path.join(project, "app", "returnlint.config.json") });
    expect(await findConfig(folder("b/lib"))).toEqual({ file: path.join(project, "package.json"), value: { preset: "v5" } });
  });

  it("passes over a package.json without a returnlint key", async () => {
    const project = folder("c", { "returnlint.config.json": { preset: "v7" } });
    const inner = folder("c/pkg", { "package.json": { name: "pkg" } });
    expect(await findConfig(inner)).toMatchObject({ file: path.join(project, "returnlint.config.json") });
  });
});
