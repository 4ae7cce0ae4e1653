/** What a command may touch of the process: passed in, so tests and the API need no globals. */
export interface CommandIo {
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly stdin: NodeJS.ReadStream;
  readonly color: boolean;
  /** Whether standard error is a terminal: progress lines are drawn only there. */
  readonly stderrIsTTY?: boolean;
  stdout(text: string): void;
  stderr(text: string): void;
}
