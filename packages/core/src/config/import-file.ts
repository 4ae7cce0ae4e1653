import { pathToFileURL } from "node:url";

/**
 * How core imports a user's module (a config, a rule, a preset), given its file URL. A host
 * hands its own to `loadConfig` (`importer`): returnlint's bin compiles its bundle with node:vm
 * to use a V8 code cache, and an `import()` compiled that way has no module loader on Node 20,
 * so the bin lends the one of its own loader module (apps/cli/src/loader.cjs).
 */
export type Importer = (url: string) => Promise<unknown>;

/** Node's own `import()`: what core uses when the host gives no importer. */
export const nativeImport: Importer = (url) => import(url);

/** Imports a user's file by its absolute path, through `importer`. */
export function importFile(file: string, importer: Importer = nativeImport): Promise<unknown> {
  return importer(pathToFileURL(file).href);
}
