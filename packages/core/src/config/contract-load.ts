/**
 * A contract file named by a config: read, its annotations checked, its schema compiled. The
 * compiled validator is ajv's standalone code, kept in the user's cache folder under the hash of
 * the schema, so that a check under a contract loads no ajv once the schema has been compiled
 * (ajv alone costs more start-up than the whole check may take).
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { claimMapOf, violationOf, type Contract, type ContractViolation } from "../contract.js";
import { stripBom } from "../json/utf8.js";
import { preview } from "../json/render.js";
import { isObject } from "../pointer.js";
import { FileRefusedError, readRegularFile } from "../safe-fs.js";
import type { JsonSchema } from "../types.js";
import type { SchemaValidator } from "./validators.js";

/** A contract is a schema of a few kilobytes; a larger file is no contract. */
export const MAX_CONTRACT_BYTES = 1024 * 1024;

/** The draft contracts are written in, as `$schema` names it. */
const DRAFT_2020_12 = /^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/;

/** Changes when the code this module generates changes, so that an older cache entry is not used. */
const CACHE_FORMAT = "2";

/** Where compiled contracts are kept: $RETURNLINT_CACHE_DIR, else $XDG_CACHE_HOME/returnlint, else ~/.cache/returnlint. */
export function contractCacheDir(): string {
  const given = process.env.RETURNLINT_CACHE_DIR;
  if (given !== undefined && given !== "") return path.join(given, "contracts");
  const xdg = process.env.XDG_CACHE_HOME;
  // node:os on use: the library's index exports this module, and every run that loads the library would load it.
  return path.join(xdg !== undefined && xdg !== "" ? xdg : path.join(process.getBuiltinModule("node:os").homedir(), ".cache"), "returnlint", "contracts");
}

/** The contract `file` names (relative to `base`, the config's folder), or every problem with it. */
export async function loadContract(file: string, base: string, cacheDir: string = contractCacheDir()): Promise<{ contract?: Contract; problems: string[] }> {
  const absolute = path.resolve(base, file);
  let text: string;
  try {
    text = stripBom(readRegularFile(absolute, { maxBytes: MAX_CONTRACT_BYTES }).bytes.toString("utf8"));
  } catch (error) {
    if (!(error instanceof FileRefusedError)) throw error;
    return { problems: [`contract ${file} cannot be read: ${error.message}`] };
  }
  let schema: unknown;
  try {
    schema = JSON.parse(text);
  } catch (error) {
    return { problems: [`contract ${file} is not JSON: ${error instanceof Error ? error.message : String(error)}`] };
  }
  return compileContract(schema, file, cacheDir);
}

/** A contract from its schema (`file`: how messages name it), or every problem with it. */
export async function compileContract(schema: unknown, file: string, cacheDir: string = contractCacheDir()): Promise<{ contract?: Contract; problems: string[] }> {
  if (!isObject(schema)) return { problems: [`contract ${file} must be a JSON Schema object; received ${preview(schema)}`] };
  if (schema.$schema !== undefined && (typeof schema.$schema !== "string" || !DRAFT_2020_12.test(schema.$schema))) {
    return { problems: [`contract ${file}#/$schema: contracts are JSON Schema draft 2020-12 ("https://json-schema.org/draft/2020-12/schema"); received ${preview(schema.$schema)}`] };
  }
  const { map, problems } = claimMapOf(schema);
  if (problems.length > 0) return { problems: problems.map((problem) => `contract ${file}${problem}`) };
  let validate: SchemaValidator;
  try {
    validate = await compiled(schema, cacheDir);
  } catch (error) {
    return { problems: [`contract ${file} is not a valid JSON Schema: ${error instanceof Error ? error.message : String(error)}`] };
  }
  return {
    contract: {
      file,
      schema,
      claims: map,
      check(value: unknown): readonly ContractViolation[] {
        if (validate(value)) return [];
        const violations: ContractViolation[] = [];
        for (const error of validate.errors ?? []) {
          const violation = violationOf(error, value);
          if (violation !== undefined) violations.push(violation);
        }
        return violations;
      },
    },
    problems: [],
  };
}

/**
 * The schema's validator: from the cache when it holds this schema, else compiled with ajv (and kept
 * there). An entry is the schema's JSON on its first line, then the code: it is used only for the
 * very schema it was compiled from, so its name needs no cryptographic hash (node:crypto alone
 * costs a check several milliseconds of start-up).
 */
async function compiled(schema: JsonSchema, cacheDir: string): Promise<SchemaValidator> {
  const json = JSON.stringify(schema);
  const cached = path.join(cacheDir, `${cacheKey(json)}.cjs`);
  let entry: string | undefined;
  try {
    entry = readFileSync(cached, "utf8");
  } catch {
    // Not compiled yet, or the cache cannot be read: compile it now.
  }
  // JSON.stringify writes no line feed: the first one ends the schema's line.
  const newline = entry?.indexOf("\n") ?? -1;
  if (entry !== undefined && newline !== -1 && entry.slice(0, newline) === json) {
    const code = entry.slice(newline + 1);
    return evaluate(code, await runtimeFor(code));
  }
  const [ajvModule, standalone] = await Promise.all([import("ajv/dist/2020.js"), import("ajv/dist/standalone/index.js")]);
  // A bundle that splits a CommonJS module into a chunk of its own gives its exports as `default` only.
  const Ajv2020 = (ajvModule as Partial<typeof ajvModule>).Ajv2020 ?? (ajvModule.default as unknown as typeof ajvModule).Ajv2020;
  const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: false, logger: false, code: { source: true } });
  const validate = ajv.compile(schema);
  const generate = (exportsOf(standalone) as { default: (instance: typeof ajv, refs: typeof validate) => string }).default;
  const source = generate(ajv, validate);
  try {
    mkdirSync(cacheDir, { recursive: true });
    // Written beside its name, then renamed: a check running at the same time reads the whole file or none.
    const partial = `${cached}.${String(process.pid)}.tmp`;
    writeFileSync(partial, `${json}\n${source}`);
    renameSync(partial, cached);
  } catch {
    // A cache that cannot be written costs the next check a compilation, nothing else.
  }
  return validate as SchemaValidator;
}

/**
 * A cache entry's name: 64 bits of FNV-1a (two 32-bit lanes with different offsets) over the cache
 * format and the schema's JSON, in hex. Two schemas that share a name only take turns in the entry.
 */
function cacheKey(json: string): string {
  const text = `${CACHE_FORMAT}\0${json}`;
  let low = 0x811c9dc5;
  let high = 0x01000193;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    low = Math.imul(low ^ code, 0x01000193);
    high = Math.imul(high ^ code, 0x01000193) ^ (low >>> 15);
  }
  return `${(high >>> 0).toString(16).padStart(8, "0")}${(low >>> 0).toString(16).padStart(8, "0")}`;
}

/**
 * ajv's runtime modules, as its standalone code requires them (`require("ajv/dist/runtime/equal").default`),
 * each imported only when the code names it: most contracts need none.
 */
const RUNTIME: Readonly<Record<string, () => Promise<unknown>>> = {
  "ajv/dist/runtime/equal": () => import("ajv/dist/runtime/equal.js"),
  "ajv/dist/runtime/ucs2length": () => import("ajv/dist/runtime/ucs2length.js"),
  "ajv/dist/runtime/uri": () => import("ajv/dist/runtime/uri.js"),
  "ajv/dist/runtime/validation_error": () => import("ajv/dist/runtime/validation_error.js"),
};

/** The runtime modules `code` requires, imported. */
async function runtimeFor(code: string): Promise<ReadonlyMap<string, unknown>> {
  const named = Object.keys(RUNTIME).filter((id) => code.includes(`"${id}"`));
  const loaded = await Promise.all(named.map(async (id) => [id, exportsOf(await RUNTIME[id]?.())] as const));
  return new Map(loaded);
}

/**
 * A CommonJS module's exports, from the namespace an `import *` gives: Node puts them under
 * `default`; a bundler that honours `__esModule` gives them as the namespace itself.
 */
function exportsOf(namespace: unknown): unknown {
  const inner = isObject(namespace) ? namespace.default : undefined;
  return isObject(inner) && "default" in inner ? inner : namespace;
}

/** Runs standalone code that returnlint generated and cached, as the CommonJS module it is, with the runtime modules it requires. */
function evaluate(code: string, runtime: ReadonlyMap<string, unknown>): SchemaValidator {
  const module: { exports: unknown } = { exports: {} };
  const require = (id: string): unknown => {
    if (!runtime.has(id)) throw new Error(`a compiled contract requires ${id}, which returnlint does not provide`);
    return runtime.get(id);
  };
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the code is ajv's, generated by returnlint and cached under its schema's hash
  const run = new Function("require", "module", "exports", code) as (require: (id: string) => unknown, module: { exports: unknown }, exports: unknown) => void;
  run(require, module, module.exports);
  return module.exports as SchemaValidator;
}
