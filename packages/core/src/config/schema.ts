import type { AnyRule, FormatName, JsonSchema, Severity } from "../types.js";
import { FORMAT_NAMES } from "../vocabulary.js";

export type RuleEntry = Severity | readonly [Severity] | readonly [Severity, Record<string, unknown>];

export interface CommandConfig {
  readonly preset?: string;
  /** A JSON Schema file (draft 2020-12) the command's returns follow, its claims annotated (contract.ts): instead of a preset. */
  readonly contract?: string;
  readonly rules?: Readonly<Record<string, RuleEntry>>;
}

export interface FormatConfig {
  readonly rules?: Readonly<Record<string, RuleEntry>>;
}

/** The shape of `returnlint.config.*` (README.md, "Configuration"). */
export interface Config {
  readonly $schema?: string;
  readonly preset?: string;
  /** The contract of every command not listed under commands: instead of a preset. */
  readonly contract?: string;
  readonly rules?: Readonly<Record<string, RuleEntry>>;
  readonly commands?: Readonly<Record<string, CommandConfig>>;
  /** Per return format: rules over its preset, for the returns in that format only (a handoff's options, off for console returns). */
  readonly formats?: Readonly<Partial<Record<FormatName, FormatConfig>>>;
  /** Subagent name (`agent_type`) → the command its returns answer, for hosts that name the agent, not the command. */
  readonly agents?: Readonly<Record<string, string>>;
}

/** A preset: data only. `extends` names another preset whose rules come first. */
export interface Preset {
  readonly name: string;
  readonly format: FormatName;
  readonly description?: string;
  readonly extends?: string;
  readonly rules: Readonly<Record<string, RuleEntry>>;
}

export const SEVERITIES: readonly Severity[] = ["off", "warn", "error"];

const severity = { enum: SEVERITIES, description: "off, warn or error" };

const ruleEntry = {
  description: "A severity, or [severity, options].",
  oneOf: [
    severity,
    { type: "array", prefixItems: [severity], minItems: 1, maxItems: 1 },
    { type: "array", prefixItems: [severity, { type: "object" }], minItems: 2, maxItems: 2 },
  ],
};

const rules = {
  type: "object",
  description: "Rule id (built-in, package or ./file.mjs) → severity or [severity, options].",
  propertyNames: { minLength: 1 },
  additionalProperties: ruleEntry,
};

const preset = {
  type: "string",
  minLength: 1,
  description: "v5, v7, metadata-file, handoff, multi-task, strict, auto, or a returnlint-preset-* package.",
};

const contract = {
  type: "string",
  minLength: 1,
  description: "A JSON Schema file (draft 2020-12, relative to the config) that the returns follow, its claims marked with x-returnlint annotations: instead of a preset (docs/contracts.md).",
};

/** Published as `@returnlint/core/config.schema.json` so editors can complete configs. */
export const configSchema: JsonSchema = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  $id: "https://returnlint.dev/config.schema.json",
  title: "returnlint configuration",
  type: "object",
  additionalProperties: false,
  properties: {
    $schema: { type: "string" },
    preset: { ...preset, description: "The preset of every command not listed under commands (default: auto)." },
    contract: { ...contract, description: `${contract.description} For every command not listed under commands.` },
    rules: { ...rules, description: "Rules applied to every command, after its preset." },
    commands: {
      type: "object",
      description: "Per orchestrator command (research, plan, revise, implement, …).",
      additionalProperties: {
        type: "object",
        additionalProperties: false,
        properties: { preset, contract, rules },
      },
    },
    formats: {
      type: "object",
      description: "Per return format (v5, v7, metadata-file, handoff, multi-task): rules applied to the returns in that format only, after the top-level rules.",
      additionalProperties: { type: "object", additionalProperties: false, properties: { rules } },
    },
    agents: {
      type: "object",
      description: "Subagent name (the hook payload's agent_type) → the command its returns answer, e.g. lean-research-agent → research.",
      propertyNames: { minLength: 1 },
      additionalProperties: { type: "string", minLength: 1 },
    },
  },
};

/** The commands whose contextual success status returnlint knows: editors offer them under `commands`. */
const KNOWN_COMMANDS = ["research", "plan", "revise", "implement"] as const;

/**
 * The schema published for editors (`@returnlint/core/config.schema.json`): the config's shape,
 * plus every built-in rule by id, with its description, docs link and its own options schema,
 * the built-in presets and the orchestrator's commands, so that an editor completes rule ids, option
 * names and values. Options are merged over the rule's defaults, so none is required here.
 * Rules are listed by id, so that the document does not depend on the order they are given in.
 * Custom rules (packages, ./files) stay allowed as any other key. `pnpm docs:schema` writes it;
 * a repository test fails when the published file is stale.
 */
export function editorSchema(builtins: Iterable<AnyRule>): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const rule of [...builtins].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
    // Options merge over the defaults, so none is required in a config; an embedded schema keeps no $schema or $id of its own.
    const options = Object.fromEntries(Object.entries(rule.meta.schema).filter(([key]) => !["required", "$schema", "$id"].includes(key)));
    properties[rule.id] = {
      description: `${rule.meta.description} ${rule.meta.docs}`,
      oneOf: [
        severity,
        { type: "array", prefixItems: [severity], minItems: 1, maxItems: 1 },
        { type: "array", prefixItems: [severity, options], minItems: 2, maxItems: 2 },
      ],
    };
  }
  const presetName = {
    ...preset,
    anyOf: [{ enum: [...FORMAT_NAMES, "auto"] }, { type: "string", minLength: 1 }],
  };
  const command = { $ref: "#/$defs/command" };
  const base = configSchema.properties as Record<string, JsonSchema>;
  return {
    ...configSchema,
    properties: {
      ...base,
      preset: { ...presetName, description: "The preset of every command not listed under commands (default: auto)." },
      rules: { $ref: "#/$defs/rules", description: "Rules applied to every command, after its preset." },
      commands: {
        ...base.commands,
        properties: Object.fromEntries(KNOWN_COMMANDS.map((name) => [name, command])),
        additionalProperties: command,
      },
      formats: {
        ...base.formats,
        properties: Object.fromEntries(FORMAT_NAMES.map((name) => [name, { $ref: "#/$defs/format" }])),
        additionalProperties: false,
      },
    },
    $defs: {
      rules: { ...rules, properties },
      command: { type: "object", additionalProperties: false, properties: { preset: presetName, contract, rules: { $ref: "#/$defs/rules" } } },
      format: { type: "object", additionalProperties: false, properties: { rules: { $ref: "#/$defs/rules" } } },
    },
  };
}
