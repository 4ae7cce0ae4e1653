import { importFile, type Importer, type LoadedConfig } from "@returnlint/core";
import { loadReturnlintConfig as loadConfig, type ConfigOptions } from "@returnlint/api";

/**
 * The importer the bin's loader lends (src/loader.cjs): the bundle runs from a V8 code cache
 * through node:vm, where `import()` has no module loader on Node 20. Set once, by bin.ts;
 * the sources (tests) leave it unset and use Node's own `import()`.
 */
let importer: Importer | undefined;

export function useImporter(given: Importer): void {
  importer = given;
}

/** The importer the bin lent, for the packages that load a config themselves (the hook, the audit); undefined in the sources. */
export function hostImporter(): Importer | undefined {
  return importer;
}

/** The library's loadReturnlintConfig, with the host's importer: how every command loads a config. */
export function loadReturnlintConfig(options: ConfigOptions = {}): Promise<LoadedConfig> {
  return loadConfig(importer === undefined ? options : { importer, ...options });
}

/** A module by its path, imported with the host's importer, as core imports a config (returnlint mcp loads @returnlint/mcp so). */
export function importModule(file: string): Promise<unknown> {
  return importFile(file, importer);
}
