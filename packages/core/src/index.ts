export type * from "./types.js";
export { defineRule } from "./define-rule.js";
export { EXIT, ReturnlintError, exitCodeOf, isReturnlintError, type ErrorCode, type ExitCode } from "./errors.js";
export { fillTemplate, MAX_QUOTED_CHARS, placeholders, quoted } from "./messages.js";
export { escapeToken, isObject, pointerFromPath, pointerOf, tokensOf, valueAt, valueAtTokens } from "./pointer.js";
export { jsonText, jsonType, preview } from "./json/render.js";
export { parseReturn } from "./json.js";
export { decodeUtf8, stripBom } from "./json/utf8.js";
export { findDuplicateKeys } from "./json/duplicate-keys.js";
export { locateJsonError } from "./json/syntax-error.js";
export { offsetOfPointer } from "./json/locate.js";
export { JsonTokenizer, stringValue, type JsonToken } from "./json/tokenizer.js";
export { lineAndColumn } from "./text-position.js";
export { extractReturn, type ExtractedReturn, type ReturnOrigin } from "./extract.js";
export { closest, editDistance } from "./suggest.js";
export { ABSENT_FATES, MAX_ARTIFACT_PATHS, archivedPath, artifactPath, fateOf, judgedPaths, type ArtifactFate, type FateName, type JudgedPaths } from "./artifact-fate.js";
export { FORMAT_CLAIMS, claimedValues, claimsOf, type ClaimedValue, type ClaimMap, type ClaimedArtifact, type Claims, type SuccessClaim } from "./claims.js";
export { CLAIM_KEYWORD, CLAIM_KINDS, SUCCESS_KEYWORD, claimMapOf, placeOf, shownValue, violationOf, withoutAnnotations, type ClaimKind, type Contract, type ContractView, type ContractViolation } from "./contract.js";
export { readTranscript, writtenFiles, WRITE_TOOL_NAMES, WRITE_TOOLS, type Transcript, type TranscriptWrite } from "./transcript.js";
export {
  CLAIMS_TRANSCRIPT_BYTES,
  claimsFacts,
  hostOf,
  MAX_TRANSCRIPT_BYTES_OPTION,
  lastOutputLine,
  OUTPUT_TAIL_CHARS,
  readRunFacts,
  runFactsFor,
  testRunOf,
  TRANSCRIPT_HOSTS,
  type CommandFact,
  type NoFacts,
  type ReadFactsOptions,
  type RunFacts,
  type SubagentFact,
  type TestRunFact,
  type TranscriptHost,
  type WriteFact,
} from "./transcript/index.js";
export {
  ARCHIVE_DIR,
  COMMAND_SUCCESS,
  CONTRACT_FORMAT,
  CONTEXTUAL_SUCCESS,
  FORMAT_NAMES,
  HANDOFF_FILE,
  IN_PROGRESS,
  LEGACY_STATUSES,
  METADATA_FILE,
  NON_SUCCESS_STATUSES,
  REQUIRED_FIELD_TYPES,
  RETURN_FILE_MENTION,
  RETURN_FILE_NAMES,
  SPECS_DIR,
  SUCCESS_WORDS,
  commandInName,
  commandOfStatus,
  detectFormat,
  type Detection,
  formatOfFileName,
  isSuccessLike,
  successInWord,
  successStatuses,
  taskNamedIn,
  taskOfFolder,
  taskOfPath,
} from "./vocabulary.js";
export { createFileView, relativeInside, type FileViewOptions, type ListingFileView } from "./files.js";
export { FILE_PROBLEM_REASON } from "./file-problems.js";
export { receivedValue } from "./received.js";
export { GitObjectCache, GitTree, createGitFileView, lexicalProblem, type GitFileView, type GitFileViewOptions, type GitObjectFacts, type GitTreeEntry } from "./git-files.js";
export { gitEnvironment, openGitObjects, type GitObjectContent, type GitObjectInfo, type GitObjectReader, type GitObjectsOptions } from "./git-objects.js";
export { FileRefusedError, SafeDir, UnsafePathError, codeOf, kindOf, readPath, readPrefix, judgeRegularFile, readRegularFile, sameFile, uniqueSuffix, type FileRead, type Identity, type RefusalKind, type UnsafeKind } from "./safe-fs.js";
export { mapOrdered } from "./map-ordered.js";
export { RULE_WORKER, RULE_MEMORY_MB } from "./isolation.js";
export { nativeImport, type Importer } from "./config/import-file.js";
export { DEFAULT_RULE_TIMEOUT_MS, MAX_DATA_ENTRIES, MAX_LISTED_PER_RETURN, MAX_LISTED_PER_RULE, RESULTS_OMITTED, agentName, claimedAgent, claimsOfReturn, runRules, runRulesEagerly, subagentName, type ConfiguredRule, type RunInput } from "./runner.js";
export { completeMeta, DEFAULT_MODULE_TIMEOUT_MS } from "./config/modules.js";
export { importFile } from "./config/import-file.js";
export { CONFIG_FILES, MAX_CONFIG_BYTES, findConfig, readConfig, type RawConfig } from "./config/load.js";
export { loadConfig, type LoadOptions, type LoadedConfig } from "./config/resolve.js";
export { cacheFolder } from "./config/cache.js";
export { compileContract, contractCacheDir, loadContract, MAX_CONTRACT_BYTES } from "./config/contract-load.js";
export { builtinRule, importBuiltinRules, resolveRule, type BuiltinRule, type LoadedRule } from "./config/resolve-rule.js";
export { contractPreset, presetFor, rulesFor, type RulesForInput, type ResolvedRules } from "./config/rules-for.js";
export type { PrecompiledValidators, SchemaValidator } from "./config/validators.js";
export { configSchema, editorSchema, SEVERITIES, type CommandConfig, type Config, type Preset, type RuleEntry } from "./config/schema.js";
export { docsUrl, OPTIONS_END, OPTIONS_START, renderOptionsTable, withOptionsTable } from "./docs.js";
