export { validate, loadReturnlintConfig, type ConfigOptions, type ValidateOptions, type ValidationReport } from "./api.js";
export { BUILTIN_RULES } from "./registry.js";
export { ReturnlintError, defineRule, type Report, type Result, type Rule } from "@returnlint/core";
