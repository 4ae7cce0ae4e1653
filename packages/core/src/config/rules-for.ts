/** For one return: the rules to run, in order, with their severity and options, and its format. */
import { ReturnlintError } from "../errors.js";
import type { ConfiguredRule } from "../runner.js";
import type { Contract } from "../contract.js";
import type { FormatName, Severity } from "../types.js";
import { detectFormat, type Detection } from "../vocabulary.js";
import type { LoadedRule } from "./resolve-rule.js";
import type { LoadedConfig } from "./resolve.js";
import type { CommandConfig } from "./schema.js";

export interface RulesForInput {
  readonly command: string | null;
  /** `--preset`: wins over the config. */
  readonly preset?: string;
  /** The parsed return, for `auto`. */
  readonly value: unknown;
  /** The metadata file the return was read from, if it was one: `auto` then needs no other evidence. */
  readonly source?: string;
}

export interface ResolvedRules {
  readonly format: FormatName;
  readonly preset: string;
  readonly rules: readonly ConfiguredRule[];
  /** With the preset `auto`: the format detected for this return, and why. */
  readonly detection?: Detection;
  /** Under a contract: the contract, whose claims the rules read. */
  readonly contract?: Contract;
}

/**
 * Per config, the resolution of each (command, preset, detected format): scan and the API resolve
 * it once, not per return. Nested maps keyed by the strings as given: no key is built per return.
 */
const resolved = new WeakMap<LoadedConfig, Map<string | null, Map<string | undefined, Map<string | undefined, ResolvedRules | Promise<ResolvedRules>>>>>();

/** Commands and presets are a handful per config; a caller inventing one per return must not grow the cache without bound. */
const MAX_CACHED = 1024;

/** The map under `key`, made on first use. */
function child<K, V>(map: Map<K, Map<string | undefined, V>>, key: K): Map<string | undefined, V> {
  let value = map.get(key);
  if (value === undefined) {
    value = new Map();
    if (map.size >= MAX_CACHED) map.clear();
    map.set(key, value);
  }
  return value;
}

/**
 * The preset a return to `command` is checked with: `--preset`, else the command's contract or
 * preset, else the config's, else `auto`. The one statement of that order.
 */
export function presetFor(loaded: LoadedConfig, command: string | null, preset?: string): string {
  const own = command === null ? undefined : loaded.config.commands?.[command];
  return preset ?? contractPreset(own?.contract) ?? own?.preset ?? contractPreset(loaded.config.contract) ?? loaded.config.preset ?? "auto";
}

/** The name of the preset a contract stands for (`contract:./contracts/review.json`): what `rules`, `print-config` and reports show. */
export function contractPreset(file: string | undefined): string | undefined {
  return file === undefined ? undefined : `contract:${file}`;
}

/**
 * The rules, in order, and the format for one return to one command. A promise the first time a
 * (command, preset, format) needs a built-in rule not imported yet; the same answer at once after.
 */
export function rulesFor(loaded: LoadedConfig, input: RulesForInput): ResolvedRules | Promise<ResolvedRules> {
  const command: CommandConfig | undefined = input.command === null ? undefined : loaded.config.commands?.[input.command];
  const presetName = presetFor(loaded, input.command, input.preset);
  const detection = presetName === "auto" ? detectFormat(input.value, input.source) : undefined;
  const format = detection?.format;
  let byCommand = resolved.get(loaded);
  if (byCommand === undefined) {
    byCommand = new Map();
    resolved.set(loaded, byCommand);
  }
  const byFormat = child(child(byCommand, input.command), presetName);
  let result = byFormat.get(format);
  if (result === undefined) {
    const resolving = resolveRules(loaded, command, presetName, format);
    // Settled, the answer replaces the promise: later returns get it without waiting.
    result = resolving instanceof Promise
      ? resolving.then((rules) => {
          byFormat.set(format, rules);
          return rules;
        })
      : resolving;
    byFormat.set(format, result);
  }
  if (result instanceof Promise) return result.then((rules) => withDetection(rules, detection));
  return withDetection(result, detection);
}

function withDetection(result: ResolvedRules, detection: Detection | undefined): ResolvedRules {
  // Written out, not spread: this runs for every return.
  if (detection === undefined) return result;
  return result.contract === undefined
    ? { format: result.format, preset: result.preset, rules: result.rules, detection }
    : { format: result.format, preset: result.preset, rules: result.rules, detection, contract: result.contract };
}

function resolveRules(loaded: LoadedConfig, command: CommandConfig | undefined, presetName: string, format: FormatName | undefined): ResolvedRules | Promise<ResolvedRules> {
  const preset = format !== undefined ? loaded.builtinPresets.get(format) : loaded.presets.get(presetName);
  if (preset === undefined) throw new ReturnlintError("PRESET_NOT_FOUND", `unknown preset "${presetName}"`);

  // Later layers override severity and merge options; the first mention fixes the order. The
  // format's rules apply to its returns alone, the command's to its returns in any format.
  const merged = new Map<string, { severity: Severity; options: Record<string, unknown> }>();
  for (const layer of [preset.rules, loaded.config.rules ?? {}, loaded.config.formats?.[preset.format]?.rules ?? {}, command?.rules ?? {}]) {
    for (const [id, entry] of Object.entries(layer)) {
      const [severity, options] = Array.isArray(entry) ? (entry as readonly [Severity, Record<string, unknown>?]) : [entry as Severity];
      merged.set(id, { severity, options: { ...merged.get(id)?.options, ...options } });
    }
  }
  const on: { readonly id: string; readonly severity: "warn" | "error"; readonly options: Record<string, unknown> }[] = [];
  for (const [id, { severity, options }] of merged) if (severity !== "off") on.push({ id, severity, options });
  const configured = (imported: ReadonlyMap<string, LoadedRule>): ResolvedRules => {
    const rules: ConfiguredRule[] = [];
    for (const { id, severity, options } of on) {
      const loadedRule = loaded.rules.get(id) ?? imported.get(id);
      if (loadedRule === undefined) continue;
      rules.push({ rule: loadedRule.rule, severity, options: { ...(loadedRule.rule.meta.defaultOptions as Record<string, unknown>), ...options }, source: loadedRule.source });
    }
    const contract = loaded.contracts.get(preset.name);
    return contract === undefined ? { format: preset.format, preset: preset.name, rules } : { format: preset.format, preset: preset.name, rules, contract };
  };
  // The config's rules are loaded; the built-in ones a built-in preset names are imported now, once.
  const importing: Promise<readonly [string, LoadedRule]>[] = [];
  for (const { id } of on) {
    const builtin = loaded.rules.has(id) ? undefined : loaded.builtinRules.get(id);
    if (builtin !== undefined) importing.push(builtin.load().then((rule) => [id, rule] as const));
  }
  return importing.length === 0 ? configured(new Map()) : Promise.all(importing).then((imported) => configured(new Map(imported)));
}
