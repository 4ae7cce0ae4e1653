/**
 * Where a rule or preset that a config names lives: a file beside the config, or a
 * package found as Node's `import` finds it (node_modules upward, then the package's
 * `exports` or `main`). Written here rather than taken from resolve.exports, which stops
 * at the first matching condition even when nothing under it matches, where Node goes
 * on to the next condition (locate-module.test.ts).
 */
import { existsSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import { ReturnlintError } from "../errors.js";
import { isObject } from "../pointer.js";
import { FileRefusedError, readRegularFile } from "../safe-fs.js";
import { MAX_CONFIG_BYTES } from "./load.js";

export function isFileSpecifier(specifier: string): boolean {
  return specifier.startsWith("./") || specifier.startsWith("../") || path.isAbsolute(specifier);
}

export function candidatesFor(id: string, kind: "rule" | "preset"): string[] {
  if (isFileSpecifier(id)) return [id];
  const prefix = `returnlint-${kind}-`;
  if (id.startsWith("@")) {
    const [scope, name = ""] = id.split("/");
    return name.startsWith(prefix) ? [id] : [`${scope ?? ""}/${prefix}${name}`];
  }
  return id.startsWith(prefix) ? [id] : [`${prefix}${id}`];
}

export interface Located {
  readonly file?: string;
  /** Where it looked, for the message when nothing is found. */
  readonly tried: string;
}

export function locateModule(specifier: string, base: string): Located {
  if (isFileSpecifier(specifier)) {
    const file = path.resolve(base, specifier);
    return isFile(file) ? { file, tried: `file ${file}` } : { tried: `file ${file}` };
  }
  return locatePackage(specifier, base);
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * Node's resolution of a bare specifier as `import` sees it, so that ESM-only packages
 * (`exports` with an `import` condition only) are found: every `node_modules` from `base`
 * up to the file system root, then the package's `exports` for "." (conditions import,
 * node, default) or its `main`.
 */
function locatePackage(name: string, base: string): Located {
  const searched: string[] = [];
  for (let directory = path.resolve(base); ; directory = path.dirname(directory)) {
    if (path.basename(directory) !== "node_modules") {
      const folder = path.join(directory, "node_modules");
      searched.push(folder);
      const manifestFile = path.join(folder, name, "package.json");
      if (existsSync(manifestFile)) return { file: packageEntry(name, manifestFile), tried: `package "${name}" (${path.dirname(manifestFile)})` };
    }
    if (path.dirname(directory) === directory) break;
  }
  return { tried: `package "${name}" from ${base} (searched ${searched.join(", ")})` };
}

const IMPORT_CONDITIONS = new Set(["import", "node", "default"]);

function packageEntry(name: string, manifestFile: string): string {
  const folder = path.dirname(manifestFile);
  let manifest: unknown;
  try {
    manifest = JSON.parse(readRegularFile(manifestFile, { maxBytes: MAX_CONFIG_BYTES }).bytes.toString("utf8"));
  } catch (error) {
    const reason = error instanceof FileRefusedError ? error.reason : (error as Error).message;
    throw new ReturnlintError("RULE_NOT_FOUND", `cannot read ${manifestFile} of package "${name}": ${reason}`);
  }
  if (!isObject(manifest)) throw new ReturnlintError("RULE_NOT_FOUND", `${manifestFile} of package "${name}" is not a JSON object`);
  if (manifest.exports !== undefined && manifest.exports !== null) {
    const target = exportTarget(manifest.exports);
    if (target !== undefined && !isPackageTarget(target)) {
      throw new ReturnlintError(
        "RULE_NOT_FOUND",
        `package "${name}" (${folder}) is refused: its "exports" target ${JSON.stringify(target)} is not a path inside the package (it must start with "./" and never climb out with ".."), as Node requires`,
      );
    }
    if (target === undefined || !isFile(path.resolve(folder, target))) {
      throw new ReturnlintError(
        "RULE_NOT_FOUND",
        `package "${name}" (${folder}) has no file to import: its "exports" ${target === undefined ? 'give no "." entry for the import, node or default condition' : `name ${target}, which does not exist`}`,
      );
    }
    return insidePackage(name, folder, realpathSync(path.resolve(folder, target)), `"exports" target ${JSON.stringify(target)}`);
  }
  const main = typeof manifest.main === "string" && manifest.main !== "" ? manifest.main : "index.js";
  const file = [main, `${main}.js`, path.join(main, "index.js")].map((candidate) => path.resolve(folder, candidate)).find(isFile);
  if (file === undefined) {
    throw new ReturnlintError("RULE_NOT_FOUND", `package "${name}" (${folder}) has no file to import: its main ${main} does not exist (did you build it?)`);
  }
  // pnpm links packages into node_modules: their own dependencies sit beside the real folder.
  return insidePackage(name, folder, realpathSync(file), `main ${JSON.stringify(main)}`);
}

/** Node's rule for "exports" targets: "./" first, then no ".", ".." or node_modules segment. */
function isPackageTarget(target: string): boolean {
  if (!target.startsWith("./")) return false;
  return !target
    .slice(2)
    .split(/[\\/]/)
    .some((segment) => segment === "." || segment === ".." || segment.toLowerCase() === "node_modules");
}

/** A package's entry must be one of its own files: one outside its folder (a link included) is refused. */
function insidePackage(name: string, folder: string, file: string, what: string): string {
  const realFolder = realpathSync(folder);
  if (file.startsWith(realFolder + path.sep)) return file;
  throw new ReturnlintError("RULE_NOT_FOUND", `package "${name}" (${folder}) is refused: its ${what} leads to ${file}, outside the package's folder`);
}

function exportTarget(exports: unknown): string | undefined {
  if (typeof exports === "string") return exports;
  if (Array.isArray(exports)) {
    for (const fallback of exports) {
      const target = exportTarget(fallback);
      if (target !== undefined) return target;
    }
    return undefined;
  }
  if (!isObject(exports)) return undefined;
  const keys = Object.keys(exports);
  if (keys.some((key) => key.startsWith("."))) return exportTarget(exports["."]);
  for (const key of keys) {
    if (!IMPORT_CONDITIONS.has(key)) continue;
    const target = exportTarget(exports[key]);
    if (target !== undefined) return target;
  }
  return undefined;
}
