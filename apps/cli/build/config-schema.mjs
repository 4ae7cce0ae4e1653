// The config schema for editors, with every built-in rule's options (`returnlint/config.schema.json`;
// the same document @returnlint/core publishes, which a repository test keeps in step).
import { writeFileSync } from "node:fs";
import { editorSchema } from "@returnlint/core";

export function writeConfigSchema(dist, rules) {
  writeFileSync(new URL("config.schema.json", dist), `${JSON.stringify(editorSchema(rules.map(({ rule }) => rule)), null, 2)}\n`);
}
