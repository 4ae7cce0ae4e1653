import { EXIT, closest, exitCodeOf, isReturnlintError } from "@returnlint/core";
import type { CommandIo } from "./commands/io.js";
import { isSystemError, systemReason } from "@returnlint/api";

declare const RETURNLINT_VERSION: string;

export const MAIN_HELP = `Usage: returnlint <command> [options]

Lint what your AI subagents return, so that "completed" means the work exists.

Commands:
  check [FILE | -]     validate one return (a console JSON return or a .return-meta.json)
  scan [DIR]           validate every .return-meta.json below DIR (default: specs/)
  audit [REPO]         validate every committed version of every .return-meta.json in
                       a repository's history: phantom work per agent and month
  audit merge FILE...  one report of many repositories' audits (--format ndjson files)
  hook HOST            a host's subagent-stop hook (claude, codex, copilot, cursor,
                       gemini): block a stop whose return fails
  init                 write a commented returnlint.config.yaml for your format
  init HOST            set up a host's hook (claude, codex, copilot, cursor, gemini)
                       or the OpenCode plugin (opencode)
  doctor               will each host's hook really run? what to check when
                       nothing happens
  mcp                  the MCP server (from @returnlint/mcp): a subagent checks its own return
  rules                list every rule, its severity in each preset and its docs
  explain RULE         print a rule's documentation
  print-config         print the rules, severities and options a command runs (JSON)
  schema               print the JSON Schema a command's returns follow: its contract, or
                       its preset's, for a host's structured output

Options:
  -h, --help           show this help; "returnlint <command> --help" shows a command's
  -v, --version        print the version

Exit codes: 0 pass, 1 the return failed validation, 2 usage, configuration or internal error.
Docs: https://github.com/returnlint/returnlint#readme
`;

type Command = (argv: readonly string[], io: CommandIo) => Promise<number>;

/** Commands load on use: a check never pays for the others. */
const COMMANDS: Readonly<Record<string, () => Promise<Command>>> = {
  audit: async () => (await import("./commands/audit.js")).audit,
  check: async () => (await import("./commands/check.js")).check,
  doctor: async () => (await import("./commands/doctor.js")).doctor,
  explain: async () => (await import("./commands/explain.js")).explain,
  hook: async () => (await import("./commands/hook.js")).hook,
  init: async () => (await import("./commands/init.js")).init,
  mcp: async () => (await import("./commands/mcp.js")).mcp,
  "print-config": async () => (await import("./commands/print-config.js")).printConfig,
  rules: async () => (await import("./commands/rules.js")).rules,
  scan: async () => (await import("./commands/scan.js")).scan,
  schema: async () => (await import("./commands/schema.js")).schema,
};

/** Runs one invocation and returns its exit code. Never throws. */
export async function main(argv: readonly string[], io: CommandIo): Promise<number> {
  const [name, ...rest] = argv;
  try {
    if (name === undefined || name === "-h" || name === "--help" || name === "help") {
      io.stdout(MAIN_HELP);
      return name === undefined ? EXIT.error : EXIT.passed;
    }
    if (name === "-v" || name === "--version") {
      io.stdout(`${RETURNLINT_VERSION}\n`);
      return EXIT.passed;
    }
    const load = COMMANDS[name];
    if (load === undefined) {
      const guess = closest(name, Object.keys(COMMANDS));
      const hint = guess === undefined ? "" : ` (did you mean "${guess}"?)`;
      io.stderr(`returnlint: unknown command "${name}"${hint}. Run "returnlint --help" for the commands.\n`);
      return EXIT.error;
    }
    return await (await load())(rest, io);
  } catch (error) {
    io.stderr(describeError(error, io.env.RETURNLINT_DEBUG !== undefined));
    return exitCodeOf(error);
  }
}

/** A sentence for people, never a stack trace (unless RETURNLINT_DEBUG asks for it). */
export function describeError(error: unknown, debug: boolean): string {
  if (isReturnlintError(error)) {
    const problems = error.problems.map((problem) => `  - ${problem}\n`).join("");
    return `returnlint: ${error.message}\n${problems}`;
  }
  const stack = debug && error instanceof Error && error.stack !== undefined ? `\n${error.stack}` : "";
  if (isSystemError(error)) {
    // Permissions, a full or read-only disk, a closed descriptor: the machine's answer, not a bug.
    const { syscall, path } = error as NodeJS.ErrnoException;
    const where = [syscall, path].filter((part) => part !== undefined).join(" ");
    return `returnlint: the system refused${where === "" ? "" : ` (${where})`}: ${systemReason(error)}. This is a problem with the environment (permissions, disk space, a closed descriptor), not with the return.${stack}\n`;
  }
  const message = error instanceof Error ? error.message : String(error);
  return `returnlint: internal error: ${message}. Please report it with the command you ran (RETURNLINT_DEBUG=1 shows details).${stack}\n`;
}
