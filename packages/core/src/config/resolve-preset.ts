/** A preset name from a config → the preset, its `extends` chain flattened: built-in, a file, or a package. */
import path from "node:path";
import { ReturnlintError } from "../errors.js";
import { jsonType, preview } from "../json/render.js";
import { isObject } from "../pointer.js";
import { closest } from "../suggest.js";
import type { FormatName, Severity } from "../types.js";
import type { Importer } from "./import-file.js";
import { candidatesFor, locateModule } from "./locate-module.js";
import { importWithin } from "./modules.js";
import { FORMAT_NAMES } from "../vocabulary.js";
import { SEVERITIES, type Preset, type RuleEntry } from "./schema.js";

export interface ResolvedPreset {
  readonly preset: Preset;
  /** Rule id → the folder of the package preset that named it, for rules that preset depends on. */
  readonly ruleBases: ReadonlyMap<string, string>;
}

/** How presets are found and imported: the host's built-in ones first, then modules. */
export interface PresetLoading {
  readonly timeoutMs: number;
  readonly builtin: ReadonlyMap<string, Preset>;
  readonly importer?: Importer;
}

export async function resolvePreset(name: string, base: string, chain: readonly string[], loading: PresetLoading): Promise<ResolvedPreset> {
  if (chain.includes(name)) {
    throw new ReturnlintError("PRESET_NOT_FOUND", `preset "${name}" extends itself: ${[...chain, name].join(" → ")}`);
  }
  const builtin = loading.builtin.get(name);
  if (builtin !== undefined) return { preset: builtin, ruleBases: new Map() };
  const tried: string[] = [`built-in presets (${[...loading.builtin.keys(), "auto"].join(", ")})`];
  for (const candidate of candidatesFor(name, "preset")) {
    const found = locateModule(candidate, base);
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
  if (preset.format !== undefined && !(FORMAT_NAMES as readonly unknown[]).includes(preset.format)) {
    problems.push(`"format" must be one of ${FORMAT_NAMES.join(", ")}; received ${preview(preset.format)}`);
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
