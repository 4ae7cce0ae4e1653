import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tempProject, writeFiles } from "@returnlint/testing";
import { cacheFolder, entryName, keepValue, keptValue } from "./cache.js";
import { readConfig } from "./load.js";

const saved = process.env.RETURNLINT_CACHE_DIR;
afterEach(() => {
  if (saved === undefined) delete process.env.RETURNLINT_CACHE_DIR;
  else process.env.RETURNLINT_CACHE_DIR = saved;
});

describe("returnlint's cache folder", () => {
  it("keeps a value under its text and gives it back only for that very text", () => {
    const folder = path.join(tempProject(), "kept");
    keepValue(folder, "f1", "a: 1\n", { a: 1 });
    expect(keptValue(folder, "f1", "a: 1\n")).toEqual({ value: { a: 1 } });
    expect(keptValue(folder, "f1", "a: 2\n")).toBeUndefined();
    // Another format (what is kept changed) is another entry.
    expect(keptValue(folder, "f2", "a: 1\n")).toBeUndefined();
    // An entry whose first line is another text (two texts sharing a name take turns) is not used.
    const entry = path.join(folder, `${entryName("f1", "a: 1\n")}.json`);
    writeFileSync(entry, `${JSON.stringify("b: 1\n")}\n{"b":1}`);
    expect(keptValue(folder, "f1", "a: 1\n")).toBeUndefined();
  });

  it("keeps no value JSON would not give back as it is", () => {
    const folder = path.join(tempProject(), "kept");
    keepValue(folder, "f", "a: .inf\n", { a: Infinity });
    keepValue(folder, "f", "a: -0\n", { a: -0 });
    keepValue(folder, "f", "a: !!binary\n", { a: new Uint8Array([1]) });
    keepValue(folder, "f", "__proto__: {}\n", { ["__proto__"]: {} });
    expect(existsSync(folder)).toBe(false);
  });

  it("is $RETURNLINT_CACHE_DIR/KIND when set", () => {
    process.env.RETURNLINT_CACHE_DIR = "/somewhere";
    expect(cacheFolder("configs")).toBe(path.join("/somewhere", "configs"));
  });
});

describe("a YAML config", () => {
  it("parsed once is read from the cache by later checks, and a changed file is parsed again", async () => {
    const root = tempProject();
    process.env.RETURNLINT_CACHE_DIR = path.join(root, ".cache");
    writeFiles(root, { "returnlint.config.yaml": "# the project's\npreset: v7\nrules:\n  summary-length: [warn, { maxChars: 300 }]\n" });
    const file = path.join(root, "returnlint.config.yaml");
    const parsed = { preset: "v7", rules: { "summary-length": ["warn", { maxChars: 300 }] } };
    expect(await readConfig(file)).toEqual({ file, value: parsed });
    const folder = path.join(root, ".cache", "configs");
    const [entry] = readdirSync(folder);
    expect(readFileSync(path.join(folder, entry ?? ""), "utf8").split("\n")).toEqual([JSON.stringify(readFileSync(file, "utf8")), JSON.stringify(parsed)]);
    // What the cache holds is what a later read gives (the YAML is not parsed again): a kept value stands in for it.
    writeFileSync(path.join(folder, entry ?? ""), `${JSON.stringify(readFileSync(file, "utf8"))}\n{"preset":"v5"}`);
    expect(await readConfig(file)).toEqual({ file, value: { preset: "v5" } });
    writeFiles(root, { "returnlint.config.yaml": "preset: metadata-file\n" });
    expect(await readConfig(file)).toEqual({ file, value: { preset: "metadata-file" } });
  });

  it("that is not valid YAML says so every time, and nothing is kept", async () => {
    const root = tempProject();
    process.env.RETURNLINT_CACHE_DIR = path.join(root, ".cache");
    writeFiles(root, { "returnlint.config.yaml": "preset: [v7\n" });
    for (let run = 0; run < 2; run += 1) await expect(readConfig(path.join(root, "returnlint.config.yaml"))).rejects.toThrow(/is not valid YAML/);
    expect(existsSync(path.join(root, ".cache", "configs"))).toBe(false);
  });
});
