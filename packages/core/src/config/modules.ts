import { ReturnlintError, type ErrorCode } from "../errors.js";
import { isObject } from "../pointer.js";
import { jsonType, preview } from "../json/render.js";
import type { AnyRule } from "../types.js";
import { importFile, type Importer } from "./import-file.js";

/** How long a config, preset or rule module may take to load, unless the caller says otherwise. */
export const DEFAULT_MODULE_TIMEOUT_MS = 10_000;

/**
 * Imports a user's module (a config, a preset, a rule), waiting at most `timeoutMs`.
 * A module whose top-level `await` never settles would otherwise leave the caller
 * waiting for ever, or, once nothing else keeps Node busy, end the process with
 * exit code 0 and no verdict. The import itself cannot be cancelled: the module may
 * still finish later, unobserved.
 */
export async function importWithin(file: string, specifier: string, code: ErrorCode, timeoutMs: number, importer?: Importer): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new ReturnlintError(code, `cannot load ${specifier} (${file}): it did not finish loading within ${describeMs(timeoutMs)} (a top-level await that never settles?)`));
    }, timeoutMs);
  });
  try {
    return await Promise.race([
      importFile(file, importer).catch((error: unknown) => {
        throw new ReturnlintError(code, `cannot load ${specifier} (${file}): ${error instanceof Error ? error.message : String(error)}`);
      }),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export function describeMs(ms: number): string {
  return ms >= 1000 && ms % 1000 === 0 ? `${String(ms / 1000)} s` : `${String(ms)} ms`;
}

function isRule(value: unknown): value is AnyRule {
  return (
    isObject(value) &&
    typeof value.id === "string" &&
    typeof value.check === "function" &&
    isObject(value.meta) &&
    isObject(value.meta.messages) &&
    isObject(value.meta.schema)
  );
}

/** The rule a module exports: its default export (unwrapping a CommonJS `exports.default`), or the module itself. */
export function pickRule(module: unknown, id: string, specifier: string): AnyRule {
  const exported = isObject(module) && "default" in module ? module.default : module;
  if (isRule(exported)) return exported;
  if (isObject(exported) && isRule(exported.default)) return exported.default;
  throw new ReturnlintError(
    "RULE_NOT_FOUND",
    `${specifier} (for "${id}") does not export a rule (an object with id, meta.schema, meta.messages and check) as its default export; it exports ${describeExport(module, exported)}`,
  );
}

function describeExport(module: unknown, exported: unknown): string {
  if (isObject(module) && !("default" in module)) {
    const names = Object.keys(module);
    return names.length === 0 ? "nothing" : `no default, only named exports ${names.join(", ")}`;
  }
  if (typeof exported === "function") return `a function${exported.name === "" ? "" : ` (${exported.name})`}`;
  if (!isObject(exported)) return `${jsonType(exported)}${exported === undefined || exported === null ? "" : ` ${preview(exported)}`}`;
  const missing = ["id", "meta", "check"].filter((key) => !(key in exported));
  const meta = exported.meta;
  if (missing.length === 0 && isObject(meta)) missing.push(...["schema", "messages"].filter((key) => !isObject(meta[key])).map((key) => `meta.${key}`));
  const keys = Object.keys(exported);
  return `an object with keys ${keys.join(", ") || "(none)"}${missing.length === 0 ? "" : ` (missing ${missing.join(", ")})`}`;
}

/**
 * A custom rule's meta with what listings and formatters print always a string: a
 * rule that leaves out its description or docs URL still loads and is still listed.
 */
export function completeMeta<Meta extends AnyRule["meta"]>(meta: Meta): Meta {
  const description = typeof meta.description === "string" && meta.description.trim() !== "" ? meta.description : "(no description in its meta)";
  const docs = typeof meta.docs === "string" ? meta.docs : "";
  return description === meta.description && docs === meta.docs ? meta : { ...meta, description, docs };
}
