import type { AnyRule, LoadedConfig, LoadedRule, RuleEntry, RuleMeta, Severity } from "@returnlint/core";
import { BUILTIN_RULES } from "@returnlint/api";

/** What the config file itself says about a rule: its severity under `rules`, and under each command that names it. */
export interface Configured {
  readonly rules?: Severity;
  readonly commands: Readonly<Record<string, Severity>>;
}

/** One rule as `returnlint rules` and `returnlint explain` show it. */
export interface CatalogueEntry {
  /** The id a config uses for it: the rule's own id, or the path or package the config names. */
  readonly id: string;
  readonly loaded: LoadedRule;
  readonly builtin: boolean;
  /** Its severity in each preset the config knows (the built-in three first): off when the preset does not name it. */
  readonly presets: Readonly<Record<string, Severity>>;
  /** What the config file says about it; undefined when there is no config file. */
  readonly configured?: Configured;
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
    ...(config.file === null ? {} : { configured: configuredOf(config, id) }),
  }));
}

function configuredOf(config: LoadedConfig, id: string): Configured {
  const top = config.config.rules?.[id];
  const commands: Record<string, Severity> = {};
  for (const [name, command] of Object.entries(config.config.commands ?? {})) {
    const entry = command.rules?.[id];
    if (entry !== undefined) commands[name] = severityOf(entry);
  }
  return { ...(top === undefined ? {} : { rules: severityOf(top) }), commands };
}

function severityOf(entry: RuleEntry | undefined): Severity {
  if (entry === undefined) return "off";
  return typeof entry === "string" ? entry : entry[0];
}

/**
 * A rule's description and docs link as people read them. A custom rule is someone
 * else's code: one without `meta.description` or `meta.docs` still gets a line, never "undefined".
 */
export function ruleText(rule: AnyRule): { readonly description: string; readonly docs: string } {
  const meta = rule.meta as Partial<RuleMeta<unknown>>;
  return {
    description: typeof meta.description === "string" && meta.description.trim() !== "" ? meta.description : "(no description in its meta)",
    docs: typeof meta.docs === "string" ? meta.docs : "",
  };
}

/** The entry a user means by `name`: the id the config uses, or the rule's own id. */
export function findRule(entries: readonly CatalogueEntry[], name: string): CatalogueEntry | undefined {
  return entries.find((entry) => entry.id === name) ?? entries.find((entry) => entry.loaded.rule.id === name);
}
