import { existsSync } from "node:fs";
import path from "node:path";
import { INSTALLED_BIN, vendoredChanges, vendoredShown } from "./init-claude.js";
import type { JsonObjectNode, JsonText } from "./init-json.js";
import { agentDefinitions, checkedAgents, containerAt, edited, openSettings, put, type Change, type HostSetup, type SettingsFile } from "./init-settings.js";

export const CURSOR_HOOKS_FILE = [".cursor", "hooks.json"] as const;
/** Where Cursor finds a project's custom subagents, one Markdown file each. */
export const CURSOR_AGENTS_DIR = ".cursor/agents";
/** The vendored copy `init cursor` writes where returnlint is not installed, or with --vendor. */
export const CURSOR_VENDORED_FILE = [".cursor", "hooks", "returnlint.cjs"] as const;
/**
 * The project's root in a hook command: Cursor sets CURSOR_PROJECT_DIR for its hooks and runs a
 * project's hooks in the project's root, which "." then is; quoted, for a root with spaces.
 */
const PROJECT_DIR = '"${CURSOR_PROJECT_DIR:-.}"';
/** The hook commands `init cursor` writes: `node` and a file, never npx (ten times the start-up of a stop). */
export const CURSOR_HOOK_COMMANDS = {
  installed: `node ${PROJECT_DIR}/${INSTALLED_BIN.join("/")} hook cursor`,
  vendored: `node ${PROJECT_DIR}/${CURSOR_VENDORED_FILE.join("/")} hook cursor`,
} as const;
const HOOK_TIMEOUT_S = 30;
/**
 * The follow-ups Cursor delivers for the entry (its `loop_limit`; 5 when unset). Above the hook's
 * --max-blocks (3), so that Cursor never cuts returnlint's bound for one subagent short; still a
 * bound, for what the ledger cannot count (a --fail-closed hold on a payload it cannot read).
 */
export const CURSOR_LOOP_LIMIT = 10;
const HOOK_ARGS = " hook cursor";

/**
 * A matcher Cursor reads as exactly these agents: Cursor tests a matcher as a regular expression
 * against the subagent's type, case-sensitively and anywhere in it, so it is anchored.
 */
export function cursorMatcher(agents: readonly string[]): string | undefined {
  if (agents.length === 0) return undefined;
  return `^(${agents.map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})$`;
}

/** Whether a hook command runs returnlint's Cursor hook: through npx, a bin or a copy named returnlint.cjs. */
export function runsCursorHook(command: unknown): command is string {
  return typeof command === "string" && /returnlint(?:\.cjs)?"?\s+hook cursor\b/.test(command);
}

interface HookEntry {
  command?: unknown;
  matcher?: unknown;
}

function cursorChange(settings: SettingsFile, command: string, agents: readonly string[]): Change | undefined {
  const matcher = cursorMatcher(agents);
  const where = matcher === undefined ? "no matcher: every subagent, the name rule decides" : `matcher "${matcher}"`;
  const entry = { ...(matcher === undefined ? {} : { matcher }), command, timeout: HOOK_TIMEOUT_S, loop_limit: CURSOR_LOOP_LIMIT };
  const added = { verb: "add", what: `the returnlint subagentStop hook to .cursor/hooks.json (${where})` } as const;
  return edited(settings, { version: 1, hooks: { subagentStop: [entry] } }, added, (json, root) => {
    // Cursor reads a hooks file of version 1; one without a version is given it, another version is the user's.
    if (json.member(root, "version") === undefined) json.addFirstMember(root, "version", 1);
    const hooks = containerAt(settings, root, "hooks", "object");
    if (hooks === undefined) {
      put(json, root, "hooks", { subagentStop: [entry] });
      return added;
    }
    const entries = containerAt(settings, hooks, "subagentStop", "array", "hooks.subagentStop");
    if (entries === undefined) {
      put(json, hooks, "subagentStop", [entry]);
      return added;
    }
    const ours = entries.elements.find((element): element is JsonObjectNode => element.kind === "object" && runsCursorHook((json.value(element) as HookEntry).command));
    if (ours === undefined) {
      json.append(entries, entry);
      return added;
    }
    return updated(json, ours, { command, matcher, where });
  });
}

/** Our entry brought up to date: its matcher, and its command (the options after `hook cursor` kept); its loop_limit and timeout are the user's. */
function updated(json: JsonText, ours: JsonObjectNode, wanted: { readonly command: string; readonly matcher: string | undefined; readonly where: string }): Pick<Change, "verb" | "what"> | undefined {
  const current = json.value(ours) as HookEntry;
  const currentCommand = current.command as string;
  const command = `${wanted.command}${currentCommand.slice(currentCommand.lastIndexOf(HOOK_ARGS) + HOOK_ARGS.length)}`;
  const changes = [...(current.matcher === wanted.matcher ? [] : ["matcher"]), ...(currentCommand === command ? [] : ["command"])];
  if (changes.length === 0) return undefined;
  const matcherMember = json.member(ours, "matcher");
  if (current.matcher !== wanted.matcher) {
    if (wanted.matcher === undefined) {
      if (matcherMember !== undefined) json.removeMember(ours, matcherMember);
    } else if (matcherMember === undefined) json.addFirstMember(ours, "matcher", wanted.matcher);
    else json.replace(matcherMember.value, wanted.matcher);
  }
  const commandMember = json.member(ours, "command");
  if (currentCommand !== command && commandMember !== undefined) json.replace(commandMember.value, command);
  return { verb: "update", what: `the returnlint hook's ${changes.join(" and ")} in .cursor/hooks.json (${changes.includes("command") ? `"${command}"` : wanted.where})` };
}

/**
 * `returnlint init cursor`: the subagentStop hook in .cursor/hooks.json, run with node from the
 * project's node_modules, else from the vendored copy init writes in .cursor/hooks/ (--vendor:
 * always that copy), with a matcher of the project's agents that returnlint checks.
 */
export const cursorSetup: HostSetup = {
  flags: { vendor: true },
  async plan(cwd, flags, warn) {
    const vendor = flags.vendor || !existsSync(path.join(cwd, ...INSTALLED_BIN));
    const settings = openSettings(cwd, CURSOR_HOOKS_FILE);
    const agents = await checkedAgents(cwd, agentDefinitions(cwd, CURSOR_AGENTS_DIR, ".md", warn), "cursor", warn);
    return {
      changes: [...(vendor ? vendoredChanges(cwd, CURSOR_VENDORED_FILE) : []), cursorChange(settings, vendor ? CURSOR_HOOK_COMMANDS.vendored : CURSOR_HOOK_COMMANDS.installed, agents)],
      done: ".cursor/hooks.json already runs returnlint",
      next: vendor
        ? `commit ${vendoredShown(CURSOR_VENDORED_FILE)} with .cursor/hooks.json: Cursor runs it with node, nothing to install`
        : "keep returnlint in the project's devDependencies: the hook runs node_modules/returnlint with node",
      offer: "Cursor's cloud agents run no stop hooks: their subagents' returns are not checked there; gate that work on returnlint check (docs/hosts.md).\n",
    };
  },
};
