import { configFileOption, integerOption, parseCommandLine } from "../args.js";
import { hostImporter } from "../host.js";
import { isTerminal } from "../terminal.js";
import { EXIT, isReturnlintError, ReturnlintError } from "@returnlint/core";
import { claude, describeFailure, giveWay, HOSTS, hostNamed, runStopHook, type HostAdapter } from "@returnlint/hooks";
import { readStdinOf, type CommandIo } from "./io.js";
import { returnlintVersion } from "../version.js";

export const HOOK_HELP = `Usage: returnlint hook HOST [options]

A subagent-stop command hook. Reads the hook's JSON payload on standard input,
finds the subagent's return (its last message, or the
specs/N_*/.return-meta.json it names), and checks it.

Hosts:
  claude      Claude Code: a SubagentStop or Stop hook
  codex       Codex: a SubagentStop hook in .codex/hooks.json (the same
              answers; Codex's own default, worker and explorer agents are
              left alone)
  copilot     GitHub Copilot CLI: a subagentStop hook (its agentStop is left
              alone); a stop it lets through exits 2, which Copilot CLI shows
              as a hook warning; --fail-closed holds with a block
  cursor      Cursor: a subagentStop hook (.cursor/hooks.json); a failing
              return is sent back as {"followup_message":…}; a pass, or a
              stop let through, prints {} (Cursor shows no message from a
              stop hook: why it was let through is on standard error)
  gemini      Gemini CLI: an AfterTool hook of invoke_agent; a block
              replaces what the parent agent receives with the reason

  pass        prints nothing: the subagent stops
  fail        prints {"decision":"block","reason":…}: the subagent is sent
              back with the list of problems, e.g. an artifact that does not
              exist

It lets the stop through when another stop hook is already holding the agent
(stop_hook_active), after --max-blocks blocks, or when the same problems would
be sent twice; it then says so ({"systemMessage":…}) and records the failure.
Every checked return leaves a verdict in .returnlint/verdicts/ (task-N.json
when the return is a task's metadata file, else AGENT_TYPE--AGENT_ID.json, for
a Stop hook AGENT--SESSION_ID.json): a record. The subagent can write there
too: gate a postflight on "returnlint check --task N", not on a verdict file.

A misconfigured hook (an unknown option or --command, a broken config) or a
broken payload never blocks unless --fail-closed: the hook exits 0 and says
what is wrong to the user ({"systemMessage":…} on standard output, the same
sentence on standard error); a broken configuration's verdict says
"config-error". A return it could not check (a rule crashed, the return may
not be read safely) goes the same way, its verdict "internal-error" and not
ok. Run by hand at a terminal, a usage mistake exits 2.

Options:
  --agent NAME         the agent's name when the payload has none (a Stop hook)
  --command NAME       the command whose rules apply: research, plan, revise,
                       implement, or one the config lists under "commands"
                       (default: the config's "agents" map, else one of those
                       four in the agent's name)
  -c, --config FILE    use FILE instead of looking for returnlint.config.*
                       from the payload's cwd
  --max-blocks N       block at most N times per subagent (default 3)
  --fail-closed        exit 2 on a broken payload or configuration (the host
                       then keeps the agent working and shows it the error);
                       bounded like blocks: once per problem, at most
                       --max-blocks times
  -h, --help           show this help

Agents that map to no command, and the hosts' own agents (Plan, Explore,
general-purpose, …) unless the config's "agents" map names them, are not
checked, whatever --command says.
`;

const OPTIONS = {
  agent: { type: "string" },
  command: { type: "string" },
  config: { type: "string", short: "c" },
  "max-blocks": { type: "string" },
  "fail-closed": { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

export async function hook(argv: readonly string[], io: CommandIo): Promise<number> {
  // Decided before anything can fail: a broken hook must not block the host by accident.
  const failClosed = argv.includes("--fail-closed");
  const interactive = runByHand(io);
  try {
    return await runHook(argv, io, interactive);
  } catch (error) {
    // Someone trying the hook at a terminal gets a usage mistake as every command gives it: exit 2.
    if (interactive && isReturnlintError(error) && error.code === "USAGE") throw error;
    // Said the way the host named on the command line shows it (Claude Code's when none is known).
    const host = argv.map((arg) => hostNamed(arg)).find((found) => found !== undefined) ?? claude;
    const out = {
      host,
      stdout: (text: string) => {
        io.stdout(text);
      },
      stderr: (text: string) => {
        io.stderr(text);
      },
    };
    return giveWay(out, failClosed, describeFailure(error));
  }
}

/**
 * Whether a person runs the hook, rather than a host: Claude Code and Codex pipe the payload in and
 * read both outputs, so a terminal on standard input or standard error means someone typed it.
 */
function runByHand(io: CommandIo): boolean {
  return stdinIsTerminal(io) || io.stderrIsTTY === true;
}

function stdinIsTerminal(io: CommandIo): boolean {
  return io.stdinFd === undefined ? io.stdin.isTTY : isTerminal(io.stdinFd);
}

async function runHook(argv: readonly string[], io: CommandIo, interactive: boolean): Promise<number> {
  const { values, positionals } = parseCommandLine("hook", argv, OPTIONS);
  if (values.help === true) {
    io.stdout(HOOK_HELP);
    return EXIT.passed;
  }
  const failClosed = values["fail-closed"] === true;
  const [name, ...extra] = positionals;
  const host: HostAdapter | undefined = name === undefined ? undefined : hostNamed(name);
  if (host === undefined || extra.length > 0) {
    throw new ReturnlintError("USAGE", `usage: returnlint hook HOST [options], HOST one of ${[...HOSTS.keys()].join(", ")}; received "${positionals.join(" ")}". Run "returnlint hook --help".`);
  }
  const maxBlocks = integerOption("max-blocks", values["max-blocks"]);
  const configFile = configFileOption(io.cwd, values.config);
  if (stdinIsTerminal(io)) {
    throw new ReturnlintError("USAGE", `returnlint hook ${host.name} reads the hook's JSON payload on standard input; pipe one in to try it (the payload ${host.title} sends its hook).`);
  }
  return await runStopHook(host, {
    payloadText: (await readStdinOf(io)).text,
    cwd: io.cwd,
    agent: values.agent,
    command: values.command,
    configFile,
    maxBlocks,
    failClosed,
    interactive,
    importer: hostImporter(),
    env: io.env,
    version: returnlintVersion(),
    stdout: (text) => {
      io.stdout(text);
    },
    stderr: (text) => {
      io.stderr(text);
    },
  });
}
