/** Every failure that is not a verdict on the return: usage, configuration, I/O, a crashed rule. */
export type ErrorCode =
  | "USAGE"
  | "CONFIG_NOT_FOUND"
  | "CONFIG_UNREADABLE"
  | "CONFIG_INVALID"
  | "PRESET_NOT_FOUND"
  | "RULE_NOT_FOUND"
  | "INPUT_UNREADABLE"
  | "INPUT_TOO_LARGE"
  | "INTERNAL";

export class ReturnlintError extends Error {
  override readonly name = "ReturnlintError";
  readonly code: ErrorCode;
  /** Further lines (one problem each), printed under the message. */
  readonly problems: readonly string[];

  constructor(code: ErrorCode, message: string, problems: readonly string[] = []) {
    super(message);
    this.code = code;
    this.problems = problems;
  }
}

export function isReturnlintError(error: unknown): error is ReturnlintError {
  return error instanceof ReturnlintError;
}
