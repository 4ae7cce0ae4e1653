// Bundles the CLI and the library API: start-up is the product's latency (DESIGN.md,
// "Performance by design"). Code splitting keeps ajv and yaml in chunks that load
// only when a config file needs them.
import { readFileSync } from "node:fs";
import { build } from "esbuild";

const { version } = JSON.parse(readFileSync(new URL("package.json", import.meta.url), "utf8"));

await build({
  entryPoints: { returnlint: "src/bin.ts", index: "src/index.ts" },
  outdir: "dist",
  outExtension: { ".js": ".js" },
  entryNames: "[name]",
  chunkNames: "chunks/[name]-[hash]",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  legalComments: "none",
  logLevel: "warning",
  define: { RETURNLINT_VERSION: JSON.stringify(version) },
  banner: { js: "import { createRequire as __returnlintRequire } from 'node:module'; const require = __returnlintRequire(import.meta.url);" },
});
