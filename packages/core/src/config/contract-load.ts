/**
 * A contract file named by a config: read, its annotations checked, its schema compiled. The
 * compiled validator is ajv's standalone code, kept in the user's cache folder under the hash of
 * the schema, so that a check under a contract loads no ajv once the schema has been compiled
 * (ajv alone costs more start-up than the whole check may take).
 */
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import type { ClaimMap } from "../claims.js";
import { claimMapOf, violationOf, type Contract, type ContractViolation } from "../contract.js";
import { stripBom } from "../json/utf8.js";
import { preview } from "../json/render.js";
import { isObject } from "../pointer.js";
import { FileRefusedError, readRegularFile } from "../safe-fs.js";
import type { JsonSchema } from "../types.js";
import { cacheFolder, entryAfter, entryName, replaceFile } from "./cache.js";
import type { SchemaValidator } from "./validators.js";

/** A contract is a schema of a few kilobytes; a larger file is no contract. */
export const MAX_CONTRACT_BYTES = 1024 * 1024;

/** The draft contracts are written in, as `$schema` names it. */
const DRAFT_2020_12 = /^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/;

/** Changes when the code this module generates changes, so that an older cache entry is not used. */
const CACHE_FORMAT = "3";

/** Where compiled contracts are kept: returnlint's cache folder's `contracts`. */
export function contractCacheDir(): string {
  return cacheFolder("contracts");
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
  let found: Compiled | { problems: string[] };
  try {
    found = await compiled(schema, cacheDir);
  } catch (error) {
    return { problems: [`contract ${file} is not a valid JSON Schema: ${error instanceof Error ? error.message : String(error)}`] };
  }
  if ("problems" in found) return { problems: found.problems.map((problem) => `contract ${file}${problem}`) };
  const { validate, claims } = found;
  let firstUse = found.afterFirstUse;
  return {
    contract: {
      file,
      schema,
      claims,
      check(value: unknown): readonly ContractViolation[] {
        const valid = validate(value);
        if (firstUse !== undefined) {
          firstUse();
          firstUse = undefined;
        }
        if (valid) return [];
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

/** A schema made ready to check returns: its validator and where its claims are. */
interface Compiled {
  readonly validate: SchemaValidator;
  readonly claims: ClaimMap;
  /** Keeps what the first check compiled, for the next process (V8's code cache); once, after that check. */
  readonly afterFirstUse?: () => void;
}

/**
 * The schema's validator and claims: from the cache when it holds this schema, else found and
 * compiled with ajv (and kept there); the annotations' problems when there are any (nothing is
 * kept then). An entry (cache.ts) is the schema's JSON on its first line, its claims' on the
 * second, then the code; beside it, `.v8` keeps V8's code cache of that code, made by the first
 * check that runs it.
 */
async function compiled(schema: JsonSchema, cacheDir: string): Promise<Compiled | { problems: string[] }> {
  const json = JSON.stringify(schema);
  const cached = path.join(cacheDir, `${entryName(CACHE_FORMAT, json)}.cjs`);
  const entry = cacheEntry(cached, json);
  if (entry !== undefined) return { claims: entry.claims, ...(await evaluate(entry.code, cached)) };
  const { map: claims, problems } = claimMapOf(schema);
  if (problems.length > 0) return { problems };
  const [ajvModule, standalone] = await Promise.all([import("ajv/dist/2020.js"), import("ajv/dist/standalone/index.js")]);
  // A bundle that splits a CommonJS module into a chunk of its own gives its exports as `default` only.
  const Ajv2020 = (ajvModule as Partial<typeof ajvModule>).Ajv2020 ?? (ajvModule.default as unknown as typeof ajvModule).Ajv2020;
  const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: false, logger: false, code: { source: true } });
  const validate = ajv.compile(schema);
  const generate = (exportsOf(standalone) as { default: (instance: typeof ajv, refs: typeof validate) => string }).default;
  const source = generate(ajv, validate);
  try {
    mkdirSync(cacheDir, { recursive: true });
    // A code cache beside an entry is of that entry's code: one left by the schema that had this name before is not.
    rmSync(codeCacheOf(cached), { force: true });
    replaceFile(cached, `${json}\n${JSON.stringify(claims)}\n${source}`);
  } catch {
    // A cache that cannot be written costs the next check a compilation, nothing else.
  }
  return { validate: validate as SchemaValidator, claims };
}

/** The cache entry `cached` when it was compiled from `json`: its claims and its code. */
function cacheEntry(cached: string, json: string): { readonly claims: ClaimMap; readonly code: string } | undefined {
  // Not compiled yet, another schema's, or unreadable: compiled now.
  const kept = entryAfter(cached, json);
  // The claims' JSON has no line feed either: the next one ends it.
  const claimsEnd = kept?.indexOf("\n") ?? -1;
  if (kept === undefined || claimsEnd === -1) return undefined;
  try {
    return { claims: JSON.parse(kept.slice(0, claimsEnd)) as ClaimMap, code: kept.slice(claimsEnd + 1) };
  } catch {
    return undefined;
  }
}

/** Where V8's code cache of the entry `cached` (`KEY.cjs`) is kept: `KEY.v8`. */
function codeCacheOf(cached: string): string {
  return `${cached.slice(0, -".cjs".length)}.v8`;
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

/**
 * Runs standalone code that returnlint generated and cached (`cached`, its entry), as the CommonJS
 * module it is, with the runtime modules it requires, compiled with the code cache beside the entry
 * when there is a usable one; `afterFirstUse` writes one when there is not.
 */
async function evaluate(code: string, cached: string): Promise<Pick<Compiled, "validate" | "afterFirstUse">> {
  const runtime = await runtimeFor(code);
  const codeCache = codeCacheOf(cached);
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(codeCache);
  } catch {
    // None yet: this check makes it.
  }
  const { Script } = process.getBuiltinModule("node:vm");
  const script = new Script(`(function (require, module, exports) {${code}\n})`, { filename: cached, ...(cachedData === undefined ? {} : { cachedData }) });
  const module: { exports: unknown } = { exports: {} };
  const require = (id: string): unknown => {
    if (!runtime.has(id)) throw new Error(`a compiled contract requires ${id}, which returnlint does not provide`);
    return runtime.get(id);
  };
  (script.runInThisContext() as (require: (id: string) => unknown, module: { exports: unknown }, exports: unknown) => void)(require, module, module.exports);
  const validate = module.exports as SchemaValidator;
  if (cachedData !== undefined && script.cachedDataRejected !== true) return { validate };
  const afterFirstUse = () => {
    try {
      replaceFile(codeCache, script.createCachedData());
    } catch {
      // Unwritable: the next check compiles the code again, nothing else.
    }
  };
  return { validate, afterFirstUse };
}
