import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The built-in rules the CLI depends on (its @returnlint/rule-* devDependencies: bundled in, nothing to install), in name order, with each package's folder. */
export async function builtinRules(manifest) {
  const names = Object.keys(manifest.devDependencies)
    .filter((dependency) => dependency.startsWith("@returnlint/rule-"))
    .sort();
  const rules = [];
  for (const name of names) {
    const { default: rule } = await import(name);
    rules.push({ name, rule, folder: path.dirname(fileURLToPath(import.meta.resolve(`${name}/package.json`))) });
  }
  return rules;
}

/** The README of a built-in rule's package. */
export function readmeOf({ folder }) {
  return readFileSync(path.join(folder, "README.md"), "utf8");
}
