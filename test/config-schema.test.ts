import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { editorSchema } from "@returnlint/core";
import { loadBuiltinRules } from "returnlint";

const BUILTIN_RULES = await loadBuiltinRules();

const REPO = fileURLToPath(new URL("..", import.meta.url));
const published = readFileSync(path.join(REPO, "packages", "core", "config.schema.json"), "utf8");
const schema = JSON.parse(published) as { properties: { rules: { $ref: string } }; $defs: { rules: { properties: Record<string, { description: string; oneOf: Record<string, unknown>[] }> } } };
const validate = new Ajv2020({ strict: false, allErrors: true }).compile(schema);

describe("the published config schema (@returnlint/core/config.schema.json)", () => {
  it("is generated from the rules' own option schemas and up to date (run `pnpm docs:schema` when this fails)", () => {
    expect(published).toBe(`${JSON.stringify(editorSchema([...BUILTIN_RULES.values()].map(({ rule }) => rule)), null, 2)}\n`);
  });

  it("is the document the CLI package ships as returnlint/config.schema.json", () => {
    expect(readFileSync(path.join(REPO, "apps", "cli", "dist", "config.schema.json"), "utf8")).toBe(published);
  });

  it("names every built-in rule, with its description and docs, and its options for completion", () => {
    const rules = schema.$defs.rules.properties;
    expect(Object.keys(rules).sort()).toEqual([...BUILTIN_RULES.keys()].sort());
    for (const [id, { rule }] of BUILTIN_RULES) {
      expect(rules[id]?.description).toBe(`${rule.meta.description} ${rule.meta.docs}`);
      const options = (rules[id]?.oneOf[2]?.prefixItems as Record<string, unknown>[] | undefined)?.[1] as { properties?: Record<string, unknown> } | undefined;
      expect(Object.keys(options?.properties ?? {}).sort(), id).toEqual(Object.keys((rule.meta.schema.properties as Record<string, unknown> | undefined) ?? {}).sort());
    }
  });

  it("is the file the example config points its $schema at", () => {
    const example = JSON.parse(readFileSync(path.join(REPO, "examples", "metadata-file", "returnlint.config.json"), "utf8")) as { $schema: string };
    expect(path.resolve(REPO, "examples", "metadata-file", example.$schema)).toBe(path.join(REPO, "packages", "core", "config.schema.json"));
  });

  it("accepts the example config and a partial options object, and rejects a bad option value or severity where an editor should flag it", () => {
    expect(validate(JSON.parse(readFileSync(path.join(REPO, "examples", "metadata-file", "returnlint.config.json"), "utf8")))).toBe(true);
    expect(validate({ rules: { "status-enum": ["error", { variant: "contextual" }] }, commands: { review: { preset: "returnlint-preset-team", rules: { "./rules/x.mjs": "warn" } } } })).toBe(true);
    expect(validate({ rules: { "summary-length": ["warn", { maxChars: 0 }] } })).toBe(false);
    expect(validate({ commands: { research: { rules: { "status-enum": ["error", { variant: "legacy", typo: true }] } } } })).toBe(false);
    expect(validate({ rules: { artifacts: "fatal" } })).toBe(false);
  });
});
