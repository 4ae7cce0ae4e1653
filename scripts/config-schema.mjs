// Writes the config schema editors complete from (packages/core/config.schema.json, published as
// @returnlint/core/config.schema.json): the config's shape with every built-in rule's id and its own
// options schema. `node scripts/config-schema.mjs --check` only reports a stale file (exit 1).
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { editorSchema } from "@returnlint/core";
import { loadBuiltinRules } from "@returnlint/api";

export const SCHEMA_FILE = new URL("../packages/core/config.schema.json", import.meta.url);

export async function renderSchema() {
  const rules = await loadBuiltinRules();
  return `${JSON.stringify(editorSchema([...rules.values()].map(({ rule }) => rule)), null, 2)}\n`;
}

if (fileURLToPath(import.meta.url) === path.resolve(process.argv[1] ?? "")) {
  const check = process.argv.includes("--check");
  let before = "";
  try {
    before = readFileSync(SCHEMA_FILE, "utf8");
  } catch {
    // Not written yet.
  }
  const after = await renderSchema();
  if (after === before) console.log("packages/core/config.schema.json is up to date.");
  else if (check) {
    console.log("stale: packages/core/config.schema.json (run pnpm docs:schema)");
    process.exitCode = 1;
  } else {
    writeFileSync(SCHEMA_FILE, after);
    console.log("Wrote packages/core/config.schema.json.");
  }
}
