import { existsSync, readFileSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import { ReturnlintError } from "../errors.js";
import { isObject, jsonType, preview } from "../pointer.js";
import type { ConfiguredRule } from "../runner.js";
import { closest } from "../suggest.js";
import type { AnyRule, FormatName, Severity } from "../types.js";
import { detectFormat, type Detection } from "../vocabulary.js";
import { canIsolate, loadIsolatedRule } from "../isolation.js";
import { completeMeta, DEFAULT_MODULE_TIMEOUT_MS, importWithin, pickRule } from "./modules.js";
import type { Importer } from "./import-file.js";
import { findConfig, readConfig } from "./load.js";
import { describeAjvError, displayPath } from "./problems.js";
import { ruleOptionProblems, type PrecompiledValidators, type SchemaValidator } from "./validators.js";
import { configSchema, SEVERITIES, type CommandConfig, type Config, type Preset, type RuleEntry } from "./schema.js";

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
  /** The host's built-in presets, by name; `auto` runs the one named after the detected format. */
  readonly builtinPresets: ReadonlyMap<string, Preset>;
}

export interface LoadOptions {
  readonly cwd: string;
  /** `--config`: skips discovery. */
  readonly configFile?: string;
  /** `--preset`, checked here so that a typo fails before any input is read. */
  readonly preset?: string;
  /** The rules that ship with the host, by id. */
  readonly builtinRules: ReadonlyMap<string, LoadedRule>;
  /** The presets that ship with the host, by name: one per format, named after it (v5, v7, metadata-file). */
  readonly builtinPresets: ReadonlyMap<string, Preset>;
  /** How config, preset and rule modules are imported (default: Node's `import()`). */
  readonly importer?: Importer;
  /** Schemas compiled when the host was built: what is here needs no ajv at run time. */
  readonly precompiled?: PrecompiledValidators;
  /** How long each config, preset or rule module may take to load (default 10 s). */
  readonly moduleTimeoutMs?: number;
}

/**
 * Finds, reads and validates the config, resolves every rule and preset it
 * names, and validates every rule's options. All problems are reported at once.
 */
export async function loadConfig(options: LoadOptions): Promise<LoadedConfig> {
  const timeoutMs = options.moduleTimeoutMs ?? DEFAULT_MODULE_TIMEOUT_MS;
  const raw = options.configFile === undefined ? await findConfig(options.cwd, timeoutMs, options.importer) : await readConfig(options.configFile, timeoutMs, options.importer);
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
  /** Where each package preset's rules resolve from first: the preset's own folder, then the config's. */
  const presetBases = new Map<string, string>();
  const presetNames = new Set<string>(options.builtinPresets.keys());
  if (options.preset !== undefined) presetNames.add(options.preset);
  if (config.preset !== undefined) presetNames.add(config.preset);
  for (const command of Object.values(config.commands ?? {})) {
    if (command.preset !== undefined) presetNames.add(command.preset);
  }
  for (const name of presetNames) {
    if (name === "auto") continue;
    try {
      const resolved = await resolvePreset(name, base, [], { timeoutMs, builtin: options.builtinPresets, ...(options.importer === undefined ? {} : { importer: options.importer }) });
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

  // Built-in presets carry options their rules accept (a repository test says so); anything else is checked.
  const onlyBuiltinPresets = [...presets.values()].every((preset) => options.builtinPresets.get(preset.name) === preset);
  const checkOptions = raw !== null || !onlyBuiltinPresets;
  for (const { where, id, entry, bases } of entries) {
    let loaded = rules.get(id);
    if (loaded === undefined) {
      try {
        loaded = await resolveRule(id, bases, options.builtinRules, timeoutMs, options.importer);
        rules.set(id, loaded);
      } catch (error) {
        if (!(error instanceof ReturnlintError)) throw error;
        problems.push(`${displayPath(where)}: ${error.message}`);
        continue;
      }
    }
    const given = Array.isArray(entry) ? (entry as readonly unknown[])[1] : undefined;
    if (checkOptions && isObject(given)) {
      try {
        const validate = options.precompiled?.rules?.get(loaded.rule) ?? (await import("./options.js")).compiledFor(loaded.rule);
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
  return { file, config, rules, presets, builtinPresets: options.builtinPresets };
}

async function checkShape(value: unknown, precompiled: SchemaValidator | undefined): Promise<{ problems: string[]; usable: Config }> {
  if (!isObject(value)) return { problems: [`the config must be an object; received ${jsonType(value)}`], usable: dictionary() };
  const errors = precompiled === undefined ? (await import("./options.js")).validateConfigShape(value) : precompiled(value) ? [] : [...(precompiled.errors ?? [])];
  const problems: string[] = [];
  const bad = new Set<string>();
  for (const error of errors) {
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

/**
 * An object without a prototype: names that come from a config or a hook payload
 * ("constructor", "__proto__", "toString") are looked up as names, never as
 * Object.prototype's members.
 */
function dictionary(): Record<string, never> {
  return Object.create(null) as Record<string, never>;
}

/** The config without the parts that failed the schema; every map in it without a prototype. */
function usablePart(value: Record<string, unknown>, pointer: string, bad: ReadonlySet<string>): Record<string, unknown> {
  const usable: Record<string, unknown> = dictionary();
  // One pass, and pointers built only where they are needed: a map of 200,000 agents is copied, not parsed again.
  for (const key of Object.keys(value)) {
    const child = value[key];
    const descend = descends(pointer, key) && isObject(child);
    const childPointer = descend || bad.size > 0 ? `${pointer}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}` : "";
    if (bad.has(childPointer)) continue;
    usable[key] = descend ? usablePart(child, childPointer, bad) : child;
  }
  return usable;
}

/** The maps of a config: rules, commands, each command, its rules, and agents. */
function descends(pointer: string, key: string): boolean {
  if (pointer === "") return key === "rules" || key === "commands" || key === "agents";
  if (pointer === "/commands") return true;
  return key === "rules" && /^\/commands\/[^/]+$/.test(pointer);
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

/**
 * `./rules/x.mjs`, `@scope/returnlint-rule-x`, `@scope/x`, `returnlint-rule-x`, or `x` (→ `returnlint-rule-x`).
 * Packages and files resolve from `base` (the config file's directory), or from each of several bases in turn.
 */
export async function resolveRule(
  id: string,
  base: string | readonly string[],
  builtins: ReadonlyMap<string, LoadedRule>,
  timeoutMs: number = DEFAULT_MODULE_TIMEOUT_MS,
  importer?: Importer,
): Promise<LoadedRule> {
  const builtin = builtins.get(id);
  if (builtin !== undefined) return builtin;
  const tried: string[] = [`built-in rule "${id}"`];
  for (const from of typeof base === "string" ? [base] : base) {
    for (const candidate of candidatesFor(id, "rule")) {
      const found = locate(candidate, from);
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

interface ResolvedPreset {
  readonly preset: Preset;
  /** Rule id → the folder of the package preset that named it, for rules that preset depends on. */
  readonly ruleBases: ReadonlyMap<string, string>;
}

const FORMATS: readonly FormatName[] = ["v5", "v7", "metadata-file", "handoff"];

/** How presets are found and imported: the host's built-in ones first, then modules. */
interface PresetLoading {
  readonly timeoutMs: number;
  readonly builtin: ReadonlyMap<string, Preset>;
  readonly importer?: Importer;
}

async function resolvePreset(name: string, base: string, chain: readonly string[], loading: PresetLoading): Promise<ResolvedPreset> {
  if (chain.includes(name)) {
    throw new ReturnlintError("PRESET_NOT_FOUND", `preset "${name}" extends itself: ${[...chain, name].join(" → ")}`);
  }
  const builtin = loading.builtin.get(name);
  if (builtin !== undefined) return { preset: builtin, ruleBases: new Map() };
  const tried: string[] = [`built-in presets (${[...loading.builtin.keys(), "auto"].join(", ")})`];
  for (const candidate of candidatesFor(name, "preset")) {
    const found = locate(candidate, base);
    tried.push(found.tried);
    if (found.file === undefined) continue;
    const module = await importWithin(found.file, candidate, "PRESET_NOT_FOUND", loading.timeoutMs, loading.importer);
    const preset = isObject(module) && isObject(module.default) ? module.default : module;
    const shapeProblems = presetProblems(preset);
    if (!isObject(preset) || shapeProblems.length > 0) {
      throw new ReturnlintError("PRESET_NOT_FOUND", `${candidate} does not export a valid preset: ${shapeProblems.join("; ")}`);
    }
    const parentName = typeof preset.extends === "string" ? preset.extends : undefined;
    const parent = parentName === undefined ? undefined : await resolvePreset(parentName, path.dirname(found.file), [...chain, name], loading);
    const rules = preset.rules as Record<string, RuleEntry>;
    const folder = path.dirname(found.file);
    const ruleBases = new Map(parent?.ruleBases);
    for (const id of Object.keys(rules)) ruleBases.set(id, folder);
    const format = (preset.format ?? parent?.preset.format ?? "v7") as FormatName;
    return { preset: { name, format, rules: { ...parent?.preset.rules, ...rules } }, ruleBases };
  }
  const guess = closest(name, loading.builtin.keys());
  throw new ReturnlintError(
    "PRESET_NOT_FOUND",
    `unknown preset "${name}"${guess === undefined ? "" : ` (did you mean "${guess}"?)`}; looked for ${tried.join(", ")}`,
  );
}

/** What is wrong with a module's export as a preset: `{ rules, format?, extends? }`, with well-formed rule entries. */
function presetProblems(preset: unknown): string[] {
  if (!isObject(preset)) return [`it exports ${jsonType(preset)}, not an object with "rules"`];
  const problems: string[] = [];
  if (!isObject(preset.rules)) problems.push(`"rules" must be an object; received ${preview(preset.rules)}`);
  if (preset.format !== undefined && !FORMATS.includes(preset.format as FormatName)) {
    problems.push(`"format" must be one of ${FORMATS.join(", ")}; received ${preview(preset.format)}`);
  }
  if (preset.extends !== undefined && typeof preset.extends !== "string") problems.push(`"extends" must be a preset name; received ${preview(preset.extends)}`);
  for (const [id, entry] of Object.entries(isObject(preset.rules) ? preset.rules : {})) {
    const [severity, options, ...rest] = Array.isArray(entry) ? (entry as unknown[]) : [entry];
    const badOptions = Array.isArray(entry) && entry.length > 1 && !isObject(options);
    if (!SEVERITIES.includes(severity as Severity) || badOptions || rest.length > 0) {
      problems.push(`rules["${id}"] must be "off", "warn", "error" or [severity, options]; received ${preview(entry)}`);
    }
  }
  return problems;
}

function isFileSpecifier(specifier: string): boolean {
  return specifier.startsWith("./") || specifier.startsWith("../") || path.isAbsolute(specifier);
}

function candidatesFor(id: string, kind: "rule" | "preset"): string[] {
  if (isFileSpecifier(id)) return [id];
  const prefix = `returnlint-${kind}-`;
  if (id.startsWith("@")) {
    const [scope, name = ""] = id.split("/");
    return name.startsWith(prefix) ? [id] : [`${scope ?? ""}/${prefix}${name}`];
  }
  return id.startsWith(prefix) ? [id] : [`${prefix}${id}`];
}

interface Located {
  readonly file?: string;
  /** Where it looked, for the message when nothing is found. */
  readonly tried: string;
}

function locate(specifier: string, base: string): Located {
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
    manifest = JSON.parse(readFileSync(manifestFile, "utf8"));
  } catch (error) {
    throw new ReturnlintError("RULE_NOT_FOUND", `cannot read ${manifestFile} of package "${name}": ${(error as Error).message}`);
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
}

/** Per config, the resolution of each (command, preset, detected format): scan and the API resolve it once, not per return. */
const resolved = new WeakMap<LoadedConfig, Map<string, ResolvedRules>>();

/** The rules, in order, and the format for one return to one command. */
export function rulesFor(loaded: LoadedConfig, input: RulesForInput): ResolvedRules {
  const command: CommandConfig | undefined = input.command === null ? undefined : loaded.config.commands?.[input.command];
  const presetName = input.preset ?? command?.preset ?? loaded.config.preset ?? "auto";
  const detection = presetName === "auto" ? detectFormat(input.value, input.source) : undefined;
  const format = detection?.format;
  const key = `${input.command ?? ""}\0${presetName}\0${format ?? ""}`;
  let cache = resolved.get(loaded);
  if (cache === undefined) {
    cache = new Map();
    resolved.set(loaded, cache);
  }
  let result = cache.get(key);
  if (result === undefined) {
    result = resolveRules(loaded, command, presetName, format);
    cache.set(key, result);
  }
  // Written out, not spread: this runs for every return.
  return detection === undefined ? result : { format: result.format, preset: result.preset, rules: result.rules, detection };
}

function resolveRules(loaded: LoadedConfig, command: CommandConfig | undefined, presetName: string, format: FormatName | undefined): ResolvedRules {
  const preset = format !== undefined ? loaded.builtinPresets.get(format) : loaded.presets.get(presetName);
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
