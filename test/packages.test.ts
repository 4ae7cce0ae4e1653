import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BUILTIN_RULES } from "returnlint";
import { REPO, workspacePackages, type Manifest } from "./workspace-packages.js";

// STYLE.md, "Packages look alike": every package.json has the same shape.
const packages = workspacePackages();
const names = new Set(packages.map(({ manifest }) => manifest.name));
/** Packages never published (@returnlint/testing): an install of a published package must not need them. */
const unpublished = new Set(packages.filter(({ manifest }) => manifest.private === true).map(({ manifest }) => manifest.name));

/** Each problem with one manifest, as a sentence; none for a package of the house shape. */
function problems(folder: string, manifest: Manifest): string[] {
  const found: string[] = [];
  const expect = (condition: boolean, problem: string) => {
    if (!condition) found.push(problem);
  };
  expect(manifest.type === "module", '"type" must be "module"');
  expect(manifest.sideEffects === false, '"sideEffects" must be false');
  expect(typeof manifest.license === "string" && manifest.license !== "", '"license" is missing');
  expect(typeof manifest.description === "string" && manifest.description !== "", '"description" is missing');
  expect(/^\d+\.\d+\.\d+/.test(manifest.version), `"version" must be semver; received ${JSON.stringify(manifest.version)}`);

  const exports = manifest.exports as Record<string, unknown> | undefined;
  const root = exports?.["."] as Record<string, unknown> | undefined;
  expect(root !== undefined && typeof root === "object", 'exports["."] must be an object of conditions');
  if (root !== undefined && typeof root === "object") {
    const conditions = Object.keys(root);
    expect(conditions.includes("types") && conditions.includes("default"), 'exports["."] must have "types" and "default"');
    expect(conditions.indexOf("types") < conditions.indexOf("default"), 'exports["."]: "types" must come before "default"');
  }
  expect(exports?.["./package.json"] === "./package.json", 'exports must include "./package.json": "./package.json"');

  const files = manifest.files;
  expect(Array.isArray(files) && files.includes("dist"), '"files" must include "dist"');
  const engines = manifest.engines as Record<string, unknown> | undefined;
  expect(engines?.node === ">=20.19", `engines.node must be ">=20.19"; received ${JSON.stringify(engines?.node)}`);

  const repository = manifest.repository as Record<string, unknown> | undefined;
  expect(repository?.type === "git" && typeof repository.url === "string", "repository must have type git and a url");
  expect(repository?.directory === folder, `repository.directory must be "${folder}"; received ${JSON.stringify(repository?.directory)}`);

  for (const field of ["dependencies", "devDependencies", "peerDependencies", "optionalDependencies"]) {
    for (const [dependency, range] of Object.entries((manifest[field] ?? {}) as Record<string, string>)) {
      if (names.has(dependency)) expect(range === "workspace:^", `${field}.${dependency} is internal and must be "workspace:^"; received "${range}"`);
      else expect(!range.startsWith("workspace:"), `${field}.${dependency} is not in the workspace; received "${range}"`);
      if (manifest.private !== true && field !== "devDependencies") expect(!unpublished.has(dependency), `${field}.${dependency} is never published: name it in devDependencies only`);
    }
  }
  expect(existsSync(path.join(REPO, folder, "README.md")), "README.md is missing");
  return found;
}

describe("package hygiene", () => {
  it("finds the packages, the CLI and the example plugin", () => {
    const folders = packages.map(({ folder }) => folder);
    expect(folders).toEqual(expect.arrayContaining(["packages/core", "packages/rule-tester", "apps/cli", "examples/returnlint-rule-no-placeholder-artifacts"]));
  });

  for (const { folder, manifest } of packages) {
    it(`${folder} (${manifest.name}) has the house shape`, () => {
      expect(problems(folder, manifest)).toEqual([]);
    });
  }

  it("names each rule package by its folder", () => {
    for (const { folder, manifest } of packages) {
      const base = path.posix.basename(folder);
      if (folder.startsWith("packages/rule-")) expect(manifest.name).toBe(`@returnlint/${base}`);
      if (folder.startsWith("examples/")) expect(manifest.name).toBe(base);
    }
  });

  it("keeps the example plugin out of the CLI: it is loaded by name, like any third-party rule", () => {
    expect(BUILTIN_RULES.has("no-placeholder-artifacts")).toBe(false);
    const cli = packages.find(({ folder }) => folder === "apps/cli")?.manifest;
    expect(Object.keys({ ...(cli?.dependencies as object | undefined), ...(cli?.devDependencies as object | undefined) })).not.toContain(
      "returnlint-rule-no-placeholder-artifacts",
    );
  });

  it("catches a manifest out of shape (the check itself can fail)", () => {
    const broken: Manifest = {
      name: "broken",
      version: "1",
      type: "commonjs",
      exports: { ".": { default: "./dist/index.js", types: "./dist/index.d.ts" } },
      files: ["src"],
      dependencies: { "@returnlint/core": "^0.1.0", lodash: "workspace:*", "@returnlint/testing": "workspace:^" },
    };
    expect(problems("packages/does-not-exist", broken)).toEqual([
      '"type" must be "module"',
      '"sideEffects" must be false',
      '"license" is missing',
      '"description" is missing',
      '"version" must be semver; received "1"',
      'exports["."]: "types" must come before "default"',
      'exports must include "./package.json": "./package.json"',
      '"files" must include "dist"',
      'engines.node must be ">=20.19"; received undefined',
      "repository must have type git and a url",
      'repository.directory must be "packages/does-not-exist"; received undefined',
      'dependencies.@returnlint/core is internal and must be "workspace:^"; received "^0.1.0"',
      'dependencies.lodash is not in the workspace; received "workspace:*"',
      "dependencies.@returnlint/testing is never published: name it in devDependencies only",
      "README.md is missing",
    ]);
  });
});
