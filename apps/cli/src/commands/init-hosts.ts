import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { EXIT, isObject, isReturnlintError, ReturnlintError, type LoadedConfig } from "@returnlint/core";
import { parseCommandLine } from "../args.js";
import { loadReturnlintConfig } from "../host.js";
import { writeInside } from "../atomic.js";
import { commandForAgent } from "@returnlint/api";
import type { CommandIo } from "./io.js";

/** The version being built (esbuild's define; build.mjs). */
declare const RETURNLINT_VERSION: string;

export const INIT_HOSTS_HELP = `Usage: returnlint init claude [--vendor] [--mcp] [--dry-run]
       returnlint init opencode [--local] [--dry-run]

Sets up a host to run returnlint on every subagent return. Both change only
what they need, keep everything else in the file, and change nothing when the
host is already set up.

  claude     adds a SubagentStop hook that runs returnlint with node to
             .claude/settings.json (written if missing), next to the hooks
             there: the project's own copy when returnlint is installed in
             node_modules, else .claude/hooks/returnlint.cjs, which init writes:
             returnlint in one file, to commit like any hook script (no
             package.json, no node_modules, no npx). Its matcher lists the agents returnlint checks: those of
             .claude/agents/*.md and of the config's "agents" map whose command
             is known (Claude Code reads a matcher of names and "|" as exact
             names). With no such agent, no matcher: the hook runs for every
             subagent and decides by name.
             --vendor writes and runs .claude/hooks/returnlint.cjs even where
             returnlint is installed; run it again to update the file.
             --mcp also adds the returnlint MCP server, so that a subagent can
             check its own return before it stops: "npx --no-install
             returnlint-mcp" in .mcp.json, and in .claude/settings.local.json
             the server enabled and its tools allowed (docs/mcp.md).
  opencode   adds "@returnlint/opencode" to the "plugin" list of opencode.json
             (written if missing); OpenCode installs it from the npm registry.
             --local writes .opencode/plugins/returnlint.js instead, which loads
             the copy installed in node_modules.

Options:
  --dry-run            print what would change, change nothing
  --vendor             (claude) run the one-file copy in .claude/hooks/
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

/**
 * The project's root in a hook command: Claude Code sets CLAUDE_PROJECT_DIR for its hooks and runs
 * them with `sh -c`; where a version does not set it (anthropics/claude-code#33815), the hook runs
 * in the project's root, which "." then is. Quoted: a root may have spaces in it.
 */
const PROJECT_DIR = '"${CLAUDE_PROJECT_DIR:-.}"';
/** The one-file copy `init claude` writes where returnlint is not installed, or with --vendor. */
export const VENDORED_FILE = [".claude", "hooks", "returnlint.cjs"] as const;
const INSTALLED_BIN = ["node_modules", "returnlint", "dist", "returnlint.cjs"] as const;
/**
 * The hook commands `init claude` writes: `node` and a file, never npm. Starting npx costs a stop
 * ten times what returnlint's own start does (BENCHMARKS.md, Case 7).
 */
export const HOOK_COMMANDS = {
  installed: `node ${PROJECT_DIR}/${INSTALLED_BIN.join("/")} hook claude`,
  vendored: `node ${PROJECT_DIR}/${VENDORED_FILE.join("/")} hook claude`,
} as const;
const HOOK_TIMEOUT_S = 30;
/** Where the loader (src/loader.cjs) names its self-contained copy: the file --vendor writes. */
const SELF_CONTAINED = Symbol.for("returnlint.selfContained");
export const OPENCODE_PLUGIN = "@returnlint/opencode";
const LOCAL_PLUGIN_FILE = path.join(".opencode", "plugins", "returnlint.js");
const LOCAL_PLUGIN_SOURCE = `// Loads @returnlint/opencode from this project's node_modules (written by "returnlint init opencode --local").\nexport { default } from "${OPENCODE_PLUGIN}";\n`;

/** One file to write, and what the change is: "add …", said as "Would add …" or "Added …". */
interface Change {
  readonly file: string;
  readonly content: string;
  readonly verb: "add" | "update" | "write";
  readonly what: string;
  /** A file too long to print whole (the one-file copy): --dry-run names it only. */
  readonly long?: boolean;
}

const PAST = { add: "Added", update: "Updated", write: "Wrote" } as const;

export async function initHost(argv: readonly string[], io: CommandIo): Promise<number> {
  const { values, positionals } = parseCommandLine("init", argv, OPTIONS);
  if (values.help === true) {
    io.stdout(INIT_HOSTS_HELP);
    return EXIT.passed;
  }
  const [host, ...extra] = positionals;
  if (extra.length > 0 || (host !== "claude" && host !== "opencode")) {
    throw new ReturnlintError("USAGE", `returnlint init takes claude or opencode; received "${positionals.join(" ")}".`);
  }
  if (host === "claude" && values.local === true) throw new ReturnlintError("USAGE", "--local is for returnlint init opencode.");
  if (host === "opencode" && values.vendor === true) throw new ReturnlintError("USAGE", "--vendor is for returnlint init claude; returnlint init opencode --local loads the plugin from node_modules.");
  if (host === "opencode" && values.mcp === true) throw new ReturnlintError("USAGE", "--mcp is for returnlint init claude; docs/mcp.md shows OpenCode's \"mcp\" entry.");
  const mcp = values.mcp === true;

  const vendor = host === "claude" && (values.vendor === true || !existsSync(path.join(io.cwd, ...INSTALLED_BIN)));
  const planned =
    host === "claude"
      ? [...(vendor ? [vendoredChange(io.cwd)] : []), await claudeChange(io.cwd, vendor ? HOOK_COMMANDS.vendored : HOOK_COMMANDS.installed), ...(mcp ? [mcpServerChange(io.cwd), mcpSettingsChange(io.cwd)] : [])]
      : [values.local === true ? localPluginChange(io.cwd) : opencodeChange(io.cwd)];
  const changes = planned.filter((change): change is Change => change !== undefined);
  if (changes.length === 0) {
    const done = host === "claude" ? `.claude/settings.json already runs returnlint${mcp ? ", and the MCP server is set up" : ""}` : "OpenCode already loads @returnlint/opencode";
    io.stdout(`${done}; nothing to change.\n`);
    return EXIT.passed;
  }
  if (values["dry-run"] === true) {
    for (const change of changes) {
      const shown = change.long === true ? "\n" : ` ${path.relative(io.cwd, change.file)} would read:\n${change.content}`;
      io.stdout(`Would ${change.verb} ${change.what} (--dry-run: nothing written).${shown}`);
    }
    return EXIT.passed;
  }
  for (const change of changes) writeInside(io.cwd, path.relative(io.cwd, change.file).split(path.sep), change.content);
  const hookNext = vendor
    ? `commit ${VENDORED_FILE.join("/")} with .claude/settings.json: the hook runs it with node, nothing to install`
    : "keep returnlint in the project's devDependencies: the hook runs node_modules/returnlint with node";
  const next =
    host === "claude"
      ? `${hookNext}${mcp ? `; the MCP server needs @returnlint/mcp in node_modules (docs/install.md)` : ""}`
      : values.local === true
        ? `npm install --save-dev ${OPENCODE_PLUGIN}   (docs/install.md: before it is published, its packed tarball)`
        : "nothing: OpenCode installs the plugin from the npm registry when it starts";
  const offer = host === "claude" && !mcp ? 'Also: "returnlint init claude --mcp" adds the MCP server, so that a subagent can check its own return before it stops (docs/mcp.md).\n' : "";
  io.stdout(`${changes.map((change) => `${PAST[change.verb]} ${change.what}.\n`).join("")}Next: ${next}\n${offer}`);
  return EXIT.passed;
}

// Claude Code

interface HookEntry {
  matcher?: unknown;
  hooks?: unknown;
}

/** .claude/hooks/returnlint.cjs: written, or updated when it is another version's; undefined when it is this one. */
function vendoredChange(cwd: string): Change | undefined {
  const copy = (globalThis as Record<symbol, unknown>)[SELF_CONTAINED];
  let content: string;
  try {
    if (typeof copy !== "string") throw new Error("this returnlint was not started by its bin");
    content = readFileSync(copy, "utf8");
  } catch (error) {
    throw new ReturnlintError("USAGE", `Cannot write ${VENDORED_FILE.join("/")}: returnlint's one-file copy cannot be read (${error instanceof Error ? error.message : String(error)}); run returnlint from its package or a copy of that file.`);
  }
  const file = path.join(cwd, ...VENDORED_FILE);
  let existing: string | undefined;
  try {
    existing = readFileSync(file, "utf8");
  } catch {
    existing = undefined;
  }
  if (existing === content) return undefined;
  const what = `${VENDORED_FILE.join("/")}, returnlint ${RETURNLINT_VERSION} in one file`;
  return { file, content, verb: existing === undefined ? "write" : "update", what, long: true };
}

async function claudeChange(cwd: string, command: string): Promise<Change | undefined> {
  const file = path.join(cwd, ".claude", "settings.json");
  const settings = readJsonObject(file) ?? {};
  const hooks = settings.hooks ?? {};
  if (!isObject(hooks)) throw unreadable(file, '"hooks" is not an object');
  const entries = hooks.SubagentStop ?? [];
  if (!Array.isArray(entries)) throw unreadable(file, '"hooks.SubagentStop" is not an array');

  const agents = await checkedAgents(cwd);
  const matcher = matcherFor(agents);
  const ours = (entries as unknown[]).find((entry): entry is HookEntry => isObject(entry) && runsReturnlint(entry.hooks));
  const hook = ours === undefined ? undefined : ourHook(ours.hooks);
  // The options given after `hook claude` stay with the new command.
  const wanted = hook === undefined ? command : `${command}${hook.command.slice(hook.command.lastIndexOf(HOOK_ARGS) + HOOK_ARGS.length)}`;
  if (ours !== undefined && ours.matcher === matcher && hook?.command === wanted) return undefined;

  const where = agents.length === 0 ? "no matcher: every subagent, the name rule decides" : `matcher "${matcher ?? ""}"`;
  let change: Pick<Change, "verb" | "what">;
  if (ours === undefined) {
    const entry = { ...(matcher === undefined ? {} : { matcher }), hooks: [{ type: "command", command, timeout: HOOK_TIMEOUT_S }] };
    hooks.SubagentStop = [...(entries as unknown[]), entry];
    change = { verb: "add", what: `the returnlint SubagentStop hook to .claude/settings.json (${where})` };
  } else {
    const updated = [...(ours.matcher === matcher ? [] : ["matcher"]), ...(hook?.command === wanted ? [] : ["command"])];
    if (matcher === undefined) delete ours.matcher;
    else ours.matcher = matcher;
    if (hook !== undefined) hook.command = wanted;
    change = { verb: "update", what: `the returnlint hook's ${updated.join(" and ")} in .claude/settings.json (${updated.includes("command") ? `"${wanted}"` : where})` };
  }
  settings.hooks = hooks;
  return { file, content: `${JSON.stringify(settings, null, 2)}\n`, ...change };
}

const HOOK_ARGS = " hook claude";

/** The hook of an entry that runs returnlint's Claude Code hook: through npx, a bin or a copy named returnlint.cjs. */
function ourHook(hooks: unknown): { command: string } | undefined {
  if (!Array.isArray(hooks)) return undefined;
  return hooks.find((hook): hook is { command: string } => isObject(hook) && typeof hook.command === "string" && /returnlint(?:\.cjs)?"?\s+hook claude\b/.test(hook.command));
}

function runsReturnlint(hooks: unknown): boolean {
  return ourHook(hooks) !== undefined;
}

/** The agents of .claude/agents/*.md and of the config's agents map that map to a command. */
async function checkedAgents(cwd: string): Promise<string[]> {
  let config: LoadedConfig | undefined;
  try {
    config = await loadReturnlintConfig({ cwd });
  } catch (error) {
    if (!isReturnlintError(error)) throw error;
    throw new ReturnlintError(error.code, `${error.message} Fix it first: init claude reads its "agents" map.`, error.problems);
  }
  const names = new Set([...agentFiles(path.join(cwd, ".claude", "agents")), ...Object.keys(config.config.agents ?? {})]);
  return [...names].filter((name) => commandForAgent(config, name) !== null).sort();
}

function agentFiles(dir: string): string[] {
  let files: string[];
  try {
    files = readdirSync(dir).filter((name) => name.endsWith(".md"));
  } catch {
    return [];
  }
  // The agent's name is its frontmatter's `name:`, else the file's name.
  return files.map((name) => /^---\r?\n(?:[\s\S]*?\r?\n)?name:\s*["']?([^"'\r\n]+?)["']?\s*\r?\n/.exec(readFileSync(path.join(dir, name), "utf8"))?.[1] ?? name.slice(0, -3));
}

/**
 * A matcher Claude Code reads as intended: names of letters, digits, `_` and `-` joined by
 * `|` are compared as exact names; names with other characters (a plugin's `plugin:agent`)
 * need a regular expression, anchored so that it still means exactly these names.
 */
export function matcherFor(agents: readonly string[]): string | undefined {
  if (agents.length === 0) return undefined;
  if (agents.every((name) => /^[\w-]+$/.test(name))) return agents.join("|");
  return `^(${agents.map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})$`;
}

// The MCP server (docs/mcp.md)

export const MCP_SERVER = { command: "npx", args: ["--no-install", "returnlint-mcp"] } as const;
/** Every tool of the server: it only reads. */
const MCP_PERMISSION = "mcp__returnlint";

function mcpServerChange(cwd: string): Change | undefined {
  const file = path.join(cwd, ".mcp.json");
  const existing = readJsonObject(file);
  const json = existing ?? {};
  const servers = json.mcpServers ?? {};
  if (!isObject(servers)) throw unreadable(file, '"mcpServers" is not an object');
  if (servers.returnlint !== undefined) return undefined;
  json.mcpServers = { ...servers, returnlint: MCP_SERVER };
  return { file, content: `${JSON.stringify(json, null, 2)}\n`, verb: "add", what: `the returnlint MCP server to .mcp.json${existing === undefined ? " (a new file)" : ""}` };
}

/** Claude Code takes a project server's approval and its tools' permissions from the user's own local settings. */
function mcpSettingsChange(cwd: string): Change | undefined {
  const file = path.join(cwd, ".claude", "settings.local.json");
  const existing = readJsonObject(file);
  const settings = existing ?? {};
  const enabled = settings.enabledMcpjsonServers ?? [];
  if (!Array.isArray(enabled)) throw unreadable(file, '"enabledMcpjsonServers" is not an array');
  const permissions = settings.permissions ?? {};
  if (!isObject(permissions)) throw unreadable(file, '"permissions" is not an object');
  const allow = permissions.allow ?? [];
  if (!Array.isArray(allow)) throw unreadable(file, '"permissions.allow" is not an array');
  const enable = !enabled.includes("returnlint");
  const permit = !allow.includes(MCP_PERMISSION) && !allow.some((rule) => typeof rule === "string" && rule.startsWith(`${MCP_PERMISSION}__`));
  if (!enable && !permit) return undefined;
  if (enable) settings.enabledMcpjsonServers = [...(enabled as unknown[]), "returnlint"];
  if (permit) settings.permissions = { ...permissions, allow: [...(allow as unknown[]), MCP_PERMISSION] };
  const what = `the returnlint MCP server enabled and its tools ("${MCP_PERMISSION}") allowed`;
  return { file, content: `${JSON.stringify(settings, null, 2)}\n`, ...(existing === undefined ? { verb: "write", what: `.claude/settings.local.json: ${what}` } : { verb: "update", what: `.claude/settings.local.json: ${what}` }) };
}

// OpenCode

function opencodeChange(cwd: string): Change | undefined {
  const existing = ["opencode.json", "opencode.jsonc"].map((name) => path.join(cwd, name)).find((file) => existsSync(file));
  const file = existing ?? path.join(cwd, "opencode.json");
  const config = readJsonObject(file) ?? { $schema: "https://opencode.ai/config.json" };
  const plugins = config.plugin ?? [];
  if (!Array.isArray(plugins)) throw unreadable(file, '"plugin" is not an array');
  const named = (entry: unknown) => entry === OPENCODE_PLUGIN || (Array.isArray(entry) && entry[0] === OPENCODE_PLUGIN) || (typeof entry === "string" && entry.startsWith(`${OPENCODE_PLUGIN}@`));
  if (plugins.some(named)) return undefined;
  config.plugin = [...(plugins as unknown[]), OPENCODE_PLUGIN];
  return { file, content: `${JSON.stringify(config, null, 2)}\n`, verb: "add", what: `"${OPENCODE_PLUGIN}" to the plugins of ${path.basename(file)}${existing === undefined ? " (a new file)" : ""}` };
}

function localPluginChange(cwd: string): Change | undefined {
  const file = path.join(cwd, LOCAL_PLUGIN_FILE);
  if (existsSync(file)) {
    if (readFileSync(file, "utf8") === LOCAL_PLUGIN_SOURCE) return undefined;
    throw new ReturnlintError("USAGE", `${LOCAL_PLUGIN_FILE} exists and is not the one init writes; init changes nothing. Remove it, or make it re-export "${OPENCODE_PLUGIN}" yourself.`);
  }
  return { file, content: LOCAL_PLUGIN_SOURCE, verb: "write", what: `${LOCAL_PLUGIN_FILE}, which loads ${OPENCODE_PLUGIN} from node_modules` };
}

// Files

/** The file's JSON object, undefined when there is no file; a sentence (exit 2) when it is not a JSON object. */
function readJsonObject(file: string): Record<string, unknown> | undefined {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw unreadable(file, String((error as NodeJS.ErrnoException).code ?? error));
  }
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (error) {
    throw unreadable(file, `it is not JSON (${error instanceof Error ? error.message : String(error)})${file.endsWith(".jsonc") ? "; comments cannot be kept, so add the entry by hand" : ""}`);
  }
  if (!isObject(value)) throw unreadable(file, "it is not a JSON object");
  return { ...value };
}

function unreadable(file: string, why: string): ReturnlintError {
  return new ReturnlintError("USAGE", `Cannot update ${file}: ${why}. init changes nothing.`);
}
