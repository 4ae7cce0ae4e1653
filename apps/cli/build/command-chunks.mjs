// Every command but `check` as a chunk of its own (dist/chunks/command-<name>.cjs), so that a check
// neither reads, decodes nor deserialises their code: cli.cjs and its code cache hold the check's
// path only. A chunk shares the modules cli.cjs already has (core, the library, args, host, …): it
// never carries a copy, whose state (the host's importer) and classes (ReturnlintError, for
// `instanceof`) would not be cli.cjs's. How:
//
// 1. cli.cjs is bundled once without writing, with an empty module for each command: the files it
//    holds are the shared ones.
// 2. Each command is bundled into its chunk; an import that resolves to a shared file becomes
//    `modules[i]` of an array the chunk is handed when it loads (`load(modules)`).
// 3. cli.cjs is bundled for good: main.ts's `import("./commands/<name>.js")` becomes a module that
//    requires the chunk and hands it those files, in that order, from cli.cjs's own copies.
//
// The chunk sees a shared file as CommonJS (esbuild gives a default import of one the whole module),
// so the build fails when a shared file has a default export.
import path from "node:path";
import { build } from "esbuild";

const COMMAND = "returnlint-command";
const SHARED = "returnlint-shared";
const REGISTRY = "returnlint-shared:registry";

/**
 * The plugin for cli.cjs: main.ts's dynamic import of each command in `names` becomes a module that
 * loads the command's chunk, handing it `shared(name)`, the files it takes from cli.cjs (absolute
 * paths, in the chunk's order); `shared` undefined gives an empty module (step 1).
 */
function commandsPlugin(main, names, shared) {
  const commands = path.join(path.dirname(main), "commands");
  return {
    name: "command-chunks",
    setup(esbuild) {
      esbuild.onResolve({ filter: /^\.\/commands\/[\w-]+\.js$/ }, (args) => {
        if (args.kind !== "dynamic-import" || args.importer !== main) return undefined;
        const name = path.basename(args.path, ".js");
        return names.includes(name) ? { path: name, namespace: COMMAND } : undefined;
      });
      esbuild.onResolve({ filter: /^\.\/chunks\/command-[\w-]+\.cjs$/ }, (args) => (args.namespace === COMMAND ? { path: args.path, external: true } : undefined));
      esbuild.onLoad({ filter: /.*/, namespace: COMMAND }, (args) => {
        if (shared === undefined) return { contents: "", loader: "js" };
        const modules = shared(args.path).map((file) => `require(${JSON.stringify(file)})`);
        return { contents: `module.exports = require("./chunks/command-${args.path}.cjs").load([${modules.join(", ")}]);\n`, loader: "js", resolveDir: commands };
      });
    },
  };
}

/** The plugin for a command's chunk: an import of a file in `files` (cli.cjs's) becomes the chunk's `modules[i]`; `used` lists them in order. */
function sharedPlugin(files, entry, used) {
  return {
    name: "shared-with-cli",
    setup(esbuild) {
      esbuild.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData === SHARED || args.namespace === SHARED || args.path === REGISTRY || args.kind === "entry-point") return undefined;
        const resolved = await esbuild.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: SHARED });
        if (resolved.errors.length > 0 || resolved.external || !files.has(resolved.path) || resolved.path === entry) return undefined;
        if (!used.includes(resolved.path)) used.push(resolved.path);
        return { path: resolved.path, namespace: SHARED };
      });
      esbuild.onResolve({ filter: /^returnlint-shared:registry$/ }, () => ({ path: REGISTRY, namespace: SHARED }));
      esbuild.onLoad({ filter: /.*/, namespace: SHARED }, (args) => {
        if (args.path === REGISTRY) return { contents: "let modules;\nexports.provide = (given) => { modules = given; };\nexports.get = (index) => modules[index];\n", loader: "js" };
        return { contents: `module.exports = require(${JSON.stringify(REGISTRY)}).get(${String(used.indexOf(args.path))});\n`, loader: "js" };
      });
    },
  };
}

/**
 * Bundles dist/cli.cjs (`options`, esbuild's, with `plugins`) and a chunk for each command in
 * `names` (`chunkPlugins[name]`: the module swaps that chunk needs, besides `chunkOptions`).
 */
export async function bundleCliWithCommandChunks({ cli, options, plugins, names, chunkOptions, chunkPlugins }) {
  const main = path.join(cli, "src", "main.ts");
  const first = await build({ ...options, write: false, metafile: true, plugins: [commandsPlugin(main, names, undefined), ...plugins] });
  const files = new Set(Object.keys(first.metafile.inputs).map((input) => path.resolve(cli, input)));
  const shared = new Map();
  await Promise.all(
    names.map(async (name) => {
      const entry = path.join(cli, "src", "commands", `${name}.ts`);
      const used = [];
      shared.set(name, used);
      await build({
        ...chunkOptions,
        stdin: {
          contents: `const { provide } = require(${JSON.stringify(REGISTRY)});\nexports.load = (modules) => {\n  provide(modules);\n  return require(${JSON.stringify(entry)});\n};\n`,
          resolveDir: path.dirname(entry),
          sourcefile: `command-${name}.cjs`,
          loader: "js",
        },
        outfile: `dist/chunks/command-${name}.cjs`,
        format: "cjs",
        plugins: [sharedPlugin(files, entry, used), ...(chunkPlugins[name] ?? [])],
      });
    }),
  );
  await assertNoDefaultExports([...new Set([...shared.values()].flat())], options);
  await build({ ...options, plugins: [commandsPlugin(main, names, (name) => shared.get(name)), ...plugins] });
}

/** A chunk takes a shared file as CommonJS, where a default import would be the whole module: refuse the build when one has a default export. */
async function assertNoDefaultExports(files, options) {
  if (files.length === 0) return;
  const { metafile } = await build({ absWorkingDir: options.absWorkingDir, entryPoints: files, bundle: false, write: false, metafile: true, format: "esm", platform: "node", outdir: "shared-exports", logLevel: "warning" });
  for (const output of Object.values(metafile.outputs)) {
    if (output.exports.includes("default")) {
      throw new Error(`command chunks: ${output.entryPoint ?? "a shared module"} has a default export, which a command's chunk would take as the whole module; export it by name (apps/cli/build/command-chunks.mjs)`);
    }
  }
}
