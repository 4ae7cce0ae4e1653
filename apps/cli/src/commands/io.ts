/** What a command may touch of the process: passed in, so tests and the API need no globals. */
export interface CommandIo {
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly stdin: NodeJS.ReadStream;
  readonly color: boolean;
  stdout(text: string): void;
  stderr(text: string): void;
}
