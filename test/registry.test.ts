import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { BUILTIN_PRESETS } from "@returnlint/api";
import { docsUrl } from "@returnlint/core";
import { BUILTIN_RULES, loadBuiltinRules } from "returnlint";

const LOADED = await loadBuiltinRules();

const REPO = fileURLToPath(new URL("..", import.meta.url));
const rulePackages = readdirSync(path.join(REPO, "packages")).filter((name) => name.startsWith("rule-") && name !== "rule-tester");

describe("the rule registry", () => {
  it("registers every rule package, and nothing else", () => {
    expect([...BUILTIN_RULES.keys()].sort()).toEqual(rulePackages.map((name) => name.slice("rule-".length)).sort());
  });

  it("imports each rule from its own package, once, under the id it is registered by", async () => {
    for (const [id, builtin] of BUILTIN_RULES) {
      const loaded = await builtin.load();
      expect(loaded.rule.id).toBe(id);
      expect(loaded.source).toBe(`@returnlint/rule-${id}`);
      expect(await builtin.load()).toBe(loaded);
      expect(LOADED.get(id)).toBe(loaded);
    }
    expect([...LOADED.keys()]).toEqual([...BUILTIN_RULES.keys()]);
  });

  for (const folder of rulePackages) {
    const id = folder.slice("rule-".length);
    it(`${id}: folder, package name, docs URL and README title agree`, () => {
      const manifest = JSON.parse(readFileSync(path.join(REPO, "packages", folder, "package.json"), "utf8")) as { name: string };
      expect(manifest.name).toBe(`@returnlint/${folder}`);
      expect(LOADED.get(id)?.rule.meta.docs).toBe(docsUrl(id));
      const readme = path.join(REPO, "packages", folder, "README.md");
      expect(existsSync(readme), `${readme} is missing`).toBe(true);
      expect(readFileSync(readme, "utf8").split("\n")[0]).toBe(`# ${id}`);
    });
  }
});

describe("returnlint rules and returnlint explain, as a user runs them", () => {
  const BIN = path.join(REPO, "apps", "cli", "dist", "returnlint.cjs");
  const run = (args: string[]) => spawnSync(process.execPath, [BIN, ...args], { cwd: REPO, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });

  it("rules --format json lists the registry: same ids, descriptions, docs URLs and preset severities", () => {
    const listed = JSON.parse(run(["rules", "--format", "json"]).stdout) as { id: string; description: string; docs: string; builtin: boolean; presets: Record<string, string> }[];
    expect(listed.map((rule) => rule.id)).toEqual([...BUILTIN_RULES.keys()]);
    for (const rule of listed) {
      const { meta } = LOADED.get(rule.id)?.rule ?? { meta: undefined };
      expect(rule).toMatchObject({ description: meta?.description, docs: meta?.docs, builtin: true });
      for (const [name, preset] of BUILTIN_PRESETS) {
        const entry = preset.rules[rule.id];
        expect(rule.presets[name], `${rule.id} in ${name}`).toBe(entry === undefined ? "off" : Array.isArray(entry) ? entry[0] : entry);
      }
    }
  });

  for (const folder of rulePackages) {
    const id = folder.slice("rule-".length);
    it(`explain ${id} prints packages/${folder}/README.md as it is`, () => {
      const explained = run(["explain", id]);
      expect(explained.status).toBe(0);
      expect(explained.stdout).toBe(readFileSync(path.join(REPO, "packages", folder, "README.md"), "utf8"));
    });
  }
});

describe("the built-in presets", () => {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  for (const [name, preset] of BUILTIN_PRESETS) {
    it(`${name}: names only registered rules, with options their schemas accept`, () => {
      for (const [id, entry] of Object.entries(preset.rules)) {
        const loaded = LOADED.get(id);
        expect(loaded, `${name} names unknown rule ${id}`).toBeDefined();
        if (loaded === undefined) continue;
        const options = { ...(loaded.rule.meta.defaultOptions as object), ...(Array.isArray(entry) ? (entry[1] as object | undefined) : {}) };
        const validate = ajv.compile(loaded.rule.meta.schema);
        expect(validate(options), `${name} → ${id}: ${ajv.errorsText(validate.errors)}`).toBe(true);
      }
    });
  }
});
