import { closest, completeMeta, contractPreset, FORMAT_NAMES, presetFor, renderOptionsTable, ReturnlintError, rulesFor, type AnyRule, type ClaimMap, type FormatName, type LoadedConfig, type LoadedRule, type RuleEntry, type Severity } from "@returnlint/core";
import { loadBuiltinRules } from "./registry.js";

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

/** Every rule returnlint can run here: the built-in ones (imported, all of them), then what the config and its presets add. */
export async function catalogue(config: LoadedConfig): Promise<CatalogueEntry[]> {
  const builtins = await loadBuiltinRules();
  const entries = new Map<string, LoadedRule>(builtins);
  for (const [id, loaded] of config.rules) if (!entries.has(id)) entries.set(id, loaded);
  return [...entries].map(([id, loaded]) => ({
    id,
    loaded,
    builtin: builtins.get(id)?.rule === loaded.rule,
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
  const { description, docs } = completeMeta(rule.meta);
  return { description, docs };
}

/** The entry a user means by `name`: the id the config uses, or the rule's own id. */
export function findRule(entries: readonly CatalogueEntry[], name: string): CatalogueEntry | undefined {
  return entries.find((entry) => entry.id === name) ?? entries.find((entry) => entry.loaded.rule.id === name);
}

/** One rule as `returnlint rules --format json` (and the MCP server's `list_rules`) lists it. */
export function ruleListing(entry: CatalogueEntry) {
  const { description, docs } = ruleText(entry.loaded.rule);
  return {
    id: entry.id,
    description,
    docs: docs === "" ? null : docs,
    source: entry.loaded.source,
    builtin: entry.builtin,
    presets: entry.presets,
    ...(entry.configured === undefined ? {} : { config: entry.configured }),
  };
}

/** A built-in rule's README by its package (the entry's `source`), or undefined to describe it from its meta. */
export type ReadmeOf = (entry: CatalogueEntry) => string | undefined | Promise<string | undefined>;

/**
 * A rule's documentation, as `returnlint explain RULE` prints it: a built-in rule's README
 * (as `readmeOf` finds it: the CLI bundles them), or what the rule's meta says. An unknown
 * name is a usage error with a "did you mean".
 */
export async function explainRule(entries: readonly CatalogueEntry[], name: string, readmeOf: ReadmeOf = () => undefined): Promise<string> {
  const entry = findRule(entries, name);
  if (entry === undefined) {
    const guess = closest(name, entries.map((known) => known.id));
    throw new ReturnlintError("USAGE", `Unknown rule "${name}"${guess === undefined ? "" : ` (did you mean "${guess}"?)`}. "returnlint rules" lists the rules.`);
  }
  const documentation = (entry.builtin ? await readmeOf(entry) : undefined) ?? describe(entry);
  return `${documentation}${contractNote(entry)}`;
}

/** Which of the config's contracts turn the rule on, and how loud: a contract stands for a preset of its own (`contract:FILE`). */
function contractNote(entry: CatalogueEntry): string {
  const turnedOn = Object.entries(entry.presets).filter(([name, severity]) => name.startsWith(CONTRACT_PRESET_PREFIX) && severity !== "off");
  if (turnedOn.length === 0) return "";
  const lines = turnedOn.map(([name, severity]) => `- the contract ${name.slice(CONTRACT_PRESET_PREFIX.length)} turns it on (${severity})`);
  return `\n## In this config\n\n${lines.join("\n")}\n`;
}

/** How a contract's preset is named (core's `contractPreset`). */
const CONTRACT_PRESET_PREFIX = contractPreset("") ?? "contract:";

/** What the rule's own meta says, for a rule that comes without a README. */
function describe(entry: CatalogueEntry): string {
  const { rule, source } = entry.loaded;
  const { description, docs } = ruleText(rule);
  const messages = Object.entries(rule.meta.messages).map(([id, message]) => `- \`${id}\`: ${message.text}`);
  return [
    `# ${rule.id}`,
    "",
    description,
    "",
    `From: ${source}`,
    `Docs: ${docs === "" ? "(no docs link in its meta)" : docs}`,
    "",
    "## Options",
    "",
    renderOptionsTable(rule.meta),
    "",
    "## Messages",
    "",
    ...messages,
    "",
  ].join("\n");
}

/** The rules one return to a command runs, in order, with their severity, options and origin. */
export interface RulesRun {
  readonly format: FormatName;
  /** Under a contract: its file and where it says the claims are (what it turns on). */
  readonly contract?: { readonly file: string; readonly claims: ClaimMap };
  readonly rules: Readonly<Record<string, { readonly severity: Severity; readonly options: unknown; readonly source: string }>>;
}

/**
 * What `check --command NAME` would run (`print-config`): the preset (`--preset`, the command's, the
 * config's, else auto) and its rules; with `auto`, the rules of each format, since they depend on
 * each return's.
 */
export async function rulesRun(config: LoadedConfig, command: string | null, preset?: string): Promise<{ readonly preset: string } & (RulesRun | { readonly formats: Readonly<Record<string, RulesRun>> })> {
  const chosen = presetFor(config, command, preset);
  const run = async (name: string | undefined): Promise<RulesRun> => {
    const { format, rules, contract } = await rulesFor(config, { command, value: undefined, ...(name === undefined ? {} : { preset: name }) });
    const run = { format, rules: Object.fromEntries(rules.map(({ rule, severity, options, source }) => [rule.id, { severity, options, source }])) };
    return contract === undefined ? run : { ...run, contract: { file: contract.file, claims: contract.claims } };
  };
  if (chosen !== "auto") return { preset: chosen, ...(await run(preset)) };
  return { preset: chosen, formats: Object.fromEntries(await Promise.all(FORMAT_NAMES.map(async (format) => [format, await run(format)] as const))) };
}
