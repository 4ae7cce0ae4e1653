/** A rule id from a config → the rule: built-in, a file, or a package. */
import { ReturnlintError } from "../errors.js";
import { canIsolate, loadIsolatedRule } from "../isolation.js";
import { closest } from "../suggest.js";
import type { AnyRule } from "../types.js";
import type { Importer } from "./import-file.js";
import { candidatesFor, isFileSpecifier, locateModule } from "./locate-module.js";
import { completeMeta, DEFAULT_MODULE_TIMEOUT_MS, importWithin, pickRule } from "./modules.js";

export interface LoadedRule {
  readonly rule: AnyRule;
  /** A package name or a file path: what the user would look at when it misbehaves. */
  readonly source: string;
}

/**
 * A rule that ships with the host, imported when it is first needed: a check imports the rules
 * its return's preset runs, not every rule there is.
 */
export interface BuiltinRule {
  readonly id: string;
  /** The package it comes from. */
  readonly source: string;
  /** Imports the rule once; every call gives the same LoadedRule. */
  load(): Promise<LoadedRule>;
}

/** A built-in rule `id` that `importRule` imports (its module's default export is the rule), on first use. */
export function builtinRule(id: string, importRule: () => Promise<{ readonly default: AnyRule }>): BuiltinRule {
  const source = `@returnlint/rule-${id}`;
  let loading: Promise<LoadedRule> | undefined;
  return {
    id,
    source,
    load: () => (loading ??= importRule().then((module) => ({ rule: module.default, source }))),
  };
}

/** Every built-in rule, imported: for what lists or documents them all (`returnlint rules`, the config schema). */
export async function importBuiltinRules(builtins: ReadonlyMap<string, BuiltinRule>): Promise<ReadonlyMap<string, LoadedRule>> {
  return new Map(await Promise.all([...builtins].map(async ([id, builtin]) => [id, await builtin.load()] as const)));
}

/**
 * `./rules/x.mjs`, `@scope/returnlint-rule-x`, `@scope/x`, `returnlint-rule-x`, or `x` (→ `returnlint-rule-x`).
 * Packages and files resolve from `base` (the config file's directory), or from each of several bases in turn.
 */
export async function resolveRule(
  id: string,
  base: string | readonly string[],
  builtins: ReadonlyMap<string, BuiltinRule>,
  timeoutMs: number = DEFAULT_MODULE_TIMEOUT_MS,
  importer?: Importer,
): Promise<LoadedRule> {
  const builtin = builtins.get(id);
  if (builtin !== undefined) return builtin.load();
  const tried: string[] = [`built-in rule "${id}"`];
  for (const from of typeof base === "string" ? [base] : base) {
    for (const candidate of candidatesFor(id, "rule")) {
      const found = locateModule(candidate, from);
      tried.push(found.tried);
      if (found.file === undefined) continue;
      const source = isFileSpecifier(candidate) ? found.file : candidate;
      const module = { file: found.file, id, specifier: source };
      // Custom rules run in the rule thread (isolation.ts); where it cannot start, here.
      const rule = canIsolate()
        ? await loadIsolatedRule(module, timeoutMs)
        : completeRule(pickRule(await importWithin(found.file, source, "RULE_NOT_FOUND", timeoutMs, importer), id, source));
      return { rule, source };
    }
  }
  const guess = closest(id, builtins.keys());
  throw new ReturnlintError(
    "RULE_NOT_FOUND",
    `unknown rule "${id}"${guess === undefined ? "" : ` (did you mean "${guess}"?)`}; looked for ${tried.join(", ")}`,
  );
}

function completeRule(rule: AnyRule): AnyRule {
  const meta = completeMeta(rule.meta);
  return meta === rule.meta ? rule : { ...rule, meta, check: rule.check.bind(rule) };
}
