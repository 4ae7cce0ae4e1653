// @returnlint/api: the library returnlint's CLI, the OpenCode plugin, the scripts and the bench
// are built on. The `returnlint` package re-exports its public part (validate, loadReturnlintConfig,
// the hook's checkReturn, …); the rest is what the CLI itself needs from the same layer.
export { validate, loadReturnlintConfig, type ConfigOptions, type Importer, type ValidateOptions, type ValidationReport } from "./validate.js";
export { BUILTIN_PRESETS, BUILTIN_RULES, loadBuiltinRules } from "./registry.js";
export { agentDefinition, asksForReturn, BUILT_IN_AGENTS, checkReturn, commandForAgent, MAX_DEFINITION_BYTES, owesReturn, problemLines, problemReaskLines, returnOfMessage, type CheckedReturn, type Problem, type SubagentRun } from "./subagent.js";
export { reask, reaskLine, reaskLines } from "./reask.js";
export { blockReason, problemsDigest, type BlockReader } from "./block-reason.js";
export { DEFAULT_MAX_BLOCKS, retryDecision, type AllowedBecause, type NotValidated, type RetryDecision, type RetryRecord } from "./retries.js";
export { createReturnGate, type GateVerdict, type ReturnGate, type ReturnGateOptions, type SubagentReturn } from "./gate.js";
export { exitCodeOfReport, failing, passed, problems, subject, warningsFail, warningsVerdict } from "./verdict.js";
export type { Formatter, FormatterInput, FormatterRun, RuleInfo } from "./formatter-types.js";
export { MetadataFile, openTask, openTaskReturn, parseTaskList, taskFolder, taskTypeFromState, type MissingReturn } from "./tasks.js";
export { MAX_INPUT_BYTES, maxInputBytes, readReturnFile, readStdin, readStdinDescriptor, tooLarge, type ReturnInput } from "./input.js";
export { environmentError, isSystemError, systemReason } from "./environment.js";
export { catalogue, explainRule, findRule, ruleListing, rulesRun, ruleText, type CatalogueEntry, type Configured, type ReadmeOf, type RulesRun } from "./catalogue.js";
export { knownCommand } from "./commands.js";
export { returnSchema, type ReturnSchemaOptions } from "./return-schema.js";
export { formatterContext } from "./context.js";
export { reportObject, type ReportObject } from "./report-object.js";
export { describeRule, formatterInput, lint, lintFile, lintSource, lintTask, lintText, listRules, type LintedReturn, type LintOptions, type LintResult, type LintReturnOptions } from "./lint.js";
export { gitSource, openInsideRoot, openNamedTask, openReturnFile, openTaskSource, openWalkedFile, textSource, type FileSource, type GitSource, type MissingSource, type ReturnSource, type TextSource } from "./source.js";
export { claimedPaths, commandOfReturn, factsOf, type ArtifactFact, type ReturnFacts } from "./facts.js";
