export { validate, loadReturnlintConfig, type ConfigOptions, type ValidateOptions, type ValidationReport } from "./api.js";
export { BUILTIN_RULES } from "./registry.js";
export { checkReturn, commandForAgent, locateReturn, problemLines, type CheckedReturn, type Located, type Problem } from "./hook/subagent.js";
export { ReturnlintError, defineRule, type Report, type Result, type ReturnOrigin, type Rule } from "@returnlint/core";
