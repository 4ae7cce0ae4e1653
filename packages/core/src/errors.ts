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
  | "RETURN_NOT_FOUND"
  | "LOG_UNUSABLE"
  /** The metadata file changed between its check and its deletion (--consume): it was kept. */
  | "RETURN_CHANGED"
  /** The machine refused: permissions, a read-only or full disk, a closed descriptor, a lock that cannot be taken. */
  | "ENVIRONMENT"
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

/** The exit codes of every command (README.md, "`returnlint check`"): the contract scripts and hooks rely on. */
export const EXIT = {
  /** The return passed (warnings allowed unless over --max-warnings). */
  passed: 0,
  /** The return failed validation. */
  failed: 1,
  /** Usage, configuration or internal error. */
  error: 2,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/**
 * The exit code of every failure, in one place: a return the agent never wrote
 * is a failed return; everything else is usage, configuration or internal.
 */
export function exitCodeOf(error: unknown): typeof EXIT.failed | typeof EXIT.error {
  return isReturnlintError(error) && error.code === "RETURN_NOT_FOUND" ? EXIT.failed : EXIT.error;
}

export function isReturnlintError(error: unknown): error is ReturnlintError {
  return error instanceof ReturnlintError;
}
