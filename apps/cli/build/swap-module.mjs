import { existsSync, realpathSync } from "node:fs";
import path from "node:path";

/**
 * An esbuild plugin (`plugin`) that gives a bundle something else in place of one module.
 *
 * `module` is the absolute path of the file as its importers write it: `…/dist/config/options.js`,
 * or `…/src/rule-docs.js` for a TypeScript source beside it. An import is matched by the file it
 * resolves to, never by a pattern on paths, so the plugin fails loudly where a pattern would fail
 * silently: at once when `module` is not there, and in `assertSwapped()` after the build when a
 * bundle it was given never imported `module` (its importer moved, or imports it some other way),
 * where the bundle would have carried the original module without a word.
 *
 * `kinds` limits the swap to some kinds of import (esbuild's `args.kind`, e.g. "dynamic-import");
 * `to` is what esbuild's onResolve returns for it: `{ path }`, and `external: true` to leave it a
 * require of a file beside the bundle.
 */
export function swapModule({ name, module, to, kinds }) {
  const source = module.endsWith(".js") ? `${module.slice(0, -3)}.ts` : module;
  if (!existsSync(module) && !existsSync(source)) {
    throw new Error(`${name}: ${module} is not there, so nothing can be swapped for ${to.path}: did it move? (apps/cli/build/)`);
  }
  const folder = realpathSync(path.dirname(module));
  const file = path.basename(module);
  const filter = new RegExp(`(^|[\\\\/])${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`);
  /** One entry per build the plugin was given: what it bundles, and how many imports were swapped. */
  const builds = [];
  const plugin = {
    name,
    setup(build) {
      const { outfile, outdir, entryPoints } = build.initialOptions;
      const seen = { bundle: outfile ?? outdir ?? `the bundle of ${Object.values(entryPoints ?? {}).join(", ")}`, swapped: 0 };
      builds.push(seen);
      build.onResolve({ filter }, (args) => {
        if (kinds !== undefined && !kinds.includes(args.kind)) return undefined;
        const target = path.resolve(args.resolveDir, args.path);
        if (path.basename(target) !== file || !sameFolder(path.dirname(target), folder)) return undefined;
        seen.swapped += 1;
        return to;
      });
    },
  };
  return {
    plugin,
    /** Throws unless every bundle this plugin was given imported `module` at least once. */
    assertSwapped() {
      if (builds.length === 0) throw new Error(`${name}: no build was given this plugin`);
      for (const { bundle, swapped } of builds) {
        if (swapped === 0) {
          throw new Error(
            `${name}: ${bundle} never imported ${module}${kinds === undefined ? "" : ` (as ${kinds.join(" or ")})`}, so ${to.path} was not swapped in: did its importer move, or change how it imports it? (apps/cli/build/)`,
          );
        }
      }
    },
  };
}

function sameFolder(folder, realFolder) {
  if (folder === realFolder) return true;
  try {
    return realpathSync(folder) === realFolder;
  } catch {
    return false;
  }
}
