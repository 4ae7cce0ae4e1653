// ajv, for compiling a contract's schema the first time a check meets it (core's config/contract-load.js):
// a chunk of its own (dist/chunks/contract-compiler.cjs) that cli.cjs requires only then. Inlined,
// its 130 kB would be read and decoded at every start, by every check and hook stop, which never
// run it once the contract is compiled and cached.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** What contract-load imports of ajv, by specifier, and the export of the chunk that stands for each. */
const IMPORTS = { "ajv/dist/2020.js": "ajv2020", "ajv/dist/standalone/index.js": "standalone" };

const NAMESPACE = "contract-compiler";
const CHUNK = "./chunks/contract-compiler.cjs";

/**
 * Writes the chunk's entry into `generated` (both of ajv's modules, so that they share one copy of
 * its compiler); returns it, to bundle as a chunk, and the plugin for cli.cjs that makes
 * contract-load's imports of them requires of that chunk (`assertSwapped` fails the build when it moved).
 */
export function contractCompiler(generated) {
  const entry = new URL("contract-compiler.cjs", generated);
  writeFileSync(entry, `module.exports = {\n${Object.entries(IMPORTS).map(([specifier, name]) => `  ${name}: require(${JSON.stringify(specifier)}),`).join("\n")}\n};\n`);
  const contractLoad = path.join(path.dirname(fileURLToPath(import.meta.resolve("@returnlint/core"))), "config", "contract-load.js");
  const filter = new RegExp(`^(${Object.keys(IMPORTS).map((specifier) => specifier.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")).join("|")})$`);
  let swapped = 0;
  return {
    entry: fileURLToPath(entry),
    chunk: `dist/chunks/contract-compiler.cjs`,
    plugin: {
      name: NAMESPACE,
      setup(build) {
        build.onResolve({ filter }, (args) => {
          if (args.kind !== "dynamic-import" || args.importer !== contractLoad) return undefined;
          swapped += 1;
          return { path: args.path, namespace: NAMESPACE };
        });
        build.onResolve({ filter: /^\.\/chunks\/contract-compiler\.cjs$/ }, (args) => (args.namespace === NAMESPACE ? { path: args.path, external: true } : undefined));
        build.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => ({ contents: `module.exports = require(${JSON.stringify(CHUNK)}).${IMPORTS[args.path]};\n`, loader: "js" }));
      },
    },
    assertSwapped() {
      if (swapped < Object.keys(IMPORTS).length) {
        throw new Error(`contract-compiler: cli.cjs imported ${String(swapped)} of ${Object.keys(IMPORTS).join(" and ")} from ${contractLoad}, so ajv would be inlined: did contract-load change how it imports them? (apps/cli/build/)`);
      }
    },
  };
}
