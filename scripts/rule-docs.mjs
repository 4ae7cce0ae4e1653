// Regenerates the options table of every built-in rule's README from its schema.
// `node scripts/rule-docs.mjs --check` only reports stale READMEs (exit 1).
import { readFileSync, writeFileSync } from "node:fs";
import { withOptionsTable } from "@returnlint/core";
import { loadBuiltinRules } from "@returnlint/api";

const check = process.argv.includes("--check");
let stale = 0;
for (const [id, { rule }] of await loadBuiltinRules()) {
  const file = new URL(`../packages/rule-${id}/README.md`, import.meta.url);
  const before = readFileSync(file, "utf8");
  const after = withOptionsTable(before, rule.meta);
  if (after === before) continue;
  stale += 1;
  if (check) console.log(`stale: packages/rule-${id}/README.md`);
  else writeFileSync(file, after);
}
if (check && stale > 0) process.exitCode = 1;
else if (!check) console.log(stale === 0 ? "All rule READMEs are up to date." : `Updated ${String(stale)} rule README(s).`);
