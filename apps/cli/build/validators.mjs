// Every built-in schema compiled ahead of time with ajv's standalone code: loading a config
// of built-in rules needs no ajv at run time (about 60 ms of start-up). @returnlint/api's
// precompiled.js is swapped, in both bundles, for a module that exports them.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { configSchema } from "@returnlint/core";
import { Ajv2020 } from "ajv/dist/2020.js";
import standalone from "ajv/dist/standalone/index.js";
import { swapModule } from "./swap-module.mjs";

/** Writes the compiled validators into `generated`; returns the plugin that puts them in place of @returnlint/api's precompiled.js. */
export function precompiledValidators(generated, rules) {
  const schemas = [["config", configSchema], ...rules.map(({ rule }) => [`rule:${rule.id}`, rule.meta.schema])];
  const ajv = new Ajv2020({ allErrors: true, strict: false, code: { source: true, esm: true } });
  for (const [index, [, schema]] of schemas.entries()) ajv.addSchema(schema, `v${String(index)}`);
  const standaloneCode = standalone.default;
  writeFileSync(new URL("validators.mjs", generated), standaloneCode(ajv, Object.fromEntries(schemas.map((_, index) => [`v${String(index)}`, `v${String(index)}`]))));
  const precompiled = new URL("precompiled.mjs", generated);
  writeFileSync(
    precompiled,
    `import * as compiled from "./validators.mjs";\nexport const PRECOMPILED = {\n${schemas.map(([key], index) => `  ${JSON.stringify(key)}: compiled.v${String(index)},`).join("\n")}\n};\n`,
  );
  const api = path.dirname(fileURLToPath(import.meta.resolve("@returnlint/api")));
  return swapModule({ name: "precompiled-validators", module: path.join(api, "precompiled.js"), to: { path: fileURLToPath(precompiled) } });
}
