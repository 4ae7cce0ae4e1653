import { builtinRule, importBuiltinRules, type BuiltinRule, type ClaimMap, type LoadedRule, type Preset, type RuleEntry } from "@returnlint/core";
import handoffPreset from "@returnlint/preset-handoff";
import metadataFilePreset from "@returnlint/preset-metadata-file";
import multiTaskPreset from "@returnlint/preset-multi-task";
import strictPreset from "@returnlint/preset-strict";
import v5Preset from "@returnlint/preset-v5";
import v7Preset from "@returnlint/preset-v7";

/**
 * Every rule that ships with returnlint, by id, in the order the teams' validation documents check them (README, "What it checks"). Each is
 * imported when a return first needs it (`load()`): a check imports the rules its preset runs.
 * `loadBuiltinRules` imports them all.
 */
export const BUILTIN_RULES: ReadonlyMap<string, BuiltinRule> = new Map(
  [
    builtinRule("json-structure", () => import("@returnlint/rule-json-structure")),
    builtinRule("required-fields", () => import("@returnlint/rule-required-fields")),
    builtinRule("status-enum", () => import("@returnlint/rule-status-enum")),
    builtinRule("session-id", () => import("@returnlint/rule-session-id")),
    builtinRule("delegation", () => import("@returnlint/rule-delegation")),
    builtinRule("artifacts", () => import("@returnlint/rule-artifacts")),
    builtinRule("artifact-evidence", () => import("@returnlint/rule-artifact-evidence")),
    builtinRule("artifact-content", () => import("@returnlint/rule-artifact-content")),
    builtinRule("completion-data", () => import("@returnlint/rule-completion-data")),
    builtinRule("error-details", () => import("@returnlint/rule-error-details")),
    builtinRule("early-metadata", () => import("@returnlint/rule-early-metadata")),
    builtinRule("summary-length", () => import("@returnlint/rule-summary-length")),
    builtinRule("file-claims", () => import("@returnlint/rule-file-claims")),
    builtinRule("memory-candidates", () => import("@returnlint/rule-memory-candidates")),
    builtinRule("user-review", () => import("@returnlint/rule-user-review")),
    builtinRule("postflight-marker", () => import("@returnlint/rule-postflight-marker")),
    builtinRule("handoff", () => import("@returnlint/rule-handoff")),
    builtinRule("multi-task", () => import("@returnlint/rule-multi-task")),
    builtinRule("contract", () => import("@returnlint/rule-contract")),
    builtinRule("command-claims", () => import("@returnlint/rule-command-claims")),
    builtinRule("test-claims", () => import("@returnlint/rule-test-claims")),
    builtinRule("write-claims", () => import("@returnlint/rule-write-claims")),
    builtinRule("subagent-claims", () => import("@returnlint/rule-subagent-claims")),
  ].map((rule) => [rule.id, rule]),
);

/**
 * Every preset that ships with returnlint, by name. A format's preset has the format's name (v5, v7,
 * metadata-file, handoff, multi-task): `auto` picks it. `strict` is asked for by name.
 */
export const BUILTIN_PRESETS: ReadonlyMap<string, Preset> = new Map([v5Preset, v7Preset, metadataFilePreset, handoffPreset, multiTaskPreset, strictPreset].map((preset) => [preset.name, preset]));

/** Every built-in rule, imported (for what lists or documents them all: `returnlint rules`, the config schema). */
export function loadBuiltinRules(): Promise<ReadonlyMap<string, LoadedRule>> {
  return importBuiltinRules(BUILTIN_RULES);
}

/**
 * The rules a contract turns on, from what it claims: the return parses (json-structure), follows
 * the schema (contract), the files it claims are there (artifacts) and its session is the one
 * delegated (session-id). Evidence and content are the config's to turn on, as under a preset.
 */
export function contractRules(claims: ClaimMap): Readonly<Record<string, RuleEntry>> {
  return {
    "json-structure": "error",
    contract: "error",
    ...(claims.artifacts.length === 0 ? {} : { artifacts: "error" }),
    ...(claims.sessionId === undefined ? {} : { "session-id": "error" }),
  };
}
