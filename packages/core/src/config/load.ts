import { existsSync } from "node:fs";
import path from "node:path";
import { ReturnlintError } from "../errors.js";
import { cacheFolder, keepValue, keptValue } from "./cache.js";
import { locateJsonError } from "../json/syntax-error.js";
import { stripBom } from "../json/utf8.js";
import { FileRefusedError, judgeRegularFile, readRegularFile } from "../safe-fs.js";
import { lineAndColumn } from "../text-position.js";
import type { Importer } from "./import-file.js";
import { DEFAULT_MODULE_TIMEOUT_MS, importWithin } from "./modules.js";

export const CONFIG_FILES = [
  "returnlint.config.json",
  "returnlint.config.yaml",
  "returnlint.config.yml",
  "returnlint.config.mjs",
  "returnlint.config.js",
] as const;

/**
 * The largest config file (and package.json) read: a config is a few kilobytes (one that maps
 * 200,000 agents is 5 MB), and one found by discovery may be a file a subagent planted in the
 * project or a parent folder.
 */
export const MAX_CONFIG_BYTES = 16 * 1024 * 1024;

export interface RawConfig {
  /** Absolute path of the file the config came from. */
  readonly file: string;
  readonly value: unknown;
}

/**
 * Walks up from `cwd` to the filesystem root and returns the first config
 * file, or a package.json with a `returnlint` key; null when there is none.
 */
export async function findConfig(cwd: string, timeoutMs: number = DEFAULT_MODULE_TIMEOUT_MS, importer?: Importer): Promise<RawConfig | null> {
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    // `dir` is absolute and normalised: a name is appended to it, not joined (path.join would
    // normalise it again, for each of the six names in each folder up to the root).
    const inside = dir.endsWith(path.sep) ? dir : dir + path.sep;
    for (const name of CONFIG_FILES) {
      const file = inside + name;
      if (existsSync(file)) return readConfig(file, timeoutMs, importer);
    }
    const manifest = `${inside}package.json`;
    if (existsSync(manifest)) {
      const value = await readConfig(manifest, timeoutMs, importer);
      if (typeof value.value === "object" && value.value !== null && "returnlint" in value.value) {
        return { file: manifest, value: (value.value).returnlint };
      }
    }
    if (path.dirname(dir) === dir) return null;
  }
}

/**
 * Reads one config file by its extension. Syntax errors name the file, line and column.
 * A JavaScript config runs here, in the main thread, and may take `timeoutMs` to load.
 * Every config is read through core's safe file layer: only a regular file of at most
 * MAX_CONFIG_BYTES, and a JavaScript config is judged the same way before it is imported.
 */
export async function readConfig(file: string, timeoutMs: number = DEFAULT_MODULE_TIMEOUT_MS, importer?: Importer): Promise<RawConfig> {
  const absolute = path.resolve(file);
  const extension = path.extname(absolute);
  if (extension === ".mjs" || extension === ".js" || extension === ".cjs") {
    judgeModule(absolute);
    try {
      const module = (await importWithin(absolute, absolute, "CONFIG_UNREADABLE", timeoutMs, importer)) as { default?: unknown };
      return { file: absolute, value: module.default };
    } catch (error) {
      throw new ReturnlintError("CONFIG_UNREADABLE", `Cannot load config ${absolute}: ${describe(error).replace(/^cannot load \S+ \(\S+\): /, "")}`);
    }
  }
  let text: string;
  try {
    text = stripBom(readRegularFile(absolute, { maxBytes: MAX_CONFIG_BYTES }).bytes.toString("utf8"));
  } catch (error) {
    throw unreadableConfig(absolute, error);
  }
  if (extension === ".yaml" || extension === ".yml") return { file: absolute, value: await parseYaml(absolute, text) };
  try {
    return { file: absolute, value: JSON.parse(text) as unknown };
  } catch {
    const found = locateJsonError(text);
    const where = lineAndColumn(text, found.offset);
    throw new ReturnlintError(
      "CONFIG_INVALID",
      `Config ${absolute} is not valid JSON: ${found.reason} (line ${where.line}, column ${where.column})`,
    );
  }
}

/**
 * A YAML config as a value. Errors name the line and column the parser found them at;
 * a document nested too deeply for the parser, or one whose aliases would expand
 * without bound, gets a sentence of its own.
 */
/** Changes when what parseYaml makes of a text changes (the yaml package's options, its major version), so that an older entry is not used. */
const YAML_CACHE_FORMAT = "yaml-2.1";

async function parseYaml(file: string, text: string): Promise<unknown> {
  // A config that parsed before is taken from the cache: the YAML parser costs a check more start-up than the rest of it.
  const folder = yamlCacheFolder();
  const kept = folder === undefined ? undefined : keptValue(folder, YAML_CACHE_FORMAT, text);
  if (kept !== undefined) return kept.value;
  const { parseYamlDocument } = await import("./yaml.js");
  const invalid = (reason: string, offset: number) => {
    const { line, column } = lineAndColumn(text, offset);
    return new ReturnlintError("CONFIG_INVALID", `Config ${file} is not valid YAML: ${reason} (line ${String(line)}, column ${String(column)})`);
  };
  let parsed: ReturnType<typeof parseYamlDocument>;
  try {
    parsed = parseYamlDocument(text);
  } catch (error) {
    throw yamlResourceError(file, error) ?? error;
  }
  const [first] = parsed.errors;
  if (first !== undefined) {
    if (/Maximum call stack/.test(first.message)) throw tooDeep(file);
    throw invalid(first.message.split("\n")[0] ?? "", first.offset);
  }
  let value: unknown;
  try {
    value = parsed.toJS();
  } catch (error) {
    throw yamlResourceError(file, error) ?? error;
  }
  if (folder !== undefined) keepValue(folder, YAML_CACHE_FORMAT, text, value);
  return value;
}

/** Where parsed YAML configs are kept (cache.ts); undefined where there is no such folder (no home). */
function yamlCacheFolder(): string | undefined {
  try {
    return cacheFolder("configs");
  } catch {
    return undefined;
  }
}

/**
 * A JavaScript config is imported by Node's loader, which reads it without a deadline: a FIFO
 * or a device named like a config would hang it, so what the name leads to is judged first,
 * on a handle that reads nothing.
 */
function judgeModule(absolute: string): void {
  try {
    judgeRegularFile(absolute, { maxBytes: MAX_CONFIG_BYTES });
  } catch (error) {
    throw unreadableConfig(absolute, error);
  }
}

/** Why a config was not read, from the safe file layer's refusal. */
function unreadableConfig(absolute: string, error: unknown): ReturnlintError {
  if (!(error instanceof FileRefusedError)) throw error;
  return error.kind === "missing"
    ? new ReturnlintError("CONFIG_NOT_FOUND", `Config file not found: ${absolute}`)
    : new ReturnlintError("CONFIG_UNREADABLE", `Cannot read config ${absolute}: ${error.reason}.`);
}

function tooDeep(file: string): ReturnlintError {
  return new ReturnlintError("CONFIG_INVALID", `Config ${file} is not a usable YAML config: it is nested too deeply to read (a config is a few levels deep).`);
}

function yamlResourceError(file: string, error: unknown): ReturnlintError | undefined {
  if (error instanceof RangeError && /call stack/i.test(error.message)) return tooDeep(file);
  if (error instanceof Error && /alias/i.test(error.message)) {
    return new ReturnlintError("CONFIG_INVALID", `Config ${file} is not a usable YAML config: its aliases (*name) expand to more than a config could hold (${error.message}).`);
  }
  return undefined;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
