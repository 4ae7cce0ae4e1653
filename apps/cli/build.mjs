// Bundles the CLI and the library API: start-up is the product's latency (DESIGN.md,
// "Performance by design").
//
// - dist/cli.cjs: the whole CLI as one CommonJS file. Node starts CommonJS several
//   milliseconds sooner than ESM (no ESM loader to set up), which is most of the
//   budget between `node -e 0` and a whole check. Commands are bundled in but run
//   their module code only when used.
// - dist/returnlint.cjs, the `bin`: a loader that compiles cli.cjs with V8's code
//   cache, dist/cli.cjs.cache, made here by a training run of a real check. Compiling
//   the bundle is otherwise a few milliseconds of every run. A cache made by another
//   Node version is rejected by V8 and the loader compiles from source as usual.
// - dist/chunks/config-*.cjs: ajv and yaml, which core imports only when a config
//   file needs them; required lazily so that a check without a config never parses them.
// - dist/returnlint.js: the same CLI for `node dist/returnlint.js` (README, scripts),
//   a two-line ESM file that loads returnlint.cjs.
// - dist/index.js: the library API as ESM, with code splitting.
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { configSchema, editorSchema } from "@returnlint/core";
import { Ajv2020 } from "ajv/dist/2020.js";
import standalone from "ajv/dist/standalone/index.js";
import { build } from "esbuild";

const { version } = JSON.parse(readFileSync(new URL("package.json", import.meta.url), "utf8"));
const dist = new URL("dist/", import.meta.url);

// esbuild does not delete what an earlier build wrote: stale chunks would pile up.
rmSync(new URL("chunks/", dist), { recursive: true, force: true });

const shared = {
  absWorkingDir: fileURLToPath(new URL(".", import.meta.url)),
  bundle: true,
  platform: "node",
  target: "node20",
  legalComments: "none",
  logLevel: "warning",
  define: { RETURNLINT_VERSION: JSON.stringify(version) },
};

/** core's `import("./options.js")` and `import("./yaml.js")` become requires of separate files. */
const LAZY_CONFIG_MODULES = /^\.\/(options|yaml)\.js$/;
const lazyConfigChunks = {
  name: "lazy-config-chunks",
  setup(plugin) {
    plugin.onResolve({ filter: LAZY_CONFIG_MODULES }, (args) => {
      if (args.kind !== "dynamic-import" || !/[\\/]core[\\/]dist[\\/]config[\\/]/.test(args.importer)) return undefined;
      const name = LAZY_CONFIG_MODULES.exec(args.path)?.[1];
      return { path: `./chunks/config-${name}.cjs`, external: true };
    });
  },
};

// Every built-in schema compiled ahead of time with ajv's standalone code: loading a config
// of built-in rules needs no ajv at run time (about 60 ms of start-up). @returnlint/api's
// precompiled.js is replaced, in both bundles, by a module that exports them.
const manifest = JSON.parse(readFileSync(new URL("package.json", import.meta.url), "utf8"));
const schemas = [["config", configSchema]];
const ruleDependencies = Object.keys(manifest.dependencies).filter((dependency) => dependency.startsWith("@returnlint/rule-")).sort();
for (const name of ruleDependencies) {
  const { default: rule } = await import(name);
  schemas.push([`rule:${rule.id}`, rule.meta.schema]);
}
const ajv = new Ajv2020({ allErrors: true, strict: false, code: { source: true, esm: true } });
for (const [index, [, schema]] of schemas.entries()) ajv.addSchema(schema, `v${String(index)}`);
const generated = new URL(".generated/", import.meta.url);
rmSync(generated, { recursive: true, force: true });
mkdirSync(generated, { recursive: true });
const standaloneCode = standalone.default;
writeFileSync(new URL("validators.mjs", generated), standaloneCode(ajv, Object.fromEntries(schemas.map((_, index) => [`v${String(index)}`, `v${String(index)}`]))));
writeFileSync(
  new URL("precompiled.mjs", generated),
  `import * as compiled from "./validators.mjs";\nexport const PRECOMPILED = {\n${schemas.map(([key], index) => `  ${JSON.stringify(key)}: compiled.v${String(index)},`).join("\n")}\n};\n`,
);
const precompiled = {
  name: "precompiled-validators",
  setup(plugin) {
    plugin.onResolve({ filter: /^\.\/precompiled\.js$/ }, (args) => {
      if (!/[\\/]api[\\/]dist$/.test(args.resolveDir)) return undefined;
      precompiledReplaced += 1;
      return { path: fileURLToPath(new URL("precompiled.mjs", generated)) };
    });
  },
};
/** How many bundles had @returnlint/api's precompiled.js replaced: a build that missed one fails below. */
let precompiledReplaced = 0;

// The built-in rules' READMEs, for `returnlint explain`: a chunk the bin requires only then.
const readmes = {};
for (const name of ruleDependencies) {
  const { default: rule } = await import(name);
  const folder = path.dirname(fileURLToPath(import.meta.resolve(`${name}/package.json`)));
  readmes[rule.id] = readFileSync(path.join(folder, "README.md"), "utf8");
}
writeFileSync(new URL("rule-docs.mjs", generated), `export const RULE_DOCS = ${JSON.stringify(readmes, null, 2)};\n`);
/** explain.ts's `import("../rule-docs.js")`: the bin requires the chunk only for `returnlint explain`. */
const ruleDocs = {
  name: "rule-docs",
  setup(plugin) {
    plugin.onResolve({ filter: /^\.\.\/rule-docs\.js$/ }, (args) =>
      /[\\/]cli[\\/]src[\\/]commands$/.test(args.resolveDir) ? { path: "./chunks/rule-docs.cjs", external: true } : undefined,
    );
  },
};

// Chart.js, for the audit's HTML report: its text inlined into a chunk the bin requires only for
// `audit --format html`, so that the report is one self-contained page and the installed CLI needs
// neither chart.js nor the network. src/audit/chart-library.ts reads node_modules only as the sources run.
// The UMD build sits beside the package's main file (its "exports" do not list it).
const chartSource = readFileSync(path.join(path.dirname(fileURLToPath(import.meta.resolve("chart.js"))), "chart.umd.min.js"), "utf8");
writeFileSync(new URL("chart-library.mjs", generated), `export function chartLibrary() {\n  return ${JSON.stringify(chartSource)};\n}\n`);
const chartLibrary = {
  name: "chart-library",
  setup(plugin) {
    plugin.onResolve({ filter: /^\.\/chart-library\.js$/ }, (args) =>
      /[\\/]cli[\\/]src[\\/]audit$/.test(args.resolveDir) ? { path: "./chunks/chart-library.cjs", external: true } : undefined,
    );
  },
};

const configModule = (name) => fileURLToPath(new URL(`../../packages/core/dist/config/${name}.js`, import.meta.url));

await Promise.all([
  build({
    ...shared,
    entryPoints: { index: "src/index.ts" },
    outdir: "dist",
    chunkNames: "chunks/[name]-[hash]",
    splitting: true,
    format: "esm",
    plugins: [precompiled],
    banner: { js: "import { createRequire as __returnlintRequire } from 'node:module'; const require = __returnlintRequire(import.meta.url);" },
  }),
  // No import() in cli.cjs: the lazy chunks become requires, and the user's files are imported
  // through the loader (core's config/import-file.ts says why).
  build({
    ...shared,
    entryPoints: ["src/bin.ts"],
    outfile: "dist/cli.cjs",
    format: "cjs",
    supported: { "dynamic-import": false },
    plugins: [lazyConfigChunks, precompiled, ruleDocs, chartLibrary],
  }),
  build({ ...shared, entryPoints: [fileURLToPath(new URL("chart-library.mjs", generated))], outfile: "dist/chunks/chart-library.cjs", format: "cjs" }),
  build({ ...shared, entryPoints: [fileURLToPath(new URL("rule-docs.mjs", generated))], outfile: "dist/chunks/rule-docs.cjs", format: "cjs" }),
  build({ ...shared, entryPoints: [configModule("options")], outfile: "dist/chunks/config-options.cjs", format: "cjs" }),
  build({ ...shared, entryPoints: [configModule("yaml")], outfile: "dist/chunks/config-yaml.cjs", format: "cjs" }),
  // Custom rules' thread (core's isolation.ts): started by the bin and the library only when a config names one.
  build({ ...shared, entryPoints: [configModule("../rule-worker")], outfile: "dist/chunks/rule-worker.cjs", format: "cjs", plugins: [lazyConfigChunks] }),
]);

// Both bundles must carry the precompiled validators: if @returnlint/api's module moved, say so.
if (precompiledReplaced < 2) throw new Error(`@returnlint/api's precompiled.js was replaced in ${String(precompiledReplaced)} of 2 bundles: did it move? (build.mjs, precompiledValidators)`);

// The config schema for editors, with every built-in rule's options (`returnlint/config.schema.json`;
// the same document @returnlint/core publishes, which a repository test keeps in step).
const builtinRules = [];
for (const name of ruleDependencies) builtinRules.push((await import(name)).default);
writeFileSync(new URL("config.schema.json", dist), `${JSON.stringify(editorSchema(builtinRules), null, 2)}\n`);

const esmEntry = new URL("returnlint.js", dist);
writeFileSync(
  esmEntry,
  `#!/usr/bin/env node\nimport { createRequire } from "node:module";\ncreateRequire(import.meta.url)("./returnlint.cjs");\n`,
);
chmodSync(esmEntry, 0o755);

const loader = new URL("returnlint.cjs", dist);
writeFileSync(loader, readFileSync(new URL("src/loader.cjs", import.meta.url), "utf8"));
chmodSync(loader, 0o755);

// The training run: a check of the example return, printed as stylish and written as JSON (to a
// temporary file), whose compiled functions the cache keeps.
const cacheFile = new URL("cli.cjs.cache", dist);
rmSync(cacheFile, { force: true });
const example = fileURLToPath(new URL("../../examples/valid-v7/", import.meta.url));
const scratch = mkdtempSync(path.join(tmpdir(), "returnlint-build-"));
const trainingArgs = ["check", "return.json", "--command", "research", "-f", "json", "-o", path.join(scratch, "report.json"), "-f", "stylish"];
const training = spawnSync(process.execPath, [fileURLToPath(loader), ...trainingArgs], {
  cwd: example,
  env: { ...process.env, RETURNLINT_CODE_CACHE_OUT: fileURLToPath(cacheFile), NO_COLOR: "1" },
  encoding: "utf8",
});
rmSync(scratch, { recursive: true, force: true });
if (training.status !== 0 || !existsSync(cacheFile)) {
  throw new Error(`the code cache's training run failed (exit ${String(training.status)}): ${training.stderr}${training.stdout.slice(0, 500)}`);
}
