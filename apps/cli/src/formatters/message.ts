import type { Result } from "@returnlint/core";

/** A result's message as the CI formats write it: the finding, its detail, its recommendation. */
export function messageText(result: Pick<Result, "message" | "detail" | "recommendation">): string {
  return [result.message, result.detail, result.recommendation === undefined ? undefined : `Recommendation: ${result.recommendation}`]
    .filter((line) => line !== undefined)
    .join("\n");
}
