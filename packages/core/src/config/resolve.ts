import path from "node:path";
import { ReturnlintError } from "../errors.js";
import { isObject } from "../pointer.js";
import { closest } from "../suggest.js";
import type { ClaimMap } from "../claims.js";
import type { Contract } from "../contract.js";
import { CONTRACT_FORMAT, FORMAT_NAMES } from "../vocabulary.js";
import { DEFAULT_MODULE_TIMEOUT_MS } from "./modules.js";
import type { Importer } from "./import-file.js";
import { findConfig, readConfig } from "./load.js";
import { displayPath } from "./problems.js";
import { resolvePreset } from "./resolve-preset.js";
import { resolveRule, type BuiltinRule, type LoadedRule } from "./resolve-rule.js";
import { contractPreset } from "./rules-for.js";
import { checkShape, dictionary } from "./shape.js";
import { ruleOptionProblems, type PrecompiledValidators } from "./validators.js";
import type { Config, Preset, RuleEntry } from "./schema.js";

export interface LoadedConfig {
  /** The file it came from; null when no config was found and only presets apply. */
  readonly file: string | null;
  readonly config: Config;
  /**
   * Every rule the config names, or a preset that is not built in, by the id the config uses. A
   * built-in preset's rules are the host's own: `rulesFor` imports them when a return first needs them.
   */
  readonly rules: ReadonlyMap<string, LoadedRule>;
  /** Every preset the config names, resolved (with its `extends` chain flattened). */
  readonly presets: ReadonlyMap<string, Preset>;
  /** The host's built-in presets, by name; `auto` runs the one named after the detected format. */
  readonly builtinPresets: ReadonlyMap<string, Preset>;
  /** The host's built-in rules, by id: what a built-in preset names. */
  readonly builtinRules: ReadonlyMap<string, BuiltinRule>;
  /** With `dataOnly`: the rules and presets the config names that are modules, not imported (`rule "./rules/x.mjs"`). */
  readonly refused?: readonly string[];
  /** The contracts the config names, by the name of the preset each stands for (`contract:./contracts/review.json`). */
  readonly contracts: ReadonlyMap<string, Contract>;
}

export interface LoadOptions {
  readonly cwd: string;
  /** `--config`: skips discovery. */
  readonly configFile?: string;
  /** `--preset`, checked here so that a typo fails before any input is read. */
  readonly preset?: string;
  /** The rules that ship with the host, by id, imported on first use. */
  readonly builtinRules: ReadonlyMap<string, BuiltinRule>;
  /** The presets that ship with the host, by name: one per format, named after it (v5, v7, metadata-file). */
  readonly builtinPresets: ReadonlyMap<string, Preset>;
  /** How config, preset and rule modules are imported (default: Node's `import()`). */
  readonly importer?: Importer;
  /** Schemas compiled when the host was built: what is here needs no ajv at run time. */
  readonly precompiled?: PrecompiledValidators;
  /** How long each config, preset or rule module may take to load (default 10 s). */
  readonly moduleTimeoutMs?: number;
  /**
   * Read the config as data and run none of its code (what `audit` does with a repository it does
   * not trust): a JavaScript config is refused before it is imported, and a rule or preset that is
   * not built in is listed in `refused` instead of being imported.
   */
  readonly dataOnly?: boolean;
  /**
   * The rules a contract turns on, from what it claims: the host's (core names no rule). A config
   * that names a contract fails to load without it.
   */
  readonly contractRules?: (claims: ClaimMap) => Readonly<Record<string, RuleEntry>>;
  /** Where compiled contracts are kept (default: contractCacheDir()). */
  readonly contractCacheDir?: string;
}

/** What imports a module when the config is read as data only: nothing. */
const refuseCode: Importer = (url) => Promise.reject(new Error(`${url} is code, and this config is read as data only`));

/**
 * Finds, reads and validates the config, resolves every rule and preset it
 * names, and validates every rule's options. All problems are reported at once.
 */
export async function loadConfig(options: LoadOptions): Promise<LoadedConfig> {
  const timeoutMs = options.moduleTimeoutMs ?? DEFAULT_MODULE_TIMEOUT_MS;
  const dataOnly = options.dataOnly === true;
  const importer = dataOnly ? refuseCode : options.importer;
  const refused: string[] = [];
  const raw = options.configFile === undefined ? await findConfig(options.cwd, timeoutMs, importer) : await readConfig(options.configFile, timeoutMs, importer);
  const file = raw?.file ?? null;
  const base = file === null ? path.resolve(options.cwd) : path.dirname(file);
  const label = file === null ? "--preset" : path.relative(options.cwd, file) || file;
  const value: unknown = raw === null ? {} : raw.value;
  const problems: string[] = [];

  const shape = raw === null ? { problems: [], usable: dictionary() } : await checkShape(value, options.precompiled?.config);
  problems.push(...shape.problems);
  // What is well-formed is still resolved and checked, so that every problem shows in one run.
  const config = shape.usable;

  const presets = new Map<string, Preset>();
  const contracts = new Map<string, Contract>();
  // A contract stands in for a preset: its rules are the host's contract rules, its format `contract`.
  const contractsNamed: { where: string[]; file: string }[] = [];
  if (config.contract !== undefined) contractsNamed.push({ where: ["contract"], file: config.contract });
  if (config.contract !== undefined && config.preset !== undefined) problems.push(`${displayPath(["contract"])}: a config gives its commands a contract or a preset, not both (preset "${config.preset}")`);
  for (const [name, command] of Object.entries(config.commands ?? {})) {
    if (command.contract === undefined) continue;
    contractsNamed.push({ where: ["commands", name, "contract"], file: command.contract });
    if (command.preset !== undefined) problems.push(`${displayPath(["commands", name, "contract"])}: a command has a contract or a preset, not both (preset "${command.preset}")`);
  }
  for (const { where, file: contractFile } of contractsNamed) {
    const name = contractPreset(contractFile) ?? contractFile;
    if (presets.has(name)) continue;
    if (options.contractRules === undefined) {
      problems.push(`${displayPath(where)}: this host checks no contract`);
      continue;
    }
    const { loadContract } = await import("./contract-load.js");
    const loadedContract = await loadContract(contractFile, base, options.contractCacheDir);
    problems.push(...loadedContract.problems.map((problem) => `${displayPath(where)}: ${problem}`));
    if (loadedContract.contract === undefined) continue;
    contracts.set(name, loadedContract.contract);
    presets.set(name, { name, format: CONTRACT_FORMAT, description: `the contract ${contractFile}`, rules: options.contractRules(loadedContract.contract.claims) });
  }
  /** Where each package preset's rules resolve from first: the preset's own folder, then the config's. */
  const presetBases = new Map<string, string>();
  const presetNames = new Set<string>(options.builtinPresets.keys());
  if (options.preset !== undefined) presetNames.add(options.preset);
  if (config.preset !== undefined) presetNames.add(config.preset);
  for (const command of Object.values(config.commands ?? {})) {
    if (command.preset !== undefined) presetNames.add(command.preset);
  }
  for (const name of presetNames) {
    if (name === "auto" || presets.has(name)) continue;
    if (dataOnly && !options.builtinPresets.has(name)) {
      refused.push(`preset "${name}"`);
      continue;
    }
    try {
      const resolved = await resolvePreset(name, base, [], { timeoutMs, builtin: options.builtinPresets, ...(importer === undefined ? {} : { importer }) });
      presets.set(name, resolved.preset);
      for (const [id, ruleBase] of resolved.ruleBases) presetBases.set(`${name}\0${id}`, ruleBase);
    } catch (error) {
      if (!(error instanceof ReturnlintError)) throw error;
      problems.push(error.message);
    }
  }

  const rules = new Map<string, LoadedRule>();
  const entries: { where: (string | number)[]; id: string; entry: RuleEntry; bases: string[] }[] = [];
  for (const [name, preset] of presets) {
    // A built-in preset names built-in rules with options they accept (repository tests say so):
    // nothing to resolve or check here, and a check imports only the rules its return's preset runs.
    if (options.builtinPresets.get(name) === preset) continue;
    for (const [id, entry] of Object.entries(preset.rules)) {
      const presetBase = presetBases.get(`${name}\0${id}`);
      const bases = presetBase === undefined || presetBase === base ? [base] : [presetBase, base];
      entries.push({ where: [`preset ${preset.name}`, id], id, entry, bases });
    }
  }
  for (const [id, entry] of Object.entries(config.rules ?? {})) entries.push({ where: ["rules", id], id, entry, bases: [base] });
  for (const [name, command] of Object.entries(config.commands ?? {})) {
    for (const [id, entry] of Object.entries(command.rules ?? {})) entries.push({ where: ["commands", name, "rules", id], id, entry, bases: [base] });
  }
  for (const [name, format] of Object.entries(config.formats ?? {})) {
    if (!(FORMAT_NAMES as readonly string[]).includes(name)) {
      const guess = closest(name, FORMAT_NAMES);
      problems.push(`${displayPath(["formats", name])}: "${name}" is not a return format; the formats are ${FORMAT_NAMES.join(", ")}${guess === undefined ? "" : ` (did you mean "${guess}"?)`}`);
    }
    for (const [id, entry] of Object.entries(format.rules ?? {})) entries.push({ where: ["formats", name, "rules", id], id, entry, bases: [base] });
  }

  for (const { where, id, entry, bases } of entries) {
    let loaded = rules.get(id);
    if (loaded === undefined && dataOnly && !options.builtinRules.has(id)) {
      if (!refused.includes(`rule "${id}"`)) refused.push(`rule "${id}"`);
      continue;
    }
    if (loaded === undefined) {
      try {
        loaded = await resolveRule(id, bases, options.builtinRules, timeoutMs, importer);
        rules.set(id, loaded);
      } catch (error) {
        if (!(error instanceof ReturnlintError)) throw error;
        problems.push(`${displayPath(where)}: ${error.message}`);
        continue;
      }
    }
    const given = Array.isArray(entry) ? (entry as readonly unknown[])[1] : undefined;
    if (isObject(given)) {
      try {
        // A built-in id always names the built-in rule (resolveRule looks there first).
        const precompiled = options.builtinRules.has(id) ? options.precompiled?.rules?.get(id) : undefined;
        const validate = precompiled ?? (await import("./options.js")).compiledFor(loaded.rule);
        problems.push(...ruleOptionProblems(validate, loaded.rule, given, [...where, 1]));
      } catch (error) {
        // ajv refuses the rule's own schema: the rule's fault, reported like any other config problem.
        const reason = error instanceof Error ? error.message : String(error);
        problems.push(`${displayPath(where)}: rule "${id}" (from ${loaded.source}) has an invalid options schema: ${reason}`);
      }
    }
  }

  if (problems.length > 0) {
    throw new ReturnlintError(
      "CONFIG_INVALID",
      `Invalid configuration in ${label} (${problems.length} ${problems.length === 1 ? "problem" : "problems"}):`,
      problems,
    );
  }
  return { file, config, rules, presets, contracts, builtinPresets: options.builtinPresets, builtinRules: options.builtinRules, ...(dataOnly ? { refused } : {}) };
}
