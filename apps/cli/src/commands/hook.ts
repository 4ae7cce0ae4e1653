import { integerOption, parseCommandLine } from "../args.js";
import { hostImporter } from "../host.js";
import { EXIT } from "@returnlint/core";
import { describeFailure, giveWay, runClaudeHook } from "@returnlint/claude-code";
import { readStdinOf, type CommandIo } from "./io.js";

export const HOOK_HELP = `Usage: returnlint hook claude [options]

A Claude Code SubagentStop or Stop command hook (Codex sends the same payload).
Reads the hook's JSON payload on standard input, finds the subagent's return
(its last message, or the specs/N_*/.return-meta.json it names), and validates it.

  pass        prints nothing: the subagent stops
  fail        prints {"decision":"block","reason":…}: the subagent is sent back
              with the list of problems, e.g. the artifact that does not exist

It lets the stop through when another stop hook is already holding the agent
(stop_hook_active), after --max-blocks blocks, or when the same problems would
be sent twice; the failure is then recorded in the verdict file.
Every validated return leaves a verdict in .returnlint/verdicts/ (task-N.json
when the return is a task's metadata file, else AGENT_TYPE--AGENT_ID.json, for
a Stop hook AGENT--SESSION_ID.json) for the orchestrator's postflight to gate on.
A broken payload or configuration never blocks unless --fail-closed: it is
reported on standard error, the hook exits 0, and a broken configuration's
verdict says "config-error".

Options:
  --agent NAME         the agent's name when the payload has none (a Stop hook)
  --command NAME       the command whose rules apply (default: the config's
                       "agents" map, else research/plan/revise/implement in the name)
  --config FILE        use FILE instead of looking for returnlint.config.* from cwd
  --max-blocks N       block at most N times per subagent (default 3)
  --fail-closed        exit 2 on a broken payload or configuration (the host then
                       keeps the agent working and shows it the error); bounded
                       like blocks: once per problem, at most --max-blocks times
  -h, --help           show this help

Agents that map to no command, and the hosts' own agents (Plan, Explore,
general-purpose, …) unless the config's "agents" map names them, are not checked.
`;

const OPTIONS = {
  agent: { type: "string" },
  command: { type: "string", short: "c" },
  config: { type: "string" },
  "max-blocks": { type: "string" },
  "fail-closed": { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

const HOSTS = ["claude"];

export async function hook(argv: readonly string[], io: CommandIo): Promise<number> {
  // Decided before anything can fail: a broken hook must not block the host by accident.
  const failClosed = argv.includes("--fail-closed");
  try {
    return await runHook(argv, io);
  } catch (error) {
    return giveWay(io, failClosed, describeFailure(error));
  }
}

async function runHook(argv: readonly string[], io: CommandIo): Promise<number> {
  const { values, positionals } = parseCommandLine("hook", argv, OPTIONS);
  if (values.help === true) {
    io.stdout(HOOK_HELP);
    return EXIT.passed;
  }
  const failClosed = values["fail-closed"] === true;
  const [host, ...extra] = positionals;
  if (host === undefined || !HOSTS.includes(host) || extra.length > 0) {
    return giveWay(io, failClosed, `usage: returnlint hook claude [options]; received "${positionals.join(" ")}". Run "returnlint hook --help".`);
  }
  const maxBlocks = integerOption("max-blocks", values["max-blocks"]);
  return await runClaudeHook({
    payloadText: (await readStdinOf(io)).text,
    cwd: io.cwd,
    agent: values.agent,
    command: values.command,
    configFile: values.config,
    maxBlocks,
    failClosed,
    importer: hostImporter(),
    stdout: (text) => {
      io.stdout(text);
    },
    stderr: (text) => {
      io.stderr(text);
    },
  });
}
