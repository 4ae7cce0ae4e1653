import { existsSync } from "node:fs";
import path from "node:path";
import { isObject } from "@returnlint/core";
import { INSTALLED_BIN, vendoredChanges, vendoredShown } from "./init-claude.js";
import { agentDefinitions, checkedAgents, hookEntryChange, openSettings, type Change, type HostSetup } from "./init-settings.js";

/**
 * Gemini CLI replaces `$GEMINI_PROJECT_DIR` in a hook's command with the project's root, quoted
 * for the shell, before it runs the command (a root with spaces in it works; quoting it again
 * would not), and runs the hook in that root.
 */
const PROJECT_DIR = "$GEMINI_PROJECT_DIR";
/** The vendored copy `init gemini` writes where returnlint is not installed, or with --vendor. */
export const GEMINI_VENDORED_FILE = [".gemini", "hooks", "returnlint.cjs"] as const;
/** The hook commands `init gemini` writes: `node` and a file, never npm (a stop would cost ten times as much). */
export const GEMINI_HOOK_COMMANDS = {
  installed: `node ${PROJECT_DIR}/${INSTALLED_BIN.join("/")} hook gemini`,
  vendored: `node ${PROJECT_DIR}/${GEMINI_VENDORED_FILE.join("/")} hook gemini`,
} as const;
/** Gemini CLI's hooks have no subagent-stop event: the hook runs after this tool, the parent's call of a subagent. */
export const GEMINI_MATCHER = "invoke_agent";
/** Gemini CLI's hook timeouts are in milliseconds (its default is 60,000). */
export const GEMINI_HOOK_TIMEOUT_MS = 30_000;
/** The name Gemini CLI shows for the hook, and `hooksConfig.disabled` would list. */
export const GEMINI_HOOK_NAME = "returnlint";
const SETTINGS = [".gemini", "settings.json"] as const;
/** A hook command that runs returnlint's Gemini CLI hook, through a bin, a copy named returnlint.cjs or npx; what follows it is its options. */
const GEMINI_HOOK = /returnlint(?:\.cjs)?["']?\s+hook gemini\b/;

/** The hook of an entry that runs returnlint's Gemini CLI hook. */
function ourHook(hooks: unknown): { command: string } | undefined {
  if (!Array.isArray(hooks)) return undefined;
  return hooks.find((hook): hook is { command: string } => isObject(hook) && typeof hook.command === "string" && GEMINI_HOOK.test(hook.command));
}

async function geminiChange(cwd: string, command: string, warn: (line: string) => void): Promise<Change | undefined> {
  const settings = openSettings(cwd, SETTINGS);
  const agents = await checkedAgents(cwd, agentDefinitions(cwd, ".gemini/agents", ".md", warn), "gemini", warn);
  const checked = agents.length === 0 ? "no agent of .gemini/agents/ or the config's agents map maps to a command yet: the hook decides by name" : `it checks ${agents.join(", ")}`;
  const entry = { matcher: GEMINI_MATCHER, hooks: [{ name: GEMINI_HOOK_NAME, type: "command", command, timeout: GEMINI_HOOK_TIMEOUT_MS }] };
  const added = { verb: "add", what: `the returnlint AfterTool hook to .gemini/settings.json (matcher "${GEMINI_MATCHER}": ${checked})` } as const;
  return hookEntryChange(settings, { event: "AfterTool", host: "gemini", entry, command, ourHook, added, where: `matcher "${GEMINI_MATCHER}"` });
}

/**
 * What init cannot do for the user, and will not do behind their back: Gemini CLI runs a project's
 * hooks (and reads its .gemini/settings.json at all) only in a folder the user trusts, and loads
 * the agents of .gemini/agents/ only once the user acknowledged each file as it is now.
 */
const TRUST_AND_ACKNOWLEDGE =
  "Gemini CLI runs this hook only in a trusted folder and loads the agents of .gemini/agents/ only once you acknowledge them, and init does neither for you: " +
  'start gemini in this folder, trust it when asked (~/.gemini/trustedFolders.json records it; headless runs take GEMINI_CLI_TRUST_WORKSPACE=true instead) and choose "Acknowledge and Enable" for the agents it lists (again after each edit of an agent file); ' +
  '"returnlint doctor --host gemini" says whether both are done.';

/**
 * `returnlint init gemini`: the AfterTool hook of invoke_agent in .gemini/settings.json, run with
 * node from the project's node_modules, else from the vendored copy init writes in .gemini/hooks/
 * (--vendor: always that copy).
 */
export const geminiSetup: HostSetup = {
  flags: { vendor: true },
  async plan(cwd, flags, warn) {
    const vendor = flags.vendor || !existsSync(path.join(cwd, ...INSTALLED_BIN));
    const changes = [...(vendor ? vendoredChanges(cwd, GEMINI_VENDORED_FILE) : []), await geminiChange(cwd, vendor ? GEMINI_HOOK_COMMANDS.vendored : GEMINI_HOOK_COMMANDS.installed, warn)];
    const hookNext = vendor
      ? `commit ${vendoredShown(GEMINI_VENDORED_FILE)} with .gemini/settings.json: the hook runs it with node, nothing to install`
      : "keep returnlint in the project's devDependencies: the hook runs node_modules/returnlint with node";
    return { changes, done: ".gemini/settings.json already runs returnlint", next: `${hookNext}.\n${TRUST_AND_ACKNOWLEDGE}` };
  },
};
