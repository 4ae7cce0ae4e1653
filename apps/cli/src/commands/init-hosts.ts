import path from "node:path";
import { EXIT, ReturnlintError } from "@returnlint/core";
import { parseCommandLine } from "../args.js";
import { writeInside } from "../atomic.js";
import type { CommandIo } from "./io.js";
import { claudeSetup } from "./init-claude.js";
import { codexSetup } from "./init-codex.js";
import { copilotSetup } from "./init-copilot.js";
import { cursorSetup } from "./init-cursor.js";
import { geminiSetup } from "./init-gemini.js";
import { opencodeSetup } from "./init-opencode.js";
import type { Change, HostFlags, HostSetup } from "./init-settings.js";

export const INIT_HOSTS_HELP = `Usage: returnlint init claude [--vendor] [--mcp] [--dry-run]
       returnlint init codex [--vendor] [--dry-run]
       returnlint init copilot [--vendor] [--dry-run]
       returnlint init cursor [--vendor] [--dry-run]
       returnlint init gemini [--vendor] [--dry-run]
       returnlint init opencode [--local] [--dry-run]

Sets up a host to run returnlint on every subagent return. Each changes only
what it needs, keeps everything else in the file, and changes nothing when the
host is already set up.

  claude     adds a SubagentStop hook that runs returnlint with node to
             .claude/settings.json (written if missing), next to the hooks
             there: the project's own copy when returnlint is installed in
             node_modules, else .claude/hooks/returnlint.cjs, which init writes
             with returnlint.pack beside it: the vendored copy, to commit like
             any hook script (no package.json, no node_modules, no npx). Its
             matcher lists the agents returnlint checks: those of
             .claude/agents/*.md and of the config's "agents" map whose command
             is known (Claude Code reads a matcher of names and "|" as exact
             names). With no such agent, no matcher: the hook runs for every
             subagent and decides by name.
             --vendor writes and runs .claude/hooks/returnlint.cjs even where
             returnlint is installed; run it again to update the copy.
             --mcp also adds the returnlint MCP server, so that a subagent can
             check its own return before it stops: "npx --no-install
             returnlint-mcp" in .mcp.json, and in .claude/settings.local.json
             the server enabled and its tools allowed (docs/mcp.md).
  codex      adds a SubagentStop hook that runs returnlint with node to
             .codex/hooks.json (written if missing), after the hooks there:
             node_modules' copy when returnlint is installed, else
             .codex/hooks/returnlint.cjs, which init writes (--vendor: always).
             Its matcher lists the agents returnlint checks: those of
             .codex/agents/*.toml, of the [agents.NAME] tables of
             .codex/config.toml and of the config's "agents" map. Codex runs
             the hook only once you trust it in /hooks (init says how; it
             never trusts it for you); "returnlint doctor --host codex"
             checks the setup.
  copilot    adds a subagentStop hook that runs returnlint with node to
             .github/hooks/returnlint.json (written if missing), next to the
             hooks there: node_modules' copy, else .github/hooks/returnlint.cjs,
             which init writes (--vendor: always). No matcher: Copilot CLI runs
             the hook for every subagent, and the name rule decides. Nothing is
             added where .claude/settings.json's SubagentStop hook runs
             returnlint already (Copilot CLI runs it too). It says how to trust
             the folder: Copilot CLI skips an untrusted folder's hooks.
  cursor     adds a subagentStop hook that runs returnlint with node to
             .cursor/hooks.json (written if missing), next to the hooks there:
             node_modules' copy, else .cursor/hooks/returnlint.cjs, which init
             writes (--vendor: always that copy). Its matcher, a regular
             expression anchored to exact names, lists the agents returnlint
             checks (.cursor/agents/*.md and the config's "agents" map); its
             loop_limit lets Cursor deliver 10 follow-ups, more than the
             hook's --max-blocks.
  gemini     adds an AfterTool hook with the matcher "invoke_agent" (the
             parent's call of a subagent) to .gemini/settings.json, run with
             node from node_modules or, where returnlint is not installed or
             with --vendor, from .gemini/hooks/returnlint.cjs, which init
             writes. It says what init never does for you: trusting the
             folder and acknowledging the agents of .gemini/agents/, without
             which Gemini CLI runs no hook and loads no project agent.
  opencode   adds "@returnlint/opencode" to the "plugin" list of opencode.json
             (written if missing); OpenCode installs it from the npm registry.
             --local writes .opencode/plugins/returnlint.js instead, which loads
             the copy installed in node_modules.

Options:
  --dry-run            print what would change, change nothing
  --vendor             (claude, codex, copilot, cursor, gemini) run the vendored
                       copy (returnlint.cjs and returnlint.pack) in the host's
                       hooks folder (.claude/hooks/, .codex/hooks/,
                       .github/hooks/, .cursor/hooks/, .gemini/hooks/)
  --mcp                (claude) add the MCP server too
  --local              (opencode) load the plugin from node_modules
  -h, --help           show this help

The MCP server (--mcp) and the OpenCode plugin run from packages installed in
the project: @returnlint/mcp, @returnlint/opencode (docs/install.md says which
install lines work before they are published). Exit codes: 0 done or nothing to
do, 2 a file that cannot be read as JSON, or usage error.
`;

const OPTIONS = {
  "dry-run": { type: "boolean" },
  local: { type: "boolean" },
  mcp: { type: "boolean" },
  vendor: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

const PAST = { add: "Added", update: "Updated", write: "Wrote" } as const;

/** The hosts `returnlint init` sets up, by name. */
const SETUPS: Readonly<Record<string, HostSetup>> = { claude: claudeSetup, codex: codexSetup, copilot: copilotSetup, cursor: cursorSetup, gemini: geminiSetup, opencode: opencodeSetup };

const FLAG_HINTS: Readonly<Record<keyof HostFlags, string>> = {
  vendor: "--vendor is for returnlint init claude, codex, copilot, cursor and gemini",
  mcp: `--mcp is for returnlint init claude; docs/mcp.md shows OpenCode's "mcp" entry`,
  local: "--local is for returnlint init opencode",
};

export async function initHost(argv: readonly string[], io: CommandIo): Promise<number> {
  const { values, positionals } = parseCommandLine("init", argv, OPTIONS);
  if (values.help === true) {
    io.stdout(INIT_HOSTS_HELP);
    return EXIT.passed;
  }
  const [host, ...extra] = positionals;
  const setup = host === undefined || !Object.hasOwn(SETUPS, host) ? undefined : SETUPS[host];
  if (extra.length > 0 || setup === undefined) {
    throw new ReturnlintError("USAGE", `returnlint init takes ${orList(Object.keys(SETUPS))}; received "${positionals.join(" ")}".`);
  }
  const flags: HostFlags = { vendor: values.vendor === true, mcp: values.mcp === true, local: values.local === true };
  for (const flag of Object.keys(flags) as (keyof HostFlags)[]) {
    if (flags[flag] && setup.flags[flag] !== true) throw new ReturnlintError("USAGE", `${FLAG_HINTS[flag]}.`);
  }
  const plan = await setup.plan(io.cwd, flags, (line) => {
    io.stderr(`returnlint: ${line}\n`);
  });
  const changes = plan.changes.filter((change): change is Change => change !== undefined);
  const reminder = plan.reminder === undefined ? "" : `${plan.reminder}\n`;
  if (changes.length === 0) {
    io.stdout(`${plan.done}; nothing to change.\n${reminder}`);
    return EXIT.passed;
  }
  if (values["dry-run"] === true) {
    for (const change of changes) {
      const shown = change.long === true || typeof change.content !== "string" ? "\n" : ` ${path.relative(io.cwd, change.file)} would read:\n${change.content}`;
      io.stdout(`Would ${change.verb} ${change.what} (--dry-run: nothing written).${shown}`);
    }
    return EXIT.passed;
  }
  for (const change of changes) writeInside(change.root, change.names, change.content);
  io.stdout(`${changes.map((change) => `${PAST[change.verb]} ${change.what}.\n`).join("")}Next: ${plan.next}\n${reminder}${plan.offer ?? ""}`);
  return EXIT.passed;
}

function orList(items: readonly string[]): string {
  return items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")} or ${items[items.length - 1] ?? ""}`;
}
