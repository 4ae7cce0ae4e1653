// What a check never runs, as chunks of its own (dist/chunks/<name>.cjs), so that a check neither
// reads, decodes nor deserialises their code: every command but `check` and `hook`, the report
// formats but stylish and json, and the rules no format's preset turns on. cli.cjs and its code
// cache hold the check's path. Each is a module some file imports with `import()` (a "unit"): the
// import becomes a require of the chunk.
//
// A chunk shares the modules cli.cjs already has (core, the library, args, host, …): it never
// carries a copy, whose state (the host's importer) and classes (ReturnlintError, for
// `instanceof`) would not be cli.cjs's. How:
//
// 1. cli.cjs is bundled once without writing, with an empty module for each unit: the files it
//    holds are the shared ones.
// 2. Each unit is bundled into its chunk; an import that resolves to a shared file becomes
//    `modules[i]` of an array the chunk is handed when it loads (`load(modules)`).
// 3. cli.cjs is bundled for good: each unit's `import()` becomes a module that requires the chunk
//    and hands it those files, in that order, from cli.cjs's own copies. The exports of every file
//    a chunk takes are listed once, in one table, however many chunks take it.
//
// A chunk takes each shared file's exports by name, as they were when it loaded (no export of
// these files is ever reassigned: they are functions, classes and constants).
import path from "node:path";
import { build } from "esbuild";

const UNIT = "returnlint-lazy-unit";
const SHARED = "returnlint-shared";
const REGISTRY = "returnlint-shared:registry";
const TABLE = "returnlint-shared-table";

/**
 * A unit: the module `specifier` that `importer` imports with `import()`, as the chunk
 * dist/chunks/`chunk`.cjs. `entry` is the file the specifier resolves to.
 * @typedef {{ chunk: string, importer: string, specifier: string, entry: string }} Unit
 */

/**
 * The plugin for cli.cjs: each unit's dynamic import becomes a module that loads its chunk, handing
 * it `shared(chunk)`, the files it takes from cli.cjs (absolute paths, in the chunk's order);
 * `shared` undefined gives an empty module (step 1).
 * @param {readonly Unit[]} units
 */
function unitsPlugin(units, shared) {
  const unitOf = (importer, specifier) => units.find((unit) => unit.importer === importer && unit.specifier === specifier);
  const specifiers = new RegExp(`^(?:${[...new Set(units.map((unit) => unit.specifier))].map((specifier) => specifier.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")).join("|")})$`);
  // Every file some chunk takes, once, in one order.
  const tableFiles = shared === undefined ? [] : [...new Set(units.flatMap((unit) => shared(unit.chunk)))].sort();
  return {
    name: "lazy-chunks",
    setup(esbuild) {
      esbuild.onResolve({ filter: specifiers }, (args) => {
        if (args.kind !== "dynamic-import") return undefined;
        const unit = unitOf(args.importer, args.path);
        return unit === undefined ? undefined : { path: unit.chunk, namespace: UNIT };
      });
      esbuild.onResolve({ filter: /^\.\/chunks\/[\w-]+\.cjs$/ }, (args) => (args.namespace === UNIT ? { path: args.path, external: true } : undefined));
      esbuild.onResolve({ filter: /^returnlint-shared:table$/ }, () => ({ path: "table", namespace: TABLE }));
      // The table: each file's exports as an object, made when a chunk first loads.
      esbuild.onLoad({ filter: /.*/, namespace: TABLE }, async () => {
        const imports = [];
        const modules = [];
        for (const [index, file] of tableFiles.entries()) {
          const names = await exportsOf(file);
          const local = (name) => `m${String(index)}_${name}`;
          imports.push(`import { ${names.map((name) => `${name} as ${local(name)}`).join(", ")} } from ${JSON.stringify(file)};`);
          modules.push(`{ ${names.map((name) => `${name}: ${local(name)}`).join(", ")} }`);
        }
        const contents = [...imports, "let table;", "export function sharedFiles(indexes) {", `  table ??= [${modules.join(", ")}];`, "  return indexes.map((index) => table[index]);", "}", ""].join("\n");
        // Absolute paths, resolved from anywhere: esbuild needs a folder for a virtual module's imports.
        return { contents, loader: "js", resolveDir: path.dirname(units[0]?.importer ?? ".") };
      });
      esbuild.onLoad({ filter: /.*/, namespace: UNIT }, async (args) => {
        if (shared === undefined) return { contents: "", loader: "js" };
        const unit = units.find((candidate) => candidate.chunk === args.path);
        const indexes = shared(unit.chunk).map((file) => tableFiles.indexOf(file));
        const names = await exportsOf(unit.entry);
        const named = names.filter((name) => name !== "default");
        // Through the bin's loader, the chunk is compiled with its own code cache (the build's
        // training makes one for each chunk its runs load).
        const contents = [
          'import { sharedFiles } from "returnlint-shared:table";',
          `const chunk = typeof returnlintHost === "undefined" ? require(${JSON.stringify(`./chunks/${unit.chunk}.cjs`)}) : returnlintHost.requireChunk(${JSON.stringify(unit.chunk)});`,
          `const loaded = chunk.load(sharedFiles([${indexes.join(", ")}]));`,
          ...(named.length === 0 ? [] : [`export const { ${named.join(", ")} } = loaded;`]),
          ...(names.includes("default") ? ["export default loaded.default;"] : []),
          "",
        ].join("\n");
        return { contents, loader: "js", resolveDir: path.dirname(unit.importer) };
      });
    },
  };
}

/**
 * The plugin for a chunk: an import of a file in `files` (cli.cjs's) becomes the chunk's
 * `modules[i]`; `used` lists them in order. The chunk names them by their paths from `cli` (its
 * text holds no path of the machine that built it).
 */
function sharedPlugin(cli, files, entry, used) {
  return {
    name: "shared-with-cli",
    setup(esbuild) {
      esbuild.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData === SHARED || args.namespace === SHARED || args.path === REGISTRY || args.kind === "entry-point") return undefined;
        const resolved = await esbuild.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: SHARED });
        if (resolved.errors.length > 0 || resolved.external || !files.has(resolved.path) || resolved.path === entry) return undefined;
        if (!used.includes(resolved.path)) used.push(resolved.path);
        return { path: path.relative(cli, resolved.path), namespace: SHARED, pluginData: resolved.path };
      });
      esbuild.onResolve({ filter: /^returnlint-shared:registry$/ }, () => ({ path: "registry", namespace: SHARED }));
      esbuild.onLoad({ filter: /.*/, namespace: SHARED }, async (args) => {
        if (args.pluginData === undefined) return { contents: "let modules;\nexport function provide(given) {\n  modules = given;\n}\nexport function get(index) {\n  return modules[index];\n}\n", loader: "js" };
        const names = await exportsOf(args.pluginData);
        const contents = [
          `import { get } from ${JSON.stringify(REGISTRY)};`,
          `const shared = get(${String(used.indexOf(args.pluginData))});`,
          `export const { ${names.filter((name) => name !== "default").join(", ")} } = shared;`,
          ...(names.includes("default") ? ["export default shared.default;"] : []),
          "",
        ].join("\n");
        return { contents, loader: "js" };
      });
    },
  };
}

/**
 * Bundles dist/cli.cjs (`options`, esbuild's, with `plugins`) and a chunk for each of `units`
 * (`chunkOptions`, with its plugins and `chunkPlugins[chunk]`: the module swaps that chunk needs).
 * Throws when a unit's import was not found in cli.cjs: the module would be bundled in after all.
 * @param {{ cli: string, options: import("esbuild").BuildOptions, plugins: import("esbuild").Plugin[], units: readonly Unit[], chunkOptions: import("esbuild").BuildOptions, chunkPlugins: Record<string, import("esbuild").Plugin[]> }} given
 */
export async function bundleCliWithLazyChunks({ cli, options, plugins, units, chunkOptions, chunkPlugins }) {
  const first = await build({ ...options, write: false, metafile: true, plugins: [unitsPlugin(units, undefined), ...plugins] });
  const files = new Set(Object.keys(first.metafile.inputs).map((input) => path.resolve(cli, input)));
  const stillIn = units.filter((unit) => files.has(unit.entry));
  if (stillIn.length > 0) {
    throw new Error(`lazy chunks: cli.cjs still bundles ${stillIn.map((unit) => path.relative(cli, unit.entry)).join(", ")}: a static import reaches it, or its import() moved (apps/cli/build/)`);
  }
  const shared = new Map();
  await Promise.all(
    units.map(async (unit) => {
      const used = [];
      shared.set(unit.chunk, used);
      await build({
        ...chunkOptions,
        stdin: {
          contents: `import { provide } from ${JSON.stringify(REGISTRY)};\nexport function load(modules) {\n  provide(modules);\n  return require(${JSON.stringify(unit.entry)});\n}\n`,
          resolveDir: path.dirname(unit.entry),
          sourcefile: `${unit.chunk}.cjs`,
          loader: "js",
        },
        outfile: `dist/chunks/${unit.chunk}.cjs`,
        format: "cjs",
        plugins: [sharedPlugin(cli, files, unit.entry, used), ...(chunkOptions.plugins ?? []), ...(chunkPlugins[unit.chunk] ?? [])],
      });
    }),
  );
  const final = await build({ ...options, metafile: true, plugins: [unitsPlugin(units, (chunk) => shared.get(chunk)), ...plugins] });
  const loaded = Object.keys(final.metafile.inputs);
  const missing = units.filter((unit) => !loaded.includes(`${UNIT}:${unit.chunk}`));
  if (missing.length > 0) {
    throw new Error(`lazy chunks: no import() of ${missing.map((unit) => `${unit.specifier} in ${path.relative(cli, unit.importer)}`).join(", ")} reached cli.cjs: did the import move? (apps/cli/build/)`);
  }
}

const exportsCache = new Map();

/** The names a module exports, as written in it (the sources re-export by name, never with `export *`). */
function exportsOf(file) {
  let names = exportsCache.get(file);
  if (names === undefined) {
    names = build({ entryPoints: [file], bundle: false, write: false, metafile: true, format: "esm", platform: "node", outdir: "exports-of", logLevel: "silent" }).then(({ metafile }) => {
      const [output] = Object.values(metafile.outputs);
      if (output === undefined) throw new Error(`lazy chunks: esbuild gave no output for ${file}`);
      return output.exports;
    });
    exportsCache.set(file, names);
  }
  return names;
}
