import { mkdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tempProject } from "@returnlint/testing";
import { locateModule } from "./locate-module.js";

/** A project with a package under node_modules with `manifest` and the files given, each holding a line of JS. */
function packageWith(manifest: Record<string, unknown>, files: readonly string[]): { base: string; folder: string } {
  const installed = "node_modules/returnlint-rule-x";
  const base = tempProject({
    [`${installed}/package.json`]: { name: "returnlint-rule-x", ...manifest },
    ...Object.fromEntries(files.map((file) => [`${installed}/${file}`, "export default {};\n"])),
  });
  return { base, folder: path.join(base, installed) };
}

describe("locateModule's package entry, as Node's import finds it", () => {
  const cases: readonly [string, Record<string, unknown>, readonly string[], string][] = [
    ["a string", { exports: "./a.js" }, ["a.js"], "a.js"],
    ["the '.' subpath", { exports: { ".": "./a.js", "./other": "./b.js" } }, ["a.js", "b.js"], "a.js"],
    ["the first condition that applies, in the manifest's order", { exports: { require: "./c.cjs", node: "./n.js", default: "./d.js" } }, ["c.cjs", "n.js", "d.js"], "n.js"],
    // resolve.exports stops at "node" here and finds nothing; Node goes on to "default".
    ["a condition whose nested conditions give nothing falls through", { exports: { node: { require: "./c.cjs" }, default: "./d.js" } }, ["c.cjs", "d.js"], "d.js"],
    ["an array's first target that applies", { exports: { ".": [{ require: "./c.cjs" }, "./a.js", "./b.js"] } }, ["a.js", "b.js"], "a.js"],
    ["main without exports", { main: "lib/main" }, ["lib/main.js"], "lib/main.js"],
    ["index.js without main", {}, ["index.js"], "index.js"],
  ];
  it.each(cases)("%s", (_name, manifest, files, expected) => {
    const { base, folder } = packageWith(manifest, files);
    expect(locateModule("returnlint-rule-x", base).file).toBe(path.join(folder, expected));
  });

  it("finds the package in a node_modules further up", () => {
    const { base, folder } = packageWith({ exports: "./a.js" }, ["a.js"]);
    const below = path.join(base, "deep", "er");
    mkdirSync(below, { recursive: true });
    expect(locateModule("returnlint-rule-x", below)).toEqual({ file: path.join(folder, "a.js"), tried: `package "returnlint-rule-x" (${folder})` });
  });

  it("refuses a target that climbs out of the package, and exports that give nothing to import", () => {
    const climbing = packageWith({ exports: "./../outside.js" }, []);
    expect(() => locateModule("returnlint-rule-x", climbing.base)).toThrow(/is refused: its "exports" target "\.\/\.\.\/outside\.js" is not a path inside the package/);
    const requireOnly = packageWith({ exports: { ".": { require: "./c.cjs" } } }, ["c.cjs"]);
    expect(() => locateModule("returnlint-rule-x", requireOnly.base)).toThrow(/its "exports" give no "\." entry for the import, node or default condition/);
  });

  it("says where it looked when there is no such package", () => {
    const base = tempProject();
    const found = locateModule("returnlint-rule-missing", base);
    expect(found.file).toBeUndefined();
    expect(found.tried).toContain(`package "returnlint-rule-missing" from ${base} (searched ${path.join(base, "node_modules")}`);
  });
});
