// Bundles the CLI and the library API: start-up is the product's latency (DESIGN.md,
// "Performance by design").
//
// - dist/returnlint.cjs, the `bin`: one CommonJS file. Node starts CommonJS several
//   milliseconds sooner than ESM (no ESM loader to set up), which is most of the
//   budget between `node -e 0` and a whole check. Commands are bundled in but run
//   their module code only when used.
// - dist/chunks/config-*.cjs: ajv and yaml, which core imports only when a config
//   file needs them; required lazily so that a check without a config never parses them.
// - dist/returnlint.js: the same CLI for `node dist/returnlint.js` (README, scripts),
//   a two-line ESM file that loads returnlint.cjs.
// - dist/index.js: the library API as ESM, with code splitting.
import { chmodSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
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

const configModule = (name) => fileURLToPath(new URL(`../../packages/core/dist/config/${name}.js`, import.meta.url));

await Promise.all([
  build({
    ...shared,
    entryPoints: { index: "src/index.ts" },
    outdir: "dist",
    chunkNames: "chunks/[name]-[hash]",
    splitting: true,
    format: "esm",
    banner: { js: "import { createRequire as __returnlintRequire } from 'node:module'; const require = __returnlintRequire(import.meta.url);" },
  }),
  build({ ...shared, entryPoints: ["src/bin.ts"], outfile: "dist/returnlint.cjs", format: "cjs", plugins: [lazyConfigChunks] }),
  build({ ...shared, entryPoints: [configModule("options")], outfile: "dist/chunks/config-options.cjs", format: "cjs" }),
  build({ ...shared, entryPoints: [configModule("yaml")], outfile: "dist/chunks/config-yaml.cjs", format: "cjs" }),
]);

const esmEntry = new URL("returnlint.js", dist);
writeFileSync(
  esmEntry,
  `#!/usr/bin/env node\nimport { createRequire } from "node:module";\ncreateRequire(import.meta.url)("./returnlint.cjs");\n`,
);
chmodSync(esmEntry, 0o755);
chmodSync(new URL("returnlint.cjs", dist), 0o755);
