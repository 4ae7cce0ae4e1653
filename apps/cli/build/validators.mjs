// Every built-in schema compiled ahead of time with ajv's standalone code: loading a config
// of built-in rules needs no ajv at run time (about 60 ms of start-up). @returnlint/api's
// precompiled.js is swapped, in both bundles, for a module that exports them: in dist/index.js
// the validators themselves; in cli.cjs functions that require each, when it is first called,
// from a chunk of its own (dist/chunks/validator-<key>.cjs) that the bin compiles with a code
// cache of its own where the build's training made one. A check without a config file reads none
// of them; one with a config reads the config's validator and those of the rules it gives options.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { configSchema } from "@returnlint/core";
import { Ajv2020 } from "ajv/dist/2020.js";
import standalone from "ajv/dist/standalone/index.js";
import { swapModule } from "./swap-module.mjs";

/** The chunk name of a validator's key: `config` → validator-config, `rule:summary-length` → validator-rule-summary-length. */
function chunkOf(key) {
  return `validator-${key.replace(":", "-")}`;
}

/**
 * Writes the compiled validators into `generated`; returns the swap that puts them in place of
 * @returnlint/api's precompiled.js (`plugin`, `assertSwapped`) and `lazy`: the chunks to bundle
 * (`chunks`, each `{ entry, chunk }`) and the swap, for cli.cjs, to functions that require them on first use.
 */
export function precompiledValidators(generated, rules) {
  const schemas = [["config", configSchema], ...rules.map(({ rule }) => [`rule:${rule.id}`, rule.meta.schema])];
  const ajv = new Ajv2020({ allErrors: true, strict: false, code: { source: true, esm: true } });
  for (const [index, [, schema]] of schemas.entries()) ajv.addSchema(schema, `v${String(index)}`);
  const standaloneCode = standalone.default;
  writeFileSync(new URL("validators.mjs", generated), standaloneCode(ajv, Object.fromEntries(schemas.map((_, index) => [`v${String(index)}`, `v${String(index)}`]))));
  // One module per validator, for its chunk: what a config needs is read, decoded and run, not all nineteen.
  const chunks = schemas.map(([key], index) => {
    const entry = new URL(`${chunkOf(key)}.mjs`, generated);
    writeFileSync(entry, standaloneCode(ajv, { validate: `v${String(index)}` }));
    return { entry: fileURLToPath(entry), chunk: `dist/chunks/${chunkOf(key)}.cjs` };
  });
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
      // `load` gives the chunk's exports: through the bin's loader, with the chunk's own code cache; by Node's require without it.
      `function validator(load) {`,
      `  let compiled;`,
      `  const validate = (value) => {`,
      `    compiled ??= load().validate;`,
      `    const valid = compiled(value);`,
      `    validate.errors = compiled.errors;`,
      `    return valid;`,
      `  };`,
      `  validate.errors = null;`,
      `  return validate;`,
      `}`,
      `export const PRECOMPILED = {`,
      ...schemas.map(([key]) => {
        const chunk = chunkOf(key);
        return `  ${JSON.stringify(key)}: validator(() => (typeof returnlintHost === "undefined" ? require(${JSON.stringify(`./chunks/${chunk}.cjs`)}) : returnlintHost.requireChunk(${JSON.stringify(chunk)}))),`;
      }),
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
      chunks,
      swap: {
        ...lazySwap,
        // The chunks' requires stay requires: files beside cli.cjs.
        plugin: {
          name: lazySwap.plugin.name,
          setup(build) {
            lazySwap.plugin.setup(build);
            build.onResolve({ filter: /^\.\/chunks\/validator-[\w-]+\.cjs$/ }, (args) => (args.importer === fileURLToPath(lazy) ? { path: args.path, external: true } : undefined));
          },
        },
      },
    },
  };
}
