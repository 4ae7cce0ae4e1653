// The built-in rules' READMEs, for `returnlint explain`: a chunk that explain's chunk requires only then.
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { readmeOf } from "./rules.mjs";
import { swapModule } from "./swap-module.mjs";

/** Writes the READMEs' module into `generated`; returns it, to bundle as a chunk, and the plugin that makes src/rule-docs.ts a require of that chunk (from explain's, beside it in dist/chunks/). */
export function ruleDocs(generated, rules) {
  const readmes = Object.fromEntries(rules.map((entry) => [entry.rule.id, readmeOf(entry)]));
  const entry = new URL("rule-docs.mjs", generated);
  writeFileSync(entry, `export const RULE_DOCS = ${JSON.stringify(readmes, null, 2)};\n`);
  return {
    entry: fileURLToPath(entry),
    chunk: "dist/chunks/rule-docs.cjs",
    swap: swapModule({ name: "rule-docs", module: fileURLToPath(new URL("../src/rule-docs.js", import.meta.url)), to: { path: "./rule-docs.cjs", external: true } }),
  };
}
