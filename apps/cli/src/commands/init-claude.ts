import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { isObject, ReturnlintError } from "@returnlint/core";
import { agentDefinitions, bytesIfRegular, checkedAgents, containerAt, edited, hookEntryChange, matcherFor, MAX_VENDORED_BYTES, openSettings, put, loadedByClaude, type Change, type HostSetup } from "./init-settings.js";

/** The version being built (esbuild's define; build.mjs). */
declare const RETURNLINT_VERSION: string;

/**
 * The project's root in a hook command: Claude Code sets CLAUDE_PROJECT_DIR for its hooks and runs
 * them with `sh -c`; where a version does not set it (anthropics/claude-code#33815), the hook runs
 * in the project's root, which "." then is. Quoted: a root may have spaces in it.
 */
const PROJECT_DIR = '"${CLAUDE_PROJECT_DIR:-.}"';
/**
 * The vendored copy `init claude` writes where returnlint is not installed, or with --vendor: the
 * loader a hook command runs, and beside it its pack, the bundle and its chunks compressed
 * (`returnlint.pack`), which the loader reads only to unpack them (src/loader.cjs).
 */
export const VENDORED_FILE = [".claude", "hooks", "returnlint.cjs"] as const;
export const INSTALLED_BIN = ["node_modules", "returnlint", "dist", "returnlint.cjs"] as const;
/**
 * The hook commands `init claude` writes: `node` and a file, never npm. Starting npx costs a stop
 * ten times what returnlint's own start does (BENCHMARKS.md, Case 7).
 */
export const HOOK_COMMANDS = {
  installed: `node ${PROJECT_DIR}/${INSTALLED_BIN.join("/")} hook claude`,
  vendored: `node ${PROJECT_DIR}/${VENDORED_FILE.join("/")} hook claude`,
} as const;
export const HOOK_TIMEOUT_S = 30;
/** Where the loader (src/loader.cjs) names its self-contained copy, `[loader, pack]`: the files --vendor writes. */
const SELF_CONTAINED = Symbol.for("returnlint.selfContained");

/**
 * The vendored copy at `names` (.claude/hooks/returnlint.cjs, or another host's folder) and its pack
 * beside it (returnlint.pack): each written, or updated when it is another version's; undefined when
 * it is this one.
 */
export function vendoredChanges(cwd: string, names: readonly string[] = VENDORED_FILE): (Change | undefined)[] {
  const copy = (globalThis as Record<symbol, unknown>)[SELF_CONTAINED];
  const packNames = packOf(names);
  let loader: Buffer;
  let pack: Buffer;
  try {
    if (!Array.isArray(copy) || typeof copy[0] !== "string" || typeof copy[1] !== "string") throw new Error("this returnlint was not started by its bin");
    loader = readFileSync(copy[0]);
    pack = readFileSync(copy[1]);
  } catch (error) {
    throw new ReturnlintError("USAGE", `Cannot write ${names.join("/")} and ${packNames.join("/")}: returnlint's vendored copy cannot be read (${error instanceof Error ? error.message : String(error)}); run returnlint from its package or from a vendored copy with its pack beside it.`);
  }
  const version = `returnlint ${RETURNLINT_VERSION}`;
  return [
    fileChange(cwd, names, loader, `${names.join("/")}, ${version}'s loader, which the hook runs`),
    fileChange(cwd, packNames, pack, `${packNames.join("/")}, ${version} packed, which its loader unpacks`),
  ];
}

/** The pack's names beside the vendored loader's, as the loader finds it (its PACK_FILE): `returnlint.pack` for `returnlint.cjs`. */
function packOf(names: readonly string[]): string[] {
  const loader = names.at(-1) ?? "";
  return [...names.slice(0, -1), `${path.basename(loader, path.extname(loader))}.pack`];
}

/** The vendored copy's two files as a sentence says them: ".claude/hooks/returnlint.cjs and returnlint.pack". */
export function vendoredShown(names: readonly string[]): string {
  return `${names.join("/")} and ${packOf(names).at(-1) ?? ""}`;
}

/** A file of the vendored copy: written, updated when its bytes differ, undefined when they do not. */
function fileChange(cwd: string, names: readonly string[], content: Buffer, what: string): Change | undefined {
  const file = path.join(cwd, ...names);
  // Anything but a regular file by that name (a FIFO, a link to a device) is not a copy: it is replaced, never read.
  const existing = bytesIfRegular(file, MAX_VENDORED_BYTES);
  if (existing?.equals(content) === true) return undefined;
  return { file, root: cwd, names, content, verb: existing === undefined && !existsSync(file) ? "write" : "update", what, long: true };
}

async function claudeChange(cwd: string, command: string, warn: (line: string) => void): Promise<Change | undefined> {
  const settings = openSettings(cwd, [".claude", "settings.json"]);
  const agents = await checkedAgents(cwd, loadedByClaude(agentDefinitions(cwd, ".claude/agents", ".md", warn), warn), "claude", warn);
  const matcher = matcherFor(agents);
  const where = agents.length === 0 ? "no matcher: every subagent, the name rule decides" : `matcher "${matcher ?? ""}"`;
  const entry = { ...(matcher === undefined ? {} : { matcher }), hooks: [{ type: "command", command, timeout: HOOK_TIMEOUT_S }] };
  const added = { verb: "add", what: `the returnlint SubagentStop hook to .claude/settings.json (${where})` } as const;
  return hookEntryChange(settings, { event: "SubagentStop", host: "claude", entry, command, ourHook, added, where });
}

/** The hook of an entry that runs returnlint's Claude Code hook: through npx, a bin or a copy named returnlint.cjs. */
function ourHook(hooks: unknown): { command: string } | undefined {
  if (!Array.isArray(hooks)) return undefined;
  return hooks.find((hook): hook is { command: string } => isObject(hook) && typeof hook.command === "string" && /returnlint(?:\.cjs)?"?\s+hook claude\b/.test(hook.command));
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

/**
 * `returnlint init claude`: the SubagentStop hook in .claude/settings.json, run with node from the
 * project's node_modules, else from the vendored copy init writes in .claude/hooks/ (--vendor: always
 * that copy); --mcp adds the MCP server.
 */
export const claudeSetup: HostSetup = {
  flags: { vendor: true, mcp: true },
  async plan(cwd, flags, warn) {
    const vendor = flags.vendor || !existsSync(path.join(cwd, ...INSTALLED_BIN));
    const changes = [
      ...(vendor ? vendoredChanges(cwd) : []),
      await claudeChange(cwd, vendor ? HOOK_COMMANDS.vendored : HOOK_COMMANDS.installed, warn),
      ...(flags.mcp ? [mcpServerChange(cwd), mcpSettingsChange(cwd)] : []),
    ];
    const hookNext = vendor
      ? `commit ${vendoredShown(VENDORED_FILE)} with .claude/settings.json: the hook runs it with node, nothing to install`
      : "keep returnlint in the project's devDependencies: the hook runs node_modules/returnlint with node";
    return {
      changes,
      done: `.claude/settings.json already runs returnlint${flags.mcp ? ", and the MCP server is set up" : ""}`,
      next: `${hookNext}${flags.mcp ? `; the MCP server needs @returnlint/mcp in node_modules (docs/install.md)` : ""}`,
      offer: flags.mcp ? "" : 'Also: "returnlint init claude --mcp" adds the MCP server, so that a subagent can check its own return before it stops (docs/mcp.md).\n',
    };
  },
};
