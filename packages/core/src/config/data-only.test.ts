import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "./resolve.js";

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A folder with `files`; each module in it leaves `ran-<name>` beside itself when it is imported. */
function project(files: Readonly<Record<string, string>>): string {
  const dir = mkdtempSync(path.join(tmpdir(), "returnlint-data-only-"));
  folders.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  return dir;
}

const module = (name: string, exported: string) => `import { writeFileSync } from "node:fs";\nwriteFileSync(new URL("./ran-${name}", import.meta.url), "");\nexport default ${exported};\n`;
const RULE = `{ id: "x", meta: { description: "x", docs: "", schema: {}, messages: { x: { text: "x" } } }, check() {} }`;
const builtins = { builtinRules: new Map(), builtinPresets: new Map() };

describe("loadConfig({ dataOnly: true }): a config read as data runs none of its code", () => {
  it("refuses a JavaScript config before importing it", async () => {
    const dir = project({ "returnlint.config.mjs": module("config", "{}") });
    await expect(loadConfig({ cwd: dir, configFile: path.join(dir, "returnlint.config.mjs"), dataOnly: true, ...builtins })).rejects.toMatchObject({
      code: "CONFIG_UNREADABLE",
      message: expect.stringContaining("is code, and this config is read as data only") as unknown,
    });
    expect(existsSync(path.join(dir, "ran-config"))).toBe(false);
  });

  it("lists the rule and preset modules a JSON config names, and imports none of them", async () => {
    const dir = project({
      "returnlint.config.json": JSON.stringify({ preset: "./preset.mjs", rules: { "./rule.mjs": "error" } }),
      "rule.mjs": module("rule", RULE),
      "preset.mjs": module("preset", "{ rules: {} }"),
    });
    const loaded = await loadConfig({ cwd: dir, configFile: path.join(dir, "returnlint.config.json"), dataOnly: true, ...builtins });
    expect(loaded.refused).toEqual(['preset "./preset.mjs"', 'rule "./rule.mjs"']);
    expect(loaded.rules.size).toBe(0);
    expect([existsSync(path.join(dir, "ran-rule")), existsSync(path.join(dir, "ran-preset"))]).toEqual([false, false]);
    // The same config, not data only: both are imported (what the refusal prevents).
    const trusted = await loadConfig({ cwd: dir, configFile: path.join(dir, "returnlint.config.json"), ...builtins });
    expect(trusted.refused).toBeUndefined();
    expect([existsSync(path.join(dir, "ran-rule")), existsSync(path.join(dir, "ran-preset"))]).toEqual([true, true]);
  });
});
