import { isObject, jsonText, type Result } from "@returnlint/core";
import { jsonArray } from "./json.js";
import type { Formatter, FormatterInput } from "@returnlint/api";
import { failing, passed, warningsVerdict } from "@returnlint/api";

interface ErrorEntry {
  readonly type: "validation";
  readonly message: string;
  readonly recoverable: true;
  readonly recommendation: string;
}

function errorEntry(result: Result): ErrorEntry {
  const details = (result.detail ?? "")
    .split("\n")
    .map((line) => line.replace(/^Error: /, ""))
    .filter((line) => line !== "");
  return {
    type: "validation",
    message: [result.message, ...details].join("; "),
    recoverable: true,
    recommendation: result.recommendation ?? `Fix the return (rule ${result.ruleId}) and validate it again`,
  };
}

function failureSummary(input: FormatterInput, problems: readonly Result[]): string {
  const first = problems.find((result) => result.level === "fail");
  if (first !== undefined) return first.message;
  return warningsVerdict(input);
}

/**
 * The Error Response Format of the teams' orchestration validation document, for the
 * orchestrator to relay: on a failure `status: "failed"`, the first failure as the
 * summary, no artifacts, and one `errors[]` entry per problem; on a pass, the
 * validated return's own status, summary, artifacts and errors. Several returns:
 * one JSON array of responses, one per line, in the order of the tasks.
 */
export const response: Formatter = (inputs, { several }) =>
  several ? jsonArray(inputs.map(responseOf)) : inputs.map((input) => `${responseOf(input)}\n`).join("");

function responseOf(input: FormatterInput): string {
  if (!passed(input)) {
    const problems = failing(input);
    return JSON.stringify({
      status: "failed",
      summary: `Validation failed: ${failureSummary(input, problems)}`,
      artifacts: [],
      errors: problems.map(errorEntry),
    });
  }
  const value = isObject(input.value) ? input.value : {};
  const status = input.report.status ?? "";
  // The return's own errors and artifacts, however deeply they nest.
  return jsonText({
    status,
    summary: typeof value.summary === "string" ? value.summary : `Validation passed: status ${status}`,
    artifacts: Array.isArray(value.artifacts) ? value.artifacts : [],
    ...(Array.isArray(value.errors) ? { errors: value.errors } : {}),
  });
}
