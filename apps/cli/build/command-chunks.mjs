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
// A chunk takes each shared file's exports by name, as they were when it loaded (no export of
// these files is ever reassigned: they are functions, classes and constants).
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
      esbuild.onLoad({ filter: /.*/, namespace: COMMAND }, async (args) => {
        if (shared === undefined) return { contents: "", loader: "js" };
        const imports = [];
        const modules = [];
        for (const [index, file] of shared(args.path).entries()) {
          const names = await exportsOf(file);
          const local = (name) => `m${String(index)}_${name}`;
          imports.push(`import { ${names.map((name) => `${name} as ${local(name)}`).join(", ")} } from ${JSON.stringify(file)};`);
          modules.push(`{ ${names.map((name) => `${name}: ${local(name)}`).join(", ")} }`);
        }
        const command = await exportsOf(path.join(commands, `${args.path}.ts`));
        // Through the bin's loader, the chunk is compiled with its own code cache (the build's
        // training makes one for each command it runs: the hook's start-up is every subagent stop's).
        const chunk = `command-${args.path}`;
        const contents = [
          ...imports,
          `const chunk = typeof returnlintHost === "undefined" ? require(${JSON.stringify(`./chunks/${chunk}.cjs`)}) : returnlintHost.requireChunk(${JSON.stringify(chunk)});`,
          `export const { ${command.join(", ")} } = chunk.load([${modules.join(", ")}]);`,
          "",
        ].join("\n");
        return { contents, loader: "js", resolveDir: commands };
      });
    },
  };
}

/**
 * The plugin for a command's chunk: an import of a file in `files` (cli.cjs's) becomes the chunk's
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
 * Bundles dist/cli.cjs (`options`, esbuild's, with `plugins`) and a chunk for each command in
 * `names` (`chunkOptions`, with its plugins and `chunkPlugins[name]`: the module swaps that chunk needs).
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
          contents: `import { provide } from ${JSON.stringify(REGISTRY)};\nexport function load(modules) {\n  provide(modules);\n  return require(${JSON.stringify(entry)});\n}\n`,
          resolveDir: path.dirname(entry),
          sourcefile: `command-${name}.cjs`,
          loader: "js",
        },
        outfile: `dist/chunks/command-${name}.cjs`,
        format: "cjs",
        plugins: [sharedPlugin(cli, files, entry, used), ...(chunkOptions.plugins ?? []), ...(chunkPlugins[name] ?? [])],
      });
    }),
  );
  await build({ ...options, plugins: [commandsPlugin(main, names, (name) => shared.get(name)), ...plugins] });
}

const exportsCache = new Map();

/** The names a module exports, as written in it (the sources re-export by name, never with `export *`). */
function exportsOf(file) {
  let names = exportsCache.get(file);
  if (names === undefined) {
    names = build({ entryPoints: [file], bundle: false, write: false, metafile: true, format: "esm", platform: "node", outdir: "exports-of", logLevel: "silent" }).then(({ metafile }) => {
      const [output] = Object.values(metafile.outputs);
      if (output === undefined) throw new Error(`command chunks: esbuild gave no output for ${file}`);
      return output.exports;
    });
    exportsCache.set(file, names);
  }
  return names;
}
