import type { LoadedConfig, LoadedRule, RuleEntry, Severity } from "@returnlint/core";
import { BUILTIN_RULES } from "./registry.js";

/** One rule as `returnlint rules` and `returnlint explain` show it. */
export interface CatalogueEntry {
  /** The id a config uses for it: the rule's own id, or the path or package the config names. */
  readonly id: string;
  readonly loaded: LoadedRule;
  readonly builtin: boolean;
  /** Its severity in each preset the config knows (the built-in three first): off when the preset does not name it. */
  readonly presets: Readonly<Record<string, Severity>>;
}

/** Every rule returnlint can run here: the built-in ones, then what the config and its presets add. */
export function catalogue(config: LoadedConfig): CatalogueEntry[] {
  const entries = new Map<string, LoadedRule>(BUILTIN_RULES);
  for (const [id, loaded] of config.rules) if (!entries.has(id)) entries.set(id, loaded);
  return [...entries].map(([id, loaded]) => ({
    id,
    loaded,
    builtin: BUILTIN_RULES.get(id)?.rule === loaded.rule,
    presets: Object.fromEntries([...config.presets].map(([name, preset]) => [name, severityOf(preset.rules[id])])),
  }));
}

function severityOf(entry: RuleEntry | undefined): Severity {
  if (entry === undefined) return "off";
  return typeof entry === "string" ? entry : entry[0];
}

/** The entry a user means by `name`: the id the config uses, or the rule's own id. */
export function findRule(entries: readonly CatalogueEntry[], name: string): CatalogueEntry | undefined {
  return entries.find((entry) => entry.id === name) ?? entries.find((entry) => entry.loaded.rule.id === name);
}
