import { parseArgs } from "node:util";
import { maxInputBytes } from "@returnlint/api";
import { createServer, screenRequest } from "./server.js";
import { LineTransport } from "./transport.js";
import { VERSION } from "./version.js";

export const HELP = `Usage: returnlint-mcp [options]

The returnlint MCP server, on standard input and output (stdio transport), so that a
subagent can check its own return before it returns. Tools:

  validate_return   {text | path, command?, sessionId?, task?, agent?, transcript?}: the report of
                    returnlint check --format json, and the lines to fix as text
  check_task        {task, command?, sessionId?, transcript?}: specs/{N}_{SLUG}/.return-meta.json
  list_rules        every rule, as returnlint rules --format json lists them
  explain_rule      {rule}: a rule's documentation, as returnlint explain prints it

The project root is the current directory, or the first root the client sends.
The config is found once, as returnlint check finds it, and read again when its
file changes. The server only reads, and only inside the root (a transcript also
inside a host's folder of transcripts: ~/.claude/projects, Codex's sessions,
Copilot CLI's session-state).

Options:
  -c, --config FILE    use FILE instead of looking for returnlint.config.* upwards
  -h, --help           show this help
  -v, --version        print the version

Exit codes: 0 when the client closes the connection, 2 usage error.
`;

/** Room in a request for what is not the return: the JSON-RPC envelope and the other arguments. */
const ENVELOPE_BYTES = 64 * 1024;

/** Runs the server until the client closes standard input; resolves with the exit code. */
export async function main(argv: readonly string[], io: { stdout(text: string): void; stderr(text: string): void } = defaultIo): Promise<number> {
  let values: { config?: string; help?: boolean; version?: boolean };
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: { config: { type: "string", short: "c" }, help: { type: "boolean", short: "h" }, version: { type: "boolean", short: "v" } },
      allowPositionals: false,
      strict: true,
    }));
  } catch (error) {
    io.stderr(`returnlint-mcp: ${error instanceof Error ? error.message : String(error)}. Run "returnlint-mcp --help".\n`);
    return 2;
  }
  if (values.help === true) {
    io.stdout(HELP);
    return 0;
  }
  if (values.version === true) {
    io.stdout(`${VERSION}\n`);
    return 0;
  }
  let maxLineBytes: number;
  try {
    // A return of the largest size allowed fits in one request even with every character escaped twice over.
    maxLineBytes = 2 * maxInputBytes() + ENVELOPE_BYTES;
  } catch (error) {
    io.stderr(`returnlint-mcp: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
  const log = (line: string) => {
    io.stderr(`returnlint-mcp: ${line}\n`);
  };
  const server = createServer({ ...(values.config === undefined ? {} : { configFile: values.config }), log });
  const transport = new LineTransport({ input: process.stdin, output: process.stdout, maxLineBytes, screen: screenRequest, log });
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
  });
  await server.connect(transport);
  await closed;
  await server.close();
  return 0;
}

const defaultIo = {
  stdout: (text: string) => process.stdout.write(text),
  stderr: (text: string) => process.stderr.write(text),
};
