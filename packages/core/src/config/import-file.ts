import { pathToFileURL } from "node:url";

/**
 * Where a host that runs core from a V8 code cache puts its own `import()`.
 * returnlint's bin compiles its bundle with node:vm to use the cache, and an
 * `import()` compiled that way has no module loader on Node 20; the bin's own
 * module does, so it lends it here (apps/cli/src/loader.cjs).
 */
export const IMPORT_HOOK = Symbol.for("returnlint.importFile");

type Importer = (url: string) => Promise<unknown>;

/** Imports a user's file (a config, a rule, a preset) by its absolute path. */
export function importFile(file: string): Promise<unknown> {
  const url = pathToFileURL(file).href;
  const host = (globalThis as Record<symbol, unknown>)[IMPORT_HOOK];
  return typeof host === "function" ? (host as Importer)(url) : import(url);
}
