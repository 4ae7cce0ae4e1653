import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { ReturnlintError } from "../errors.js";
import { lineAndColumn, locateJsonError, stripBom } from "../json.js";
import { importFile } from "./import-file.js";

export const CONFIG_FILES = [
  "returnlint.config.json",
  "returnlint.config.yaml",
  "returnlint.config.yml",
  "returnlint.config.mjs",
  "returnlint.config.js",
] as const;

export interface RawConfig {
  /** Absolute path of the file the config came from. */
  readonly file: string;
  readonly value: unknown;
}

/**
 * Walks up from `cwd` to the filesystem root and returns the first config
 * file, or a package.json with a `returnlint` key; null when there is none.
 */
export async function findConfig(cwd: string): Promise<RawConfig | null> {
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    for (const name of CONFIG_FILES) {
      const file = path.join(dir, name);
      if (existsSync(file)) return readConfig(file);
    }
    const manifest = path.join(dir, "package.json");
    if (existsSync(manifest)) {
      const value = await readConfig(manifest);
      if (typeof value.value === "object" && value.value !== null && "returnlint" in value.value) {
        return { file: manifest, value: (value.value).returnlint };
      }
    }
    if (path.dirname(dir) === dir) return null;
  }
}

/** Reads one config file by its extension. Syntax errors name the file, line and column. */
export async function readConfig(file: string): Promise<RawConfig> {
  const absolute = path.resolve(file);
  const extension = path.extname(absolute);
  if (extension === ".mjs" || extension === ".js" || extension === ".cjs") {
    try {
      const module = (await importFile(absolute)) as { default?: unknown };
      return { file: absolute, value: module.default };
    } catch (error) {
      throw new ReturnlintError("CONFIG_UNREADABLE", `Cannot load config ${absolute}: ${describe(error)}`);
    }
  }
  let text: string;
  try {
    text = stripBom(readFileSync(absolute, "utf8"));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw code === "ENOENT"
      ? new ReturnlintError("CONFIG_NOT_FOUND", `Config file not found: ${absolute}`)
      : new ReturnlintError("CONFIG_UNREADABLE", `Cannot read config ${absolute}: ${describe(error)}`);
  }
  if (extension === ".yaml" || extension === ".yml") {
    const { parseDocument } = await import("./yaml.js");
    const document = parseDocument(text, { prettyErrors: false });
    const [first] = document.errors;
    if (first !== undefined) {
      const [line, column] = first.linePos?.[0] ? [first.linePos[0].line, first.linePos[0].col] : [1, 1];
      throw new ReturnlintError(
        "CONFIG_INVALID",
        `Config ${absolute} is not valid YAML: ${first.message.split("\n")[0] ?? ""} (line ${line}, column ${column})`,
      );
    }
    return { file: absolute, value: document.toJS() as unknown };
  }
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

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
