// The bundles: the library API as ESM with code splitting (dist/index.js), the CLI's `check` as one
// CommonJS file (dist/cli.cjs), and the chunks cli.cjs requires only when a run needs them (the
// other commands, formats and opt-in rules, lazy-chunks.mjs says how; ajv and yaml for a config
// file, ajv for compiling a contract; the custom rules' thread; scan's finding thread).
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { bundleCliWithLazyChunks } from "./lazy-chunks.mjs";
import { swapModule } from "./swap-module.mjs";

/**
 * cli.cjs and the command chunks minified: about half the bytes to read, decode and hand V8 at
 * every start (compiling from the code cache still costs time in proportion to the source's
 * length). A stack trace (RETURNLINT_DEBUG) names minified functions.
 */
const STARTUP_MINIFY = { minify: true };

/** The commands that main.ts imports on use and that are chunks of their own: every one but `check` and `hook`, which run once per return and per subagent stop and are in cli.cjs (the hook's module code runs only when used). */
const COMMAND_CHUNKS = ["audit", "doctor", "explain", "init", "mcp", "print-config", "rules", "scan", "schema"];

/** The report formats that are chunks of their own: all but stylish (the terminal's) and json (an orchestrator's). */
const FORMAT_CHUNKS = ["github", "junit", "response", "sarif"];

/** The built-in rules that are chunks of their own: those no format's preset turns on (`strict` and configs do). */
const RULE_CHUNKS = ["artifact-content", "artifact-evidence", "command-claims", "subagent-claims", "test-claims", "write-claims"];

/** What cli.cjs requires as a chunk when a run first needs it (lazy-chunks.mjs). */
async function lazyUnits(cli) {
  // A rule a format's preset turns on runs at every check of that format: it belongs in cli.cjs.
  const { BUILTIN_PRESETS } = await import("@returnlint/api");
  const { FORMAT_NAMES } = await import("@returnlint/core");
  for (const format of FORMAT_NAMES) {
    const on = Object.entries(BUILTIN_PRESETS.get(format)?.rules ?? {}).filter(([id, entry]) => RULE_CHUNKS.includes(id) && (Array.isArray(entry) ? entry[0] : entry) !== "off");
    if (on.length > 0) throw new Error(`lazy chunks: the ${format} preset turns on ${on.map(([id]) => id).join(", ")}, which RULE_CHUNKS makes a chunk: take it out of RULE_CHUNKS (apps/cli/build/bundles.mjs)`);
  }
  const source = (file) => path.join(fileURLToPath(cli), "src", file);
  const registry = path.join(path.dirname(fileURLToPath(import.meta.resolve("@returnlint/api"))), "registry.js");
  return [
    ...COMMAND_CHUNKS.map((name) => ({ chunk: `command-${name}`, importer: source("main.ts"), specifier: `./commands/${name}.js`, entry: source(`commands/${name}.ts`) })),
    ...FORMAT_CHUNKS.map((name) => ({ chunk: `format-${name}`, importer: source("formatters/index.ts"), specifier: `./${name}.js`, entry: source(`formatters/${name}.ts`) })),
    ...RULE_CHUNKS.map((id) => ({ chunk: `rule-${id}`, importer: registry, specifier: `@returnlint/rule-${id}`, entry: fileURLToPath(import.meta.resolve(`@returnlint/rule-${id}`)) })),
  ];
}

/**
 * core's `import("./options.js")` and `import("./yaml.js")` (ajv and yaml, needed only when a
 * config file needs them) become requires of chunks of their own, so that a check without a
 * config never parses them.
 */
function lazyConfigModules(core) {
  const config = path.join(core, "config");
  return ["options", "yaml"].map((name) => ({
    entry: path.join(config, `${name}.js`),
    chunk: `dist/chunks/config-${name}.cjs`,
    swap: swapModule({ name: `lazy-config-${name}`, module: path.join(config, `${name}.js`), kinds: ["dynamic-import"], to: { path: `./chunks/config-${name}.cjs`, external: true } }),
    // Read at every check of a project with such a config (`returnlint init` writes YAML): minified, and
    // the YAML parser as yaml's ES modules (platform-neutral resolution: the package's `default`
    // condition), so that only what parsing uses is kept: 270 kB → 98 kB.
    options: name === "yaml" ? { ...STARTUP_MINIFY, platform: "neutral", mainFields: ["module", "main"] } : STARTUP_MINIFY,
  }));
}

/**
 * The OpenTelemetry SDK and its OTLP exporters (@returnlint/telemetry's export.js): a chunk that
 * cli.cjs requires only when the environment names an OTLP endpoint, so that no run without
 * telemetry reads, compiles or caches a line of them.
 */
function lazyTelemetry() {
  const module = path.join(path.dirname(fileURLToPath(import.meta.resolve("@returnlint/telemetry"))), "export.js");
  return {
    entry: module,
    chunk: "dist/chunks/telemetry-export.cjs",
    // The exporters' import("http") as a require: the one-file copy compiles its chunks with node:vm,
    // which gives a script no loader for import() ("A dynamic import callback was not specified").
    options: { supported: { "dynamic-import": false } },
    swap: swapModule({ name: "lazy-telemetry", module, kinds: ["dynamic-import"], to: { path: "./chunks/telemetry-export.cjs", external: true } }),
  };
}

/**
 * `import path from "node:path"` in CommonJS output is `__toESM(require("node:path"))` in each of
 * the twenty modules that write it: a getter per export of node:path, made twenty times at
 * start-up. Given as one module of the bundle, whose default export every importer shares, it is
 * a plain require, once. (The sources import node:path by default only: a named
 * import of it would fail the build with "No matching export".)
 */
const nodePathOnce = {
  name: "node-path-once",
  setup(build) {
    build.onResolve({ filter: /^(node:)?path$/ }, (args) => (args.namespace === "node-path-once" ? { path: "node:path", external: true } : { path: "path", namespace: "node-path-once" }));
    build.onLoad({ filter: /.*/, namespace: "node-path-once" }, () => ({ contents: 'const path = require("node:path");\nexport default path;\n', loader: "js" }));
  },
};

/** Builds every bundle and chunk into `dist/`; throws when a module swap did not happen in a bundle it was meant for. */
export async function bundle({ cli, version, precompiled, ruleDocs, chartLibrary, contractCompiler }) {
  const shared = {
    absWorkingDir: fileURLToPath(cli),
    bundle: true,
    platform: "node",
    target: "node20",
    legalComments: "none",
    logLevel: "warning",
    define: { RETURNLINT_VERSION: JSON.stringify(version) },
  };
  const core = path.dirname(fileURLToPath(import.meta.resolve("@returnlint/core")));
  const lazyConfig = lazyConfigModules(core);
  const telemetry = lazyTelemetry();
  const chunk = ({ entry, chunk: outfile, options = {} }) => build({ ...shared, entryPoints: [entry], outfile, format: "cjs", ...options });
  const units = await lazyUnits(cli);
  const swaps = [precompiled, precompiled.lazy.swap, ruleDocs.swap, chartLibrary.swap, contractCompiler, telemetry.swap, ...lazyConfig.map(({ swap }) => swap)];
  await Promise.all([
    build({
      ...shared,
      entryPoints: { index: "src/index.ts" },
      outdir: "dist",
      chunkNames: "chunks/[name]-[hash]",
      splitting: true,
      format: "esm",
      plugins: [precompiled.plugin],
      banner: { js: "import { createRequire as __returnlintRequire } from 'node:module'; const require = __returnlintRequire(import.meta.url);" },
    }),
    // No import() in cli.cjs: the lazy chunks become requires, and the user's files are imported
    // through the loader (core's config/import-file.ts says why).
    bundleCliWithLazyChunks({
      cli: fileURLToPath(cli),
      options: { ...shared, entryPoints: ["src/bin.ts"], outfile: "dist/cli.cjs", format: "cjs", supported: { "dynamic-import": false }, ...STARTUP_MINIFY },
      plugins: [nodePathOnce, ...lazyConfig.map(({ swap }) => swap.plugin), precompiled.lazy.swap.plugin, contractCompiler.plugin, telemetry.swap.plugin],
      units,
      chunkOptions: { ...shared, supported: { "dynamic-import": false }, ...STARTUP_MINIFY, plugins: [nodePathOnce] },
      chunkPlugins: { "command-explain": [ruleDocs.swap.plugin], "command-audit": [chartLibrary.swap.plugin] },
    }),
    chunk(chartLibrary),
    chunk(telemetry),
    chunk(ruleDocs),
    ...contractCompiler.chunks.map(chunk),
    ...lazyConfig.map(chunk),
    ...precompiled.lazy.chunks.map(({ entry, chunk: outfile }) => build({ ...shared, entryPoints: [entry], outfile, format: "cjs", ...STARTUP_MINIFY })),
    // Custom rules' thread (core's isolation.ts): started by the bin and the library only when a config names one.
    chunk({ entry: path.join(core, "rule-worker.js"), chunk: "dist/chunks/rule-worker.cjs" }),
    // scan's finding thread (src/scan/find-ahead.ts): the walk and the reads of a scan, beside its checks.
    chunk({ entry: "src/scan/find-thread.ts", chunk: "dist/chunks/find-thread.cjs", options: { ...STARTUP_MINIFY, supported: { "dynamic-import": false }, plugins: [nodePathOnce] } }),
  ]);
  for (const swap of swaps) swap.assertSwapped();
}
