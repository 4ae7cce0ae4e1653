// Every built-in schema compiled ahead of time with ajv's standalone code: loading a config
// of built-in rules needs no ajv at run time (about 60 ms of start-up). @returnlint/api's
// precompiled.js is swapped, in both bundles, for a module that exports them: in dist/index.js
// the validators themselves; in cli.cjs functions that require them, when one is first called,
// from a chunk (dist/chunks/validators.cjs) that the bin compiles with a code cache of its own, so
// that a check without a config file neither reads nor deserialises their code.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { configSchema } from "@returnlint/core";
import { Ajv2020 } from "ajv/dist/2020.js";
import standalone from "ajv/dist/standalone/index.js";
import { swapModule } from "./swap-module.mjs";

/**
 * Writes the compiled validators into `generated`; returns the swap that puts them in place of
 * @returnlint/api's precompiled.js (`plugin`, `assertSwapped`) and `lazy`: the chunk to bundle
 * (`entry`, `chunk`) and the swap, for cli.cjs, to functions that require it on first use.
 */
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
  // Each stands in for its validator, with the same `errors` after a call (core's SchemaValidator).
  const lazy = new URL("precompiled-lazy.mjs", generated);
  writeFileSync(
    lazy,
    [
      `let compiled;`,
      `function validator(name) {`,
      `  const validate = (value) => {`,
      // Through the bin's loader, with the chunk's own code cache; by Node's require without it.
      `    compiled ??= typeof returnlintHost === "undefined" ? require(${JSON.stringify(`./chunks/${VALIDATORS_CHUNK}.cjs`)}) : returnlintHost.requireChunk(${JSON.stringify(VALIDATORS_CHUNK)});`,
      `    const compiledValidate = compiled[name];`,
      `    const valid = compiledValidate(value);`,
      `    validate.errors = compiledValidate.errors;`,
      `    return valid;`,
      `  };`,
      `  validate.errors = null;`,
      `  return validate;`,
      `}`,
      `export const PRECOMPILED = {`,
      ...schemas.map(([key], index) => `  ${JSON.stringify(key)}: validator("v${String(index)}"),`),
      `};`,
      ``,
    ].join("\n"),
  );
  const api = path.dirname(fileURLToPath(import.meta.resolve("@returnlint/api")));
  const module = path.join(api, "precompiled.js");
  const lazySwap = swapModule({ name: "precompiled-validators-lazy", module, to: { path: fileURLToPath(lazy) } });
  return {
    ...swapModule({ name: "precompiled-validators", module, to: { path: fileURLToPath(precompiled) } }),
    lazy: {
      entry: fileURLToPath(new URL("validators.mjs", generated)),
      chunk: "dist/chunks/validators.cjs",
      swap: {
        ...lazySwap,
        // The chunk's require stays one: a file beside cli.cjs.
        plugin: {
          name: lazySwap.plugin.name,
          setup(build) {
            lazySwap.plugin.setup(build);
            build.onResolve({ filter: /^\.\/chunks\/validators\.cjs$/ }, (args) => (args.importer === fileURLToPath(lazy) ? { path: args.path, external: true } : undefined));
          },
        },
      },
    },
  };
}

/** The chunk of the compiled validators, dist/chunks/validators.cjs. */
const VALIDATORS_CHUNK = "validators";
