import { fileURLToPath } from "node:url";
import { RULE_WORKER } from "@returnlint/core";

// Custom rules run in a thread of their own: this bundle's copy of core's rule thread sits in chunks/.
(globalThis as Record<symbol, unknown>)[RULE_WORKER] ??= fileURLToPath(new URL("./chunks/rule-worker.cjs", import.meta.url));

export { validate, loadReturnlintConfig, type ConfigOptions, type ValidateOptions, type ValidationReport } from "@returnlint/api";
export { BUILTIN_RULES, loadBuiltinRules } from "@returnlint/api";
export { describeRule, lint, lintFile, lintSource, lintTask, lintText, listRules, type LintedReturn, type LintOptions, type LintResult } from "@returnlint/api";
export { gitSource, openInsideRoot, openReturnFile, openTaskSource, textSource, type ReturnSource } from "@returnlint/api";
export { commandOfReturn, type ArtifactFact, type ReturnFacts } from "@returnlint/api";
export { checkReturn, commandForAgent, problemLines, returnOfMessage, type CheckedReturn, type Problem } from "@returnlint/api";
export { ReturnlintError, defineRule, type Report, type Result, type ReturnOrigin, type Rule } from "@returnlint/core";
