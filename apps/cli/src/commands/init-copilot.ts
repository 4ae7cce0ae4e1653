import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { isObject } from "@returnlint/core";
import type { JsonObjectNode } from "./init-json.js";
import { INSTALLED_BIN, vendoredChanges, vendoredShown } from "./init-claude.js";
import { agentDefinitions, checkedAgents, containerAt, edited, openSettings, readIfRegular, type Change, type HostSetup } from "./init-settings.js";

// GitHub Copilot CLI runs a project's hooks from `.github/hooks/*.json` ({"version": 1, "hooks":
// {EVENT: [entry, …]}}), each entry a command for `bash` and one for `powershell`, run in `cwd`
// (relative to the repository's root). What it sends a subagentStop hook and how it reads the
// answer: packages/hooks/src/hosts/copilot.ts.

/** The file `init copilot` keeps its hook in: Copilot CLI loads every `.github/hooks/*.json`. */
export const COPILOT_HOOKS_FILE = [".github", "hooks", "returnlint.json"] as const;
/** The vendored copy `init copilot` writes where returnlint is not installed, or with --vendor (Copilot CLI reads only the .json files there). */
export const COPILOT_VENDORED_FILE = [".github", "hooks", "returnlint.cjs"] as const;
/**
 * The hook commands: `node` on a file named from the project's root, where Copilot CLI runs the hook
 * (`cwd: "."`), the same line for bash and for PowerShell.
 */
export const COPILOT_HOOK_COMMANDS = {
  installed: `node ${INSTALLED_BIN.join("/")} hook copilot`,
  vendored: `node ${COPILOT_VENDORED_FILE.join("/")} hook copilot`,
} as const;
export const COPILOT_HOOK_TIMEOUT_S = 30;

/** The files Copilot CLI 1.0.102 reads a project's hooks from, besides `.github/hooks/*.json`: its own settings, and Claude Code's (whose hooks it runs with Claude Code's fields). */
const PROJECT_SETTINGS = [".github/copilot/settings.json", ".github/copilot/settings.local.json", ".claude/settings.json", ".claude/settings.local.json"] as const;
const HOOKS_DIR = ".github/hooks";
/** A command that runs returnlint's hook, and for which host. */
const RETURNLINT_HOOK = /returnlint(?:\.cjs)?"?'?\s+hook\s+([\w-]+)/;
/** The events at which a subagent stops, as Copilot CLI names them: its own, and the PascalCase one it runs with Claude Code's fields. */
export const SUBAGENT_STOP = new Set(["subagentStop", "SubagentStop"]);

/** A hook that runs returnlint, where Copilot CLI finds it. */
export interface ReturnlintHook {
  /** The file, relative to the folder it was read from. */
  readonly file: string;
  readonly event: string;
  readonly command: string;
  /** The host whose payload it reads (`hook HOST`). */
  readonly host: string;
  /** Where Copilot CLI runs it, relative to the project's root ("." when the entry names none). */
  readonly cwd: string;
  readonly matcher?: string;
}

/** The project's files Copilot CLI reads hooks from that are there, relative to `root`. */
export function copilotHookFiles(root: string): string[] {
  let inDir: string[];
  try {
    inDir = readdirSync(path.join(root, HOOKS_DIR))
      .filter((name) => name.endsWith(".json"))
      .sort()
      .map((name) => `${HOOKS_DIR}/${name}`);
  } catch {
    inDir = [];
  }
  return [...inDir, ...PROJECT_SETTINGS.filter((file) => existsSync(path.join(root, file)))];
}

/**
 * The hooks that run returnlint in a hooks file's or settings file's `hooks`: Copilot CLI's flat
 * entries (`bash`, or its `command` alias) and Claude Code's nested ones (`matcher`, `hooks`).
 */
export function returnlintHooks(file: string, hooks: unknown): ReturnlintHook[] {
  if (!isObject(hooks)) return [];
  return Object.entries(hooks).flatMap(([event, entries]) =>
    (Array.isArray(entries) ? entries : []).flatMap((entry: unknown) => {
      if (!isObject(entry)) return [];
      const matcher = typeof entry.matcher === "string" && entry.matcher !== "" ? { matcher: entry.matcher } : {};
      const inner: unknown[] = Array.isArray(entry.hooks) ? entry.hooks : [entry];
      return inner.flatMap((hook) => {
        if (!isObject(hook)) return [];
        const command = typeof hook.bash === "string" ? hook.bash : typeof hook.command === "string" ? hook.command : undefined;
        const host = command === undefined ? undefined : RETURNLINT_HOOK.exec(command)?.[1];
        if (command === undefined || host === undefined) return [];
        return [{ file, event, command, host, cwd: typeof hook.cwd === "string" && hook.cwd !== "" ? hook.cwd : ".", ...matcher }];
      });
    }),
  );
}

/** The hooks of a JSON file that run returnlint; none when it cannot be read as JSON (doctor says why). */
function returnlintHooksOf(root: string, file: string): ReturnlintHook[] {
  const text = readIfRegular(path.join(root, file), 4 * 1024 * 1024);
  if (text === undefined) return [];
  try {
    const value = JSON.parse(text) as unknown;
    return isObject(value) ? returnlintHooks(file, value.hooks) : [];
  } catch {
    return [];
  }
}

const HOOK_ARGS = " hook copilot";

function hookEntry(command: string): Record<string, unknown> {
  return { type: "command", bash: command, powershell: command, cwd: ".", timeoutSec: COPILOT_HOOK_TIMEOUT_S };
}

/** .github/hooks/returnlint.json: the subagentStop entry added next to what is there, or its command brought up to date. */
function hooksFileChange(cwd: string, command: string, checks: string): Change | undefined {
  const settings = openSettings(cwd, COPILOT_HOOKS_FILE);
  const name = COPILOT_HOOKS_FILE.join("/");
  const added = { verb: "add", what: `the returnlint subagentStop hook to ${name} (${checks})` } as const;
  const entry = hookEntry(command);
  return edited(settings, { version: 1, hooks: { subagentStop: [entry] } }, added, (json, root) => {
    const hooks = containerAt(settings, root, "hooks", "object");
    if (hooks === undefined) {
      json.addMember(root, "hooks", { subagentStop: [entry] });
      return added;
    }
    const entries = containerAt(settings, hooks, "subagentStop", "array", "hooks.subagentStop");
    if (entries === undefined) {
      json.addMember(hooks, "subagentStop", [entry]);
      return added;
    }
    const ours = entries.elements.find((element): element is JsonObjectNode => element.kind === "object" && returnlintHooks(name, { subagentStop: [json.value(element)] }).some((hook) => hook.host === "copilot"));
    if (ours === undefined) {
      json.append(entries, entry);
      return added;
    }
    // The options given after `hook copilot` stay with the new command.
    let changed = false;
    for (const key of ["bash", "powershell", "command"]) {
      const member = json.member(ours, key);
      const current = member === undefined ? undefined : json.value(member.value);
      if (member === undefined || typeof current !== "string" || !current.includes(HOOK_ARGS)) continue;
      const wanted = `${command}${current.slice(current.lastIndexOf(HOOK_ARGS) + HOOK_ARGS.length)}`;
      if (current === wanted) continue;
      json.replace(member.value, wanted);
      changed = true;
    }
    return changed ? { verb: "update", what: `the returnlint hook's command in ${name} ("${command}")` } : undefined;
  });
}

/**
 * `returnlint init copilot`: the subagentStop hook in .github/hooks/returnlint.json, run with node
 * from the project's node_modules, else from the vendored copy init writes beside it (--vendor:
 * always that copy). Copilot CLI 1.0.102 runs a subagentStop hook for every subagent whatever a
 * matcher says, so the hook has none: the config's agents map and the name rule decide. Where another
 * of the project's hooks files already runs returnlint when a subagent stops (`.claude/settings.json`'s
 * SubagentStop hook, which Copilot CLI runs too), nothing is added: two hooks would count each
 * attempt twice.
 */
export const copilotSetup: HostSetup = {
  flags: { vendor: true },
  async plan(cwd, flags, warn) {
    const vendor = flags.vendor || !existsSync(path.join(cwd, ...INSTALLED_BIN));
    const ownFile = COPILOT_HOOKS_FILE.join("/");
    const registered = copilotHookFiles(cwd)
      .flatMap((file) => returnlintHooksOf(cwd, file))
      .filter((hook) => SUBAGENT_STOP.has(hook.event));
    const elsewhere = registered.filter((hook) => hook.file !== ownFile || hook.event !== "subagentStop");
    const ours = elsewhere.length < registered.length;
    const defined = [...agentDefinitions(cwd, ".github/agents", ".agent.md", warn), ...agentDefinitions(cwd, ".claude/agents", ".md", warn)];
    const agents = await checkedAgents(cwd, defined, "copilot", warn);
    const trust = `Trust: Copilot CLI runs a project's hooks only in a folder you trust, and skips them without a word otherwise. Start "copilot" in ${cwd} once and let it remember the folder (it lists it under "trustedFolders" in ~/.copilot/config.json), or run "copilot -p" with --trust-folder or COPILOT_ALLOW_ALL=true; "returnlint doctor --host copilot" says whether the hook will run.`;
    if (elsewhere.length > 0 && !ours) {
      const where = [...new Set(elsewhere.map((hook) => `${hook.file} (${hook.event})`))].join(", ");
      return { changes: [], done: `Copilot CLI already runs returnlint when a subagent stops: ${where}, and a second hook would count every attempt twice`, next: "", reminder: trust };
    }
    const checks =
      agents.length === 0
        ? "no matcher: Copilot CLI runs it for every subagent; no agent of .github/agents/ or the config's agents map maps to a command yet, the name rule decides"
        : `no matcher: Copilot CLI runs it for every subagent; it checks ${agents.join(", ")}`;
    const changes = [...(vendor ? vendoredChanges(cwd, COPILOT_VENDORED_FILE) : []), hooksFileChange(cwd, vendor ? COPILOT_HOOK_COMMANDS.vendored : COPILOT_HOOK_COMMANDS.installed, checks)];
    const hookNext = vendor
      ? `commit ${vendoredShown(COPILOT_VENDORED_FILE)} with ${ownFile}: the hook runs it with node, nothing to install`
      : `keep returnlint in the project's devDependencies: the hook runs node_modules/returnlint with node`;
    return { changes, done: `${ownFile} already runs returnlint`, next: hookNext, reminder: trust };
  },
};
