import { readStdin, readStdinDescriptor, type ReturnInput } from "@returnlint/api";
import { isTerminal } from "../terminal.js";

/** What a command may touch of the process: passed in, so tests and the API need no globals. */
export interface CommandIo {
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly stdin: NodeJS.ReadStream;
  /** Standard input's descriptor, read synchronously when given (the bin: 0): no stream is made. Without it, commands read `stdin`. */
  readonly stdinFd?: number;
  readonly color: boolean;
  /** Whether standard error is a terminal: progress lines are drawn only there. */
  readonly stderrIsTTY?: boolean;
  stdout(text: string): void;
  /** Standard output for bytes a command encoded itself (scan's large outputs), written before it returns (the bytes are the caller's again); without it, commands write text. */
  readonly stdoutBytes?: (bytes: Uint8Array) => void;
  stderr(text: string): void;
}

/** The return on standard input: from its descriptor when the process gave one, else from the stream (tests, hosts that pass one). */
export async function readStdinOf(io: CommandIo): Promise<ReturnInput> {
  return io.stdinFd === undefined ? readStdin(io.stdin) : readStdinDescriptor(io.stdinFd, isTerminal(io.stdinFd));
}
