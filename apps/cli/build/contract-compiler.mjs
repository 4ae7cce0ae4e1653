// ajv, for compiling a contract's schema the first time a check meets it (core's config/contract-load.js):
// a chunk of its own (dist/chunks/contract-compiler.cjs) that cli.cjs requires only then. Inlined,
// its 130 kB would be read and decoded at every start, by every check and hook stop, which never
// run it once the contract is compiled and cached. The one runtime helper of ajv's that is not
// small, `uri` (fast-uri, 15 kB), which compiled code names only for a schema's `format: uri`, is a
// chunk of its own too (dist/chunks/contract-uri.cjs).
import { writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** What contract-load imports of ajv, by specifier: the chunk that holds it, and under which name. */
const IMPORTS = {
  "ajv/dist/2020.js": { chunk: "contract-compiler", name: "ajv2020" },
  "ajv/dist/standalone/index.js": { chunk: "contract-compiler", name: "standalone" },
  "ajv/dist/runtime/uri.js": { chunk: "contract-uri", name: "uri" },
};

const NAMESPACE = "contract-compiler";

/**
 * Writes the chunks' entries into `generated` (the compiler's two modules in one, so that they share
 * one copy of its code); returns them (`chunks`, each `{ entry, chunk }`, to bundle) and the plugin
 * for cli.cjs that makes contract-load's imports requires of them (`assertSwapped` fails the build
 * when that no longer happens).
 */
export function contractCompiler(generated) {
  const chunks = [...new Set(Object.values(IMPORTS).map(({ chunk }) => chunk))].map((chunk) => {
    const entry = new URL(`${chunk}.cjs`, generated);
    const members = Object.entries(IMPORTS).filter(([, where]) => where.chunk === chunk);
    writeFileSync(entry, `module.exports = {\n${members.map(([specifier, { name }]) => `  ${name}: require(${JSON.stringify(specifier)}),`).join("\n")}\n};\n`);
    return { entry: fileURLToPath(entry), chunk: `dist/chunks/${chunk}.cjs` };
  });
  const contractLoad = path.join(path.dirname(fileURLToPath(import.meta.resolve("@returnlint/core"))), "config", "contract-load.js");
  const filter = new RegExp(`^(${Object.keys(IMPORTS).map((specifier) => specifier.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")).join("|")})$`);
  const swapped = new Set();
  return {
    chunks,
    plugin: {
      name: NAMESPACE,
      setup(build) {
        build.onResolve({ filter }, (args) => {
          if (args.kind !== "dynamic-import" || args.importer !== contractLoad) return undefined;
          swapped.add(args.path);
          return { path: args.path, namespace: NAMESPACE };
        });
        build.onResolve({ filter: /^\.\/chunks\/contract-[\w-]+\.cjs$/ }, (args) => (args.namespace === NAMESPACE ? { path: args.path, external: true } : undefined));
        build.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => {
          const { chunk, name } = IMPORTS[args.path];
          return { contents: `module.exports = require(${JSON.stringify(`./chunks/${chunk}.cjs`)}).${name};\n`, loader: "js" };
        });
      },
    },
    assertSwapped() {
      const missed = Object.keys(IMPORTS).filter((specifier) => !swapped.has(specifier));
      if (missed.length > 0) {
        throw new Error(`contract-compiler: cli.cjs never imported ${missed.join(", ")} from ${contractLoad}, so ajv's code would be inlined: did contract-load change how it imports it? (apps/cli/build/)`);
      }
    },
  };
}
