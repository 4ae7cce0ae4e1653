export type * from "./types.js";
export { defineRule } from "./define-rule.js";
export { ReturnlintError, exitCodeOf, isReturnlintError, type ErrorCode } from "./errors.js";
export { fillTemplate, MAX_QUOTED_CHARS, placeholders, quoted } from "./messages.js";
export { escapeToken, isObject, jsonText, jsonType, pointerFromPath, pointerOf, preview, tokensOf, valueAt } from "./pointer.js";
export { decodeUtf8, findDuplicateKeys, lineAndColumn, locateJsonError, parseReturn, stripBom } from "./json.js";
export { extractReturn, type ExtractedReturn, type ReturnOrigin } from "./extract.js";
export { closest, editDistance } from "./suggest.js";
export {
  COMMAND_SUCCESS,
  CONTEXTUAL_SUCCESS,
  IN_PROGRESS,
  LEGACY_STATUSES,
  NON_SUCCESS_STATUSES,
  SUCCESS_WORDS,
  detectFormat,
  formatOfFileName,
  type Detection,
  isSuccessLike,
  successStatuses,
} from "./vocabulary.js";
export { createFileView, relativeInside, type FileViewOptions } from "./files.js";
export { GitObjectCache, GitTree, createGitFileView, lexicalProblem, type GitFileView, type GitFileViewOptions, type GitObjectFacts, type GitTreeEntry } from "./git-files.js";
export { gitEnvironment, openGitObjects, type GitObjectContent, type GitObjectInfo, type GitObjectReader, type GitObjectsOptions } from "./git-objects.js";
export { SafeDir, UnsafePathError, codeOf, readPrefix, sameFile, uniqueSuffix, type Identity, type UnsafeKind } from "./safe-fs.js";
export { RULE_WORKER, RULE_MEMORY_MB } from "./isolation.js";
export { nativeImport, type Importer } from "./config/import-file.js";
export { DEFAULT_RULE_TIMEOUT_MS, agentName, runRules, runRulesEagerly, type ConfiguredRule, type RunInput } from "./runner.js";
export { completeMeta, DEFAULT_MODULE_TIMEOUT_MS } from "./config/modules.js";
export { importFile } from "./config/import-file.js";
export { CONFIG_FILES, findConfig, readConfig, type RawConfig } from "./config/load.js";
export {
  loadConfig,
  resolveRule,
  rulesFor,
  type LoadOptions,
  type LoadedConfig,
  type LoadedRule,
  type RulesForInput,
  type ResolvedRules,
} from "./config/resolve.js";
export type { PrecompiledValidators, SchemaValidator } from "./config/validators.js";
export { configSchema, editorSchema, SEVERITIES, type CommandConfig, type Config, type Preset, type RuleEntry } from "./config/schema.js";
export { docsUrl, OPTIONS_END, OPTIONS_START, renderOptionsTable, withOptionsTable } from "./docs.js";
