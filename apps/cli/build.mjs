// Builds what the `returnlint` package ships. Start-up is the product's latency (DESIGN.md,
// "Performance by design"), so the CLI is bundled: CommonJS starts several milliseconds sooner
// than ESM (no ESM loader to set up), and commands are bundled in but run their module code only
// when used. One file in build/ for each job:
//
// - validators.mjs: ajv's standalone code for every built-in schema, in place of @returnlint/api's precompiled.js;
// - rule-docs.mjs, chart-library.mjs, contract-compiler.mjs: what `explain`, `audit --format html` and
//   a contract's first check need, as chunks required only then;
// - bundles.mjs: dist/index.js (the library API, ESM), dist/cli.cjs and the chunks (ajv and yaml
//   for a config file, the custom rules' thread);
// - config-schema.mjs: dist/config.schema.json, for editors;
// - bin.mjs: the bin, its ESM twin, and the V8 code cache a training run makes;
// - types.mjs: dist/types/ made self-contained (the package installs with no dependencies);
// - vendor.mjs: dist/returnlint-vendored.cjs and its .pack, the whole CLI in two files, for `init HOST --vendor`.
//
// Each module swap is an esbuild plugin from swap-module.mjs, which fails the build when the
// module it replaces moved instead of bundling the original without a word.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { bundle } from "./build/bundles.mjs";
import { trainCodeCache, writeBin } from "./build/bin.mjs";
import { chartLibrary } from "./build/chart-library.mjs";
import { contractCompiler } from "./build/contract-compiler.mjs";
import { writeConfigSchema } from "./build/config-schema.mjs";
import { ruleDocs } from "./build/rule-docs.mjs";
import { bundleTypes } from "./build/types.mjs";
import { writeVendored } from "./build/vendor.mjs";
import { builtinRules } from "./build/rules.mjs";
import { precompiledValidators } from "./build/validators.mjs";

const cli = new URL("./", import.meta.url);
const dist = new URL("dist/", cli);
const manifest = JSON.parse(readFileSync(new URL("package.json", cli), "utf8"));

// esbuild does not delete what an earlier build wrote: stale chunks would pile up, and a file no
// build writes any more (a source map from an experiment) would be published with the package.
// tsc has just written dist/types/; everything else in dist/ is this build's to write.
const distFolder = fileURLToPath(dist);
for (const entry of existsSync(distFolder) ? readdirSync(distFolder) : []) {
  if (entry !== "types") rmSync(path.join(distFolder, entry), { recursive: true, force: true });
}
const generated = new URL(".generated/", cli);
rmSync(generated, { recursive: true, force: true });
mkdirSync(generated, { recursive: true });

const rules = await builtinRules(manifest);
await bundle({
  cli,
  version: manifest.version,
  precompiled: precompiledValidators(generated, rules),
  ruleDocs: ruleDocs(generated, rules),
  chartLibrary: chartLibrary(generated),
  contractCompiler: contractCompiler(generated),
});
writeConfigSchema(dist, rules);
bundleTypes(cli);
trainCodeCache(cli, dist, writeBin(cli, dist));
writeVendored(cli, dist);
