import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import metadataFilePreset from "@returnlint/preset-metadata-file";
import v5Preset from "@returnlint/preset-v5";
import v7Preset from "@returnlint/preset-v7";
import { ReturnlintError } from "../errors.js";
import { isObject, jsonType, preview } from "../pointer.js";
import type { ConfiguredRule } from "../runner.js";
import { closest } from "../suggest.js";
import type { AnyRule, FormatName, Severity } from "../types.js";
import { detectFormat } from "../vocabulary.js";
import { findConfig, readConfig } from "./load.js";
import { describeAjvError, displayPath } from "./problems.js";
import { configSchema, SEVERITIES, type CommandConfig, type Config, type Preset, type RuleEntry } from "./schema.js";

export const BUILTIN_PRESETS: ReadonlyMap<string, Preset> = new Map<string, Preset>([
  ["v5", v5Preset],
  ["v7", v7Preset],
  ["metadata-file", metadataFilePreset],
]);

/** The preset of each format, for `auto`. */
const PRESET_OF_FORMAT: Readonly<Record<FormatName, Preset>> = {
  v5: v5Preset,
  v7: v7Preset,
  "metadata-file": metadataFilePreset,
};

export interface LoadedRule {
  readonly rule: AnyRule;
  /** A package name or a file path: what the user would look at when it misbehaves. */
  readonly source: string;
}

export interface LoadedConfig {
  /** The file it came from; null when no config was found and only presets apply. */
  readonly file: string | null;
  readonly config: Config;
  /** Every rule any preset or the config names, by the id the config uses. */
  readonly rules: ReadonlyMap<string, LoadedRule>;
  /** Every preset the config names, resolved (with its `extends` chain flattened). */
  readonly presets: ReadonlyMap<string, Preset>;
}

export interface LoadOptions {
  readonly cwd: string;
  /** `--config`: skips discovery. */
  readonly configFile?: string;
  /** `--preset`, checked here so that a typo fails before any input is read. */
  readonly preset?: string;
  /** The rules that ship with returnlint, by id. */
  readonly builtinRules: ReadonlyMap<string, LoadedRule>;
}

/**
 * Finds, reads and validates the config, resolves every rule and preset it
 * names, and validates every rule's options. All problems are reported at once.
 */
export async function loadConfig(options: LoadOptions): Promise<LoadedConfig> {
  const raw = options.configFile === undefined ? await findConfig(options.cwd) : await readConfig(options.configFile);
  const file = raw?.file ?? null;
  const base = file === null ? path.resolve(options.cwd) : path.dirname(file);
  const label = file === null ? "--preset" : path.relative(options.cwd, file) || file;
  const value: unknown = raw === null ? {} : raw.value;
  const problems: string[] = [];

  const shape = raw === null ? { problems: [], usable: {} } : await checkShape(value);
  problems.push(...shape.problems);
  // What is well-formed is still resolved and checked, so that every problem shows in one run.
  const config = shape.usable;

  const presets = new Map<string, Preset>();
  const presetNames = new Set<string>(["v5", "v7", "metadata-file"]);
  if (options.preset !== undefined) presetNames.add(options.preset);
  if (config.preset !== undefined) presetNames.add(config.preset);
  for (const command of Object.values(config.commands ?? {})) {
    if (command.preset !== undefined) presetNames.add(command.preset);
  }
  for (const name of presetNames) {
    if (name === "auto") continue;
    try {
      presets.set(name, await resolvePreset(name, base, []));
    } catch (error) {
      if (!(error instanceof ReturnlintError)) throw error;
      problems.push(error.message);
    }
  }

  const rules = new Map<string, LoadedRule>();
  const entries: { where: (string | number)[]; id: string; entry: RuleEntry }[] = [];
  for (const preset of presets.values()) {
    for (const [id, entry] of Object.entries(preset.rules)) entries.push({ where: [`preset ${preset.name}`, id], id, entry });
  }
  for (const [id, entry] of Object.entries(config.rules ?? {})) entries.push({ where: ["rules", id], id, entry });
  for (const [name, command] of Object.entries(config.commands ?? {})) {
    for (const [id, entry] of Object.entries(command.rules ?? {})) entries.push({ where: ["commands", name, "rules", id], id, entry });
  }

  const validators = raw === null ? undefined : await import("./options.js");
  for (const { where, id, entry } of entries) {
    let loaded = rules.get(id);
    if (loaded === undefined) {
      try {
        loaded = await resolveRule(id, base, options.builtinRules);
        rules.set(id, loaded);
      } catch (error) {
        if (!(error instanceof ReturnlintError)) throw error;
        problems.push(`${displayPath(where)}: ${error.message}`);
        continue;
      }
    }
    const given = Array.isArray(entry) ? (entry as readonly unknown[])[1] : undefined;
    if (validators !== undefined && isObject(given)) {
      problems.push(...validators.checkRuleOptions(loaded.rule, given, [...where, 1]));
    }
  }

  if (problems.length > 0) {
    throw new ReturnlintError(
      "CONFIG_INVALID",
      `Invalid configuration in ${label} (${problems.length} ${problems.length === 1 ? "problem" : "problems"}):`,
      problems,
    );
  }
  return { file, config, rules, presets };
}

async function checkShape(value: unknown): Promise<{ problems: string[]; usable: Config }> {
  if (!isObject(value)) return { problems: [`the config must be an object; received ${jsonType(value)}`], usable: {} };
  const { validateConfigShape } = await import("./options.js");
  const problems: string[] = [];
  const bad = new Set<string>();
  for (const error of validateConfigShape(value)) {
    const entryPath = /^(?:\/commands\/[^/]+)?\/rules\/[^/]+/.exec(error.instancePath)?.[0];
    if (entryPath === undefined) {
      problems.push(describeAjvError(error, value, configSchema, []));
      bad.add(error.instancePath);
    } else if (!bad.has(entryPath)) {
      problems.push(describeRuleEntry(entryPath, value));
      bad.add(entryPath);
    }
  }
  return { problems, usable: usablePart(value, "", bad) };
}

/** The config without the parts that failed the schema. */
function usablePart(value: Record<string, unknown>, pointer: string, bad: ReadonlySet<string>): Record<string, unknown> {
  const usable: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    const childPointer = `${pointer}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`;
    if (bad.has(childPointer)) continue;
    const descend = (pointer === "" && (key === "rules" || key === "commands")) || /^\/commands\/[^/]+$/.test(childPointer) || /^\/commands\/[^/]+\/rules$/.test(childPointer);
    usable[key] = descend && isObject(child) ? usablePart(child, childPointer, bad) : child;
  }
  return usable;
}

function describeRuleEntry(pointer: string, config: Record<string, unknown>): string {
  const tokens = pointer.slice(1).split("/").map((token) => token.replace(/~1/g, "/").replace(/~0/g, "~"));
  let entry: unknown = config;
  for (const token of tokens) entry = isObject(entry) ? entry[token] : undefined;
  const where = displayPath(tokens);
  const severity = Array.isArray(entry) ? (entry as unknown[])[0] : entry;
  if (Array.isArray(entry) && (entry.length === 0 || entry.length > 2)) {
    return `${where}: must be a severity or [severity, options]; received an array of ${String(entry.length)}`;
  }
  if (typeof severity !== "string" || !SEVERITIES.includes(severity as Severity)) {
    const guess = typeof severity === "string" ? closest(severity, SEVERITIES) : undefined;
    const hint = guess === undefined ? "" : ` (did you mean "${guess}"?)`;
    return `${where}: severity must be "off", "warn" or "error"; received ${preview(severity)}${hint}`;
  }
  return `${where}[1]: options must be an object; received ${preview((entry as unknown[])[1])}`;
}

/** `./rules/x.mjs`, `@scope/returnlint-rule-x`, `returnlint-rule-x`, or `x` (→ `returnlint-rule-x`). */
export async function resolveRule(id: string, base: string, builtins: ReadonlyMap<string, LoadedRule>): Promise<LoadedRule> {
  const builtin = builtins.get(id);
  if (builtin !== undefined) return builtin;
  const tried: string[] = [`built-in rule "${id}"`];
  const candidates = candidatesFor(id, "rule");
  for (const candidate of candidates) {
    const found = locate(candidate, base);
    tried.push(found.tried);
    if (found.file === undefined) continue;
    const rule = pickRule(await importModule(found.file, candidate), id, candidate);
    return { rule, source: candidate };
  }
  const guess = closest(id, builtins.keys());
  throw new ReturnlintError(
    "RULE_NOT_FOUND",
    `unknown rule "${id}"${guess === undefined ? "" : ` (did you mean "${guess}"?)`}; looked for ${tried.join(", ")}`,
  );
}

async function resolvePreset(name: string, base: string, chain: readonly string[]): Promise<Preset> {
  if (chain.includes(name)) {
    throw new ReturnlintError("PRESET_NOT_FOUND", `preset "${name}" extends itself: ${[...chain, name].join(" → ")}`);
  }
  const builtin = BUILTIN_PRESETS.get(name);
  if (builtin !== undefined) return builtin;
  const tried: string[] = [`built-in presets (${[...BUILTIN_PRESETS.keys(), "auto"].join(", ")})`];
  for (const candidate of candidatesFor(name, "preset")) {
    const found = locate(candidate, base);
    tried.push(found.tried);
    if (found.file === undefined) continue;
    const module = await importModule(found.file, candidate);
    const preset = (isObject(module) && isObject(module.default) ? module.default : module);
    if (!isObject(preset) || !isObject(preset.rules)) {
      throw new ReturnlintError("PRESET_NOT_FOUND", `${candidate} does not export a preset (an object with "rules")`);
    }
    const parentName = typeof preset.extends === "string" ? preset.extends : undefined;
    const parent = parentName === undefined ? undefined : await resolvePreset(parentName, path.dirname(found.file), [...chain, name]);
    const format = (preset.format ?? parent?.format ?? "v7") as FormatName;
    return { name, format, rules: { ...parent?.rules, ...(preset.rules as Record<string, RuleEntry>) } };
  }
  const guess = closest(name, BUILTIN_PRESETS.keys());
  throw new ReturnlintError(
    "PRESET_NOT_FOUND",
    `unknown preset "${name}"${guess === undefined ? "" : ` (did you mean "${guess}"?)`}; looked for ${tried.join(", ")}`,
  );
}

function candidatesFor(id: string, kind: "rule" | "preset"): string[] {
  if (id.startsWith("./") || id.startsWith("../") || path.isAbsolute(id)) return [id];
  const prefix = `returnlint-${kind}-`;
  if (id.startsWith("@")) {
    const [scope, name = ""] = id.split("/");
    return name.startsWith(prefix) ? [id] : [`${scope ?? ""}/${prefix}${name}`];
  }
  return id.startsWith(prefix) ? [id] : [`${prefix}${id}`];
}

function locate(specifier: string, base: string): { file?: string; tried: string } {
  if (specifier.startsWith(".") || path.isAbsolute(specifier)) {
    const file = path.resolve(base, specifier);
    return existsSync(file) ? { file, tried: file } : { tried: `file ${file}` };
  }
  try {
    const file = createRequire(path.join(base, "noop.js")).resolve(specifier);
    return { file, tried: specifier };
  } catch {
    return { tried: `package "${specifier}" from ${base}` };
  }
}

async function importModule(file: string, specifier: string): Promise<unknown> {
  try {
    return (await import(pathToFileURL(file).href)) as unknown;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ReturnlintError("RULE_NOT_FOUND", `cannot load ${specifier} (${file}): ${reason}`);
  }
}

function pickRule(module: unknown, id: string, specifier: string): AnyRule {
  const candidate = isObject(module) && "default" in module ? module.default : module;
  if (isObject(candidate) && isObject(candidate.meta) && typeof candidate.check === "function" && typeof candidate.id === "string") {
    return candidate as unknown as AnyRule;
  }
  const exported = isObject(candidate) ? `an object with keys ${Object.keys(candidate).join(", ") || "(none)"}` : jsonType(candidate);
  throw new ReturnlintError(
    "RULE_NOT_FOUND",
    `${specifier} (for "${id}") does not export a rule (an object with id, meta and check); it exports ${exported}`,
  );
}

export interface RulesForInput {
  readonly command: string | null;
  /** `--preset`: wins over the config. */
  readonly preset?: string;
  /** The parsed return, for `auto`. */
  readonly value: unknown;
}

/** The rules, in order, and the format for one return to one command. */
export function rulesFor(loaded: LoadedConfig, input: RulesForInput): { format: FormatName; preset: string; rules: ConfiguredRule[] } {
  const command: CommandConfig | undefined = input.command === null ? undefined : loaded.config.commands?.[input.command];
  const presetName = input.preset ?? command?.preset ?? loaded.config.preset ?? "auto";
  const preset = presetName === "auto" ? PRESET_OF_FORMAT[detectFormat(input.value)] : loaded.presets.get(presetName);
  if (preset === undefined) throw new ReturnlintError("PRESET_NOT_FOUND", `unknown preset "${presetName}"`);

  // Later layers override severity and merge options; the first mention fixes the order.
  const merged = new Map<string, { severity: Severity; options: Record<string, unknown> }>();
  for (const layer of [preset.rules, loaded.config.rules ?? {}, command?.rules ?? {}]) {
    for (const [id, entry] of Object.entries(layer)) {
      const [severity, options] = Array.isArray(entry) ? (entry as readonly [Severity, Record<string, unknown>?]) : [entry as Severity];
      merged.set(id, { severity, options: { ...merged.get(id)?.options, ...options } });
    }
  }
  const rules: ConfiguredRule[] = [];
  for (const [id, entry] of merged) {
    const loadedRule = loaded.rules.get(id);
    if (entry.severity === "off" || loadedRule === undefined) continue;
    rules.push({
      rule: loadedRule.rule,
      severity: entry.severity,
      options: { ...(loadedRule.rule.meta.defaultOptions as Record<string, unknown>), ...entry.options },
      source: loadedRule.source,
    });
  }
  return { format: preset.format, preset: preset.name, rules };
}
