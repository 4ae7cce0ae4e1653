import { existsSync, lstatSync } from "node:fs";
import path from "node:path";
import { isObject } from "@returnlint/core";
import { codexAgents, codexMatcher } from "./codex-config.js";
import { INSTALLED_BIN, vendoredChanges, vendoredShown } from "./init-claude.js";
import { checkedAgents, hookEntryChange, openSettings, type Change, type HostSetup } from "./init-settings.js";

/** The vendored copy `init codex` writes where returnlint is not installed, or with --vendor. */
export const CODEX_VENDORED_FILE = [".codex", "hooks", "returnlint.cjs"] as const;
export const CODEX_HOOK_TIMEOUT_S = 30;
const HOOK_ARGS = " hook codex";

/**
 * The project's root in a hook command. Codex runs a hook with `$SHELL -lc` in the session's
 * directory, which may be below the project (it reads `.codex/` from there up to the repository's
 * root), and sets no variable naming the project: git names the root; outside a repository Codex
 * reads only the session directory's `.codex/`, so that directory is the root.
 */
function projectDir(cwd: string): string {
  const repository = gitRoot(cwd);
  const below = repository === undefined ? "" : path.relative(repository, cwd).split(path.sep).join("/");
  return `"$(git rev-parse --show-toplevel 2>/dev/null || pwd)"${below === "" ? "" : `/${below}`}`;
}

function gitRoot(cwd: string): string | undefined {
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    try {
      lstatSync(path.join(dir, ".git"));
      return dir;
    } catch {
      if (path.dirname(dir) === dir) return undefined;
    }
  }
}

/** The hook commands `init codex` writes: `node` on a file, never npx (ten times the cost of a stop). */
export function codexHookCommands(cwd: string): { readonly installed: string; readonly vendored: string } {
  const root = projectDir(cwd);
  return { installed: `node ${root}/${INSTALLED_BIN.join("/")}${HOOK_ARGS}`, vendored: `node ${root}/${CODEX_VENDORED_FILE.join("/")}${HOOK_ARGS}` };
}

/** The hook of an entry that runs returnlint's Codex hook: through npx, a bin or a copy named returnlint.cjs. */
export function codexHookOf(hooks: unknown): { command: string; timeout?: unknown } | undefined {
  if (!Array.isArray(hooks)) return undefined;
  return hooks.find((hook): hook is { command: string } => isObject(hook) && typeof hook.command === "string" && /returnlint(?:\.cjs)?"?\s+hook codex\b/.test(hook.command));
}

async function codexChange(cwd: string, command: string, warn: (line: string) => void): Promise<Change | undefined> {
  const settings = openSettings(cwd, [".codex", "hooks.json"]);
  const agents = await checkedAgents(cwd, codexAgents(cwd, warn), "codex", warn);
  const matcher = codexMatcher(agents);
  const where = agents.length === 0 ? "no matcher: every subagent, the name rule decides" : `matcher "${matcher ?? ""}"`;
  const entry = { ...(matcher === undefined ? {} : { matcher }), hooks: [{ type: "command", command, timeout: CODEX_HOOK_TIMEOUT_S }] };
  const added = { verb: "add", what: `the returnlint SubagentStop hook to .codex/hooks.json (${where})` } as const;
  return hookEntryChange(settings, { event: "SubagentStop", host: "codex", entry, command, ourHook: codexHookOf, added, where, afterUpdate: "; Codex skips it until you trust it again" });
}

/**
 * What the user must do before Codex runs the hook. init never trusts it for them: Codex keeps
 * the trust in the user's own config.toml as the hash of the hook they reviewed, written by
 * Codex's /hooks; writing it here would be a review nobody made, through an interface Codex
 * marks experimental.
 */
export const CODEX_TRUST_STEPS =
  "Codex runs a project's hook only once you trust the project and the hook, and skips an untrusted one without a word: start codex in this project (trust the project when it asks), open /hooks, review the SubagentStop hook that runs returnlint and trust it; do it again whenever the hook changes. init does not trust it for you. Then \"returnlint doctor --host codex\" checks the setup (for a one-off automated run, \"codex exec --dangerously-bypass-hook-trust\" runs hooks without review).";

/**
 * `returnlint init codex`: the SubagentStop hook in .codex/hooks.json, run with node from the
 * project's node_modules, else from the vendored copy init writes in .codex/hooks/ (--vendor: always
 * that copy).
 */
export const codexSetup: HostSetup = {
  flags: { vendor: true },
  async plan(cwd, flags, warn) {
    const vendor = flags.vendor || !existsSync(path.join(cwd, ...INSTALLED_BIN));
    const commands = codexHookCommands(cwd);
    const changes = [...(vendor ? vendoredChanges(cwd, CODEX_VENDORED_FILE) : []), await codexChange(cwd, vendor ? commands.vendored : commands.installed, warn)];
    const hookNext = vendor
      ? `commit ${vendoredShown(CODEX_VENDORED_FILE)} with .codex/hooks.json: the hook runs it with node, nothing to install`
      : "keep returnlint in the project's devDependencies: the hook runs node_modules/returnlint with node";
    return { changes, done: '.codex/hooks.json already runs returnlint ("returnlint doctor --host codex" checks that Codex trusts it)', next: `${hookNext}.\n${CODEX_TRUST_STEPS}` };
  },
};
