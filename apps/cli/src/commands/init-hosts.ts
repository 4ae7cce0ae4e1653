import { existsSync, lstatSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import path from "node:path";
import { codeOf, EXIT, FileRefusedError, isObject, isReturnlintError, readRegularFile, ReturnlintError, type LoadedConfig } from "@returnlint/core";
import { parseCommandLine } from "../args.js";
import { loadReturnlintConfig } from "../host.js";
import { writeInside } from "../atomic.js";
import { commandForAgent } from "@returnlint/api";
import type { CommandIo } from "./io.js";
import { DuplicateKeyError, JsonText, type JsonNode, type JsonObjectNode } from "./init-json.js";

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
  /** The file as the user knows it (below the project's root). */
  readonly file: string;
  /** Where it is written: `root/<names…>`, a symlink's target when the file is one (inside the project). */
  readonly root: string;
  readonly names: readonly string[];
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
      ? [
          ...(vendor ? [vendoredChange(io.cwd)] : []),
          await claudeChange(io.cwd, vendor ? HOOK_COMMANDS.vendored : HOOK_COMMANDS.installed, (line) => {
            io.stderr(`returnlint: ${line}\n`);
          }),
          ...(mcp ? [mcpServerChange(io.cwd), mcpSettingsChange(io.cwd)] : []),
        ]
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
  for (const change of changes) writeInside(change.root, change.names, change.content);
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
  // Anything but a regular file by that name (a FIFO, a link to a device) is not a copy: it is replaced, never read.
  const existing = readIfRegular(file, MAX_VENDORED_BYTES);
  if (existing === content) return undefined;
  const what = `${VENDORED_FILE.join("/")}, returnlint ${RETURNLINT_VERSION} in one file`;
  return { file, root: cwd, names: VENDORED_FILE, content, verb: existing === undefined && !existsSync(file) ? "write" : "update", what, long: true };
}

async function claudeChange(cwd: string, command: string, warn: (line: string) => void): Promise<Change | undefined> {
  const settings = openSettings(cwd, [".claude", "settings.json"]);
  const agents = await checkedAgents(cwd, warn);
  const matcher = matcherFor(agents);
  const where = agents.length === 0 ? "no matcher: every subagent, the name rule decides" : `matcher "${matcher ?? ""}"`;
  const entry = { ...(matcher === undefined ? {} : { matcher }), hooks: [{ type: "command", command, timeout: HOOK_TIMEOUT_S }] };
  const added = { verb: "add", what: `the returnlint SubagentStop hook to .claude/settings.json (${where})` } as const;
  return edited(settings, { hooks: { SubagentStop: [entry] } }, added, (json, root) => {
    const hooks = containerAt(settings, root, "hooks", "object");
    if (hooks === undefined) {
      put(json, root, "hooks", { SubagentStop: [entry] });
      return added;
    }
    const entries = containerAt(settings, hooks, "SubagentStop", "array", "hooks.SubagentStop");
    if (entries === undefined) {
      put(json, hooks, "SubagentStop", [entry]);
      return added;
    }
    const ours = entries.elements.find((element): element is JsonObjectNode => element.kind === "object" && runsReturnlint((json.value(element) as HookEntry).hooks));
    if (ours === undefined) {
      json.append(entries, entry);
      return added;
    }
    const current = json.value(ours) as HookEntry;
    const hook = ourHook(current.hooks);
    // The options given after `hook claude` stay with the new command.
    const wanted = hook === undefined ? command : `${command}${hook.command.slice(hook.command.lastIndexOf(HOOK_ARGS) + HOOK_ARGS.length)}`;
    const updated = [...(current.matcher === matcher ? [] : ["matcher"]), ...(hook?.command === wanted ? [] : ["command"])];
    if (updated.length === 0) return undefined;
    if (current.matcher !== matcher) {
      const member = json.member(ours, "matcher");
      if (matcher === undefined) {
        if (member !== undefined) json.removeMember(ours, member);
      } else if (member === undefined) json.addFirstMember(ours, "matcher", matcher);
      else json.replace(member.value, matcher);
    }
    if (hook !== undefined && hook.command !== wanted) {
      const hookList = json.member(ours, "hooks")?.value;
      const index = Array.isArray(current.hooks) ? current.hooks.indexOf(hook) : -1;
      const hookNode = hookList?.kind === "array" ? hookList.elements[index] : undefined;
      const commandNode = hookNode?.kind === "object" ? json.member(hookNode, "command")?.value : undefined;
      if (commandNode !== undefined) json.replace(commandNode, wanted);
    }
    return { verb: "update", what: `the returnlint hook's ${updated.join(" and ")} in .claude/settings.json (${updated.includes("command") ? `"${wanted}"` : where})` };
  });
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
async function checkedAgents(cwd: string, warn: (line: string) => void): Promise<string[]> {
  let config: LoadedConfig | undefined;
  try {
    config = await loadReturnlintConfig({ cwd });
  } catch (error) {
    if (!isReturnlintError(error)) throw error;
    throw new ReturnlintError(error.code, `${error.message} Fix it first: init claude reads its "agents" map.`, error.problems);
  }
  const names = new Set([...agentFiles(path.join(cwd, ".claude", "agents"), warn), ...Object.keys(config.config.agents ?? {})]);
  return [...names].filter((name) => commandForAgent(config, name) !== null).sort();
}

/** An agent definition is a page of instructions; a larger file is not read. */
const MAX_DEFINITION_BYTES = 1024 * 1024;

/**
 * The agents defined in `dir`. A definition that is no regular file (a FIFO, a link to
 * /dev/zero) or is too large is skipped, and said: it is never opened for reading.
 */
function agentFiles(dir: string, warn: (line: string) => void): string[] {
  let files: string[];
  try {
    files = readdirSync(dir).filter((name) => name.endsWith(".md"));
  } catch {
    return [];
  }
  return files.flatMap((name) => {
    let text: string;
    try {
      text = readRegularFile(path.join(dir, name), { maxBytes: MAX_DEFINITION_BYTES }).bytes.toString("utf8");
    } catch (error) {
      if (!(error instanceof FileRefusedError)) throw error;
      warn(`skipped the agent definition ${path.join(".claude", "agents", name)}: ${error.reason}.`);
      return [];
    }
    // The agent's name is its frontmatter's `name:`, else the file's name.
    return [/^---\r?\n(?:[\s\S]*?\r?\n)?name:\s*["']?([^"'\r\n]+?)["']?\s*\r?\n/.exec(text)?.[1] ?? name.slice(0, -3)];
  });
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
  const settings = openSettings(cwd, [".mcp.json"]);
  const change = { verb: "add", what: `the returnlint MCP server to .mcp.json${settings.json === undefined ? " (a new file)" : ""}` } as const;
  return edited(settings, { mcpServers: { returnlint: MCP_SERVER } }, change, (json, root) => {
    const servers = containerAt(settings, root, "mcpServers", "object");
    if (servers === undefined) put(json, root, "mcpServers", { returnlint: MCP_SERVER });
    else if (json.member(servers, "returnlint") !== undefined) return undefined;
    else json.addMember(servers, "returnlint", MCP_SERVER);
    return change;
  });
}

/** Claude Code takes a project server's approval and its tools' permissions from the user's own local settings. */
function mcpSettingsChange(cwd: string): Change | undefined {
  const settings = openSettings(cwd, [".claude", "settings.local.json"]);
  const what = `.claude/settings.local.json: the returnlint MCP server enabled and its tools ("${MCP_PERMISSION}") allowed`;
  const fresh = { enabledMcpjsonServers: ["returnlint"], permissions: { allow: [MCP_PERMISSION] } };
  return edited(settings, fresh, { verb: "write", what }, (json, root) => {
    const enabled = containerAt(settings, root, "enabledMcpjsonServers", "array");
    const permissions = containerAt(settings, root, "permissions", "object");
    const allow = permissions === undefined ? undefined : containerAt(settings, permissions, "allow", "array", "permissions.allow");
    const enable = !(enabled === undefined ? [] : (json.value(enabled) as unknown[])).includes("returnlint");
    const allowed = allow === undefined ? [] : (json.value(allow) as unknown[]);
    const permit = !allowed.includes(MCP_PERMISSION) && !allowed.some((rule) => typeof rule === "string" && rule.startsWith(`${MCP_PERMISSION}__`));
    if (!enable && !permit) return undefined;
    if (enable) {
      if (enabled === undefined) put(json, root, "enabledMcpjsonServers", ["returnlint"]);
      else json.append(enabled, "returnlint");
    }
    if (permit) {
      if (permissions === undefined) put(json, root, "permissions", { allow: [MCP_PERMISSION] });
      else if (allow === undefined) put(json, permissions, "allow", [MCP_PERMISSION]);
      else json.append(allow, MCP_PERMISSION);
    }
    return { verb: "update", what };
  });
}

// OpenCode

function opencodeChange(cwd: string): Change | undefined {
  const name = ["opencode.json", "opencode.jsonc"].find((candidate) => lstatOrUndefined(path.join(cwd, candidate)) !== undefined) ?? "opencode.json";
  const settings = openSettings(cwd, [name]);
  const change = { verb: "add", what: `"${OPENCODE_PLUGIN}" to the plugins of ${name}${settings.json === undefined ? " (a new file)" : ""}` } as const;
  return edited(settings, { $schema: "https://opencode.ai/config.json", plugin: [OPENCODE_PLUGIN] }, change, (json, root) => {
    const plugins = containerAt(settings, root, "plugin", "array");
    if (plugins === undefined) {
      put(json, root, "plugin", [OPENCODE_PLUGIN]);
      return change;
    }
    const named = (entry: unknown) => entry === OPENCODE_PLUGIN || (Array.isArray(entry) && entry[0] === OPENCODE_PLUGIN) || (typeof entry === "string" && entry.startsWith(`${OPENCODE_PLUGIN}@`));
    if ((json.value(plugins) as unknown[]).some(named)) return undefined;
    json.append(plugins, OPENCODE_PLUGIN);
    return change;
  });
}

function localPluginChange(cwd: string): Change | undefined {
  const file = path.join(cwd, LOCAL_PLUGIN_FILE);
  if (lstatOrUndefined(file) !== undefined) {
    if (readIfRegular(file, LOCAL_PLUGIN_SOURCE.length) === LOCAL_PLUGIN_SOURCE) return undefined;
    throw new ReturnlintError("USAGE", `${LOCAL_PLUGIN_FILE} exists and is not the one init writes; init changes nothing. Remove it, or make it re-export "${OPENCODE_PLUGIN}" yourself.`);
  }
  return { file, root: cwd, names: LOCAL_PLUGIN_FILE.split(path.sep), content: LOCAL_PLUGIN_SOURCE, verb: "write", what: `${LOCAL_PLUGIN_FILE}, which loads ${OPENCODE_PLUGIN} from node_modules` };
}

// Files

/** A host's settings file is a few kilobytes; a larger one is not read. */
const MAX_SETTINGS_BYTES = 4 * 1024 * 1024;
/** The one-file copy is a few megabytes; anything much larger by its name is not one. */
const MAX_VENDORED_BYTES = 64 * 1024 * 1024;

/** A settings file init edits: as the user names it, where it is written, and its text (undefined: there is none yet). */
interface SettingsFile {
  readonly file: string;
  readonly root: string;
  readonly names: readonly string[];
  readonly json: JsonText | undefined;
}

/**
 * Opens `cwd/<names…>` for editing. A symlink stays one: its target is edited, when it is a
 * file inside the project (the folder init was run in); one that leads outside, or nowhere, is
 * refused. Only a regular file is read (never a FIFO or a device), and only a JSON object.
 */
function openSettings(cwd: string, names: readonly string[]): SettingsFile {
  const file = path.join(cwd, ...names);
  if (lstatOrUndefined(file) === undefined) return { file, root: cwd, names, json: undefined };
  let real: string;
  let root: string;
  try {
    root = realpathSync.native(cwd);
    real = realpathSync.native(file);
  } catch (error) {
    throw unreadable(file, codeOf(error) === "ENOENT" ? "it is a symbolic link to a file that does not exist" : `it cannot be resolved (${codeOf(error) ?? String(error)})`);
  }
  const relative = path.relative(root, real);
  if (relative === "" || relative.startsWith("..") || path.isAbsolute(relative)) {
    throw unreadable(file, `it is a symbolic link to ${real}, outside the project; edit that file yourself, or replace the link with a file`);
  }
  let text: string;
  try {
    text = readRegularFile(real, { maxBytes: MAX_SETTINGS_BYTES }).bytes.toString("utf8");
  } catch (error) {
    if (error instanceof FileRefusedError) throw unreadable(file, error.reason);
    throw error;
  }
  const json = JsonText.parse(text);
  if (typeof json === "string") throw unreadable(file, `it is not JSON (${json})${file.endsWith(".jsonc") ? "; comments cannot be kept, so add the entry by hand" : ""}`);
  if (json.root.kind !== "object") throw unreadable(file, "it is not a JSON object");
  return { file, root, names: relative.split(path.sep), json };
}

/**
 * The change to a settings file: `fresh` written as a new file when there is none, else the
 * edits `edit` makes to its text (undefined: nothing to change). A key written twice on the
 * way to what init edits is refused: which one the host reads is not init's to guess.
 */
function edited(
  settings: SettingsFile,
  fresh: unknown,
  created: Pick<Change, "verb" | "what">,
  edit: (json: JsonText, root: JsonObjectNode) => Pick<Change, "verb" | "what"> | undefined,
): Change | undefined {
  const { file, root, names, json } = settings;
  if (json === undefined) return { file, root, names, content: `${JSON.stringify(fresh, null, 2)}\n`, ...created };
  let change: Pick<Change, "verb" | "what"> | undefined;
  try {
    change = edit(json, json.root as JsonObjectNode);
  } catch (error) {
    if (error instanceof DuplicateKeyError) throw unreadable(file, `${error.message}, and init cannot tell which one the host reads`);
    throw error;
  }
  return change === undefined ? undefined : { file, root, names, content: json.toString(), ...change };
}

/** The object or array at `key`; undefined when there is none, or null; a sentence when it is something else. */
function containerAt<Kind extends "object" | "array">(settings: SettingsFile, parent: JsonObjectNode, key: string, kind: Kind, shown = key): Extract<JsonNode, { kind: Kind }> | undefined {
  const member = settings.json?.member(parent, key);
  if (member === undefined || (member.value.kind === "scalar" && settings.json?.value(member.value) === null)) return undefined;
  if (member.value.kind !== kind) throw unreadable(settings.file, `"${shown}" is not ${kind === "object" ? "an object" : "an array"}`);
  return member.value as Extract<JsonNode, { kind: Kind }>;
}

/** Sets `key` to `value`: a new member, or in place of a null. */
function put(json: JsonText, parent: JsonObjectNode, key: string, value: unknown): void {
  const member = json.member(parent, key);
  if (member === undefined) json.addMember(parent, key, value);
  else json.replace(member.value, value);
}

function lstatOrUndefined(file: string): ReturnType<typeof lstatSync> | undefined {
  try {
    return lstatSync(file);
  } catch {
    return undefined;
  }
}

/** The text of a regular file of at most `maxBytes`; undefined for anything else (nothing, a FIFO, a device, a larger file). */
function readIfRegular(file: string, maxBytes: number): string | undefined {
  try {
    return readRegularFile(file, { maxBytes }).bytes.toString("utf8");
  } catch (error) {
    if (error instanceof FileRefusedError) return undefined;
    throw error;
  }
}

function unreadable(file: string, why: string): ReturnlintError {
  return new ReturnlintError("USAGE", `Cannot update ${file}: ${why}. init changes nothing.`);
}
