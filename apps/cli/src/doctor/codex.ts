import { existsSync, realpathSync } from "node:fs";
import path from "node:path";
import { commandForAgent } from "@returnlint/api";
import { isObject } from "@returnlint/core";
import { codexAgents, codexHome, codexHookHash, codexHookKey, codexMatches, parseToml, readSettingsText, tomlTable, type TomlTable } from "../commands/codex-config.js";
import { codexHookOf } from "../commands/init-codex.js";
import type { DoctorContext, DoctorLine, HostDoctor } from "./host-doctor.js";

// `returnlint doctor --host codex`: what makes Codex run returnlint at every subagent stop, and
// what makes it skip the hook without a word (an untrusted project or hook, a matcher that misses).

const HOOKS_FILE = ".codex/hooks.json";
/** Codex's own roles, as spawn_agent names them. */
const CODEX_ROLES = ["default", "worker", "explorer"];

interface Registered {
  readonly entry: number;
  readonly hook: number;
  readonly matcher: string | undefined;
  readonly command: string;
  readonly timeout: number | undefined;
  readonly async: boolean | undefined;
  readonly statusMessage: string | undefined;
}

const ok = (text: string): DoctorLine => ({ level: "ok", text });
const warn = (text: string): DoctorLine => ({ level: "warn", text });
const fail = (text: string): DoctorLine => ({ level: "fail", text });

export const codexDoctor: HostDoctor = {
  host: "codex",
  title: "Codex",
  present: ({ root }) => [HOOKS_FILE, ".codex/config.toml", ".codex/agents"].some((file) => existsSync(path.join(root, file))),
  check(context) {
    const lines: DoctorLine[] = [];
    const found = registered(context.root, lines);
    if (found === undefined) return lines;
    lines.push(...matcherLines(context, found), resolveLine(context.root, found.command), ...trustLines(context, found));
    return lines;
  },
};

/** The returnlint hook of .codex/hooks.json, or undefined after a line saying why there is none. */
function registered(root: string, lines: DoctorLine[]): Registered | undefined {
  let settings: unknown;
  try {
    const text = readSettingsText(path.join(root, HOOKS_FILE));
    if (text === undefined) {
      lines.push(fail(`${HOOKS_FILE} does not exist: Codex runs no returnlint hook here. Run "returnlint init codex".`));
      return undefined;
    }
    settings = JSON.parse(text) as unknown;
  } catch (error) {
    lines.push(fail(`${HOOKS_FILE} cannot be read as JSON (${error instanceof Error ? error.message : String(error)}): Codex ignores it, with a warning at start.`));
    return undefined;
  }
  const events = isObject(settings) && isObject(settings.hooks) ? settings.hooks : {};
  const entries = Array.isArray(events.SubagentStop) ? (events.SubagentStop as unknown[]) : [];
  for (const [entry, group] of entries.entries()) {
    if (!isObject(group)) continue;
    const hook = codexHookOf(group.hooks);
    if (hook === undefined || !Array.isArray(group.hooks)) continue;
    const fields = hook as Record<string, unknown>;
    lines.push(ok(`${HOOKS_FILE} runs returnlint at SubagentStop: ${hook.command}`));
    return {
      entry,
      hook: group.hooks.indexOf(hook),
      matcher: typeof group.matcher === "string" ? group.matcher : undefined,
      command: hook.command,
      timeout: typeof fields.timeout === "number" ? fields.timeout : undefined,
      async: typeof fields.async === "boolean" ? fields.async : undefined,
      statusMessage: typeof fields.statusMessage === "string" ? fields.statusMessage : undefined,
    };
  }
  const elsewhere = Object.entries(events).flatMap(([event, groups]) =>
    Array.isArray(groups) && groups.some((group) => isObject(group) && codexHookOf(group.hooks) !== undefined) ? [event] : [],
  );
  lines.push(
    fail(
      elsewhere.length > 0
        ? `${HOOKS_FILE} runs "returnlint hook codex" at ${elsewhere.join(", ")}, not at SubagentStop: no subagent's return is checked. Run "returnlint init codex".`
        : `${HOOKS_FILE} has no SubagentStop hook running "returnlint hook codex": no subagent's return is checked. Run "returnlint init codex".`,
    ),
  );
  return undefined;
}

/** The project's agents the matcher lets through or misses, by name, and Codex's own ones it starts the hook for. */
function matcherLines(context: DoctorContext, found: Registered): DoctorLine[] {
  const { matcher } = found;
  if (matcher !== undefined && !["", "*"].includes(matcher) && !/^[A-Za-z0-9_|]+$/.test(matcher) && !isPattern(matcher)) {
    return [fail(`The matcher "${matcher}" is not a regular expression Codex can read: Codex skips the hook, with a warning at start.`)];
  }
  const ignored = () => undefined;
  const checked = [...new Set([...codexAgents(context.root, ignored), ...Object.keys(context.config?.config.agents ?? {})])]
    .filter((agent) => commandForAgent(context.config, agent) !== null)
    .sort();
  const caught = checked.filter((agent) => codexMatches(matcher, agent));
  const missed = checked.filter((agent) => !codexMatches(matcher, agent));
  const lines: DoctorLine[] = [];
  const shown = matcher === undefined ? "No matcher" : `The matcher "${matcher}"`;
  if (checked.length === 0) lines.push(warn(`The project defines no agent returnlint checks (.codex/agents/*.toml, [agents.NAME] in .codex/config.toml, the config's "agents" map): the hook checks only agents whose names say their command.`));
  else if (missed.length === 0) lines.push(ok(`${shown} runs the hook for every agent returnlint checks: ${caught.join(", ")}.`));
  else lines.push(fail(`${shown} misses ${missed.join(", ")}: Codex never runs the hook for ${missed.length === 1 ? "it" : "them"}, so ${missed.length === 1 ? "its returns go" : "their returns go"} unchecked. Run "returnlint init codex" to rebuild it.`));
  const roles = CODEX_ROLES.filter((role) => codexMatches(matcher, role));
  if (roles.length > 0) {
    lines.push(ok(`${shown} also runs the hook for Codex's own ${roles.join(", ")}: returnlint lets them stop unchecked (one start of the hook each, nothing more).`));
  }
  return lines;
}

function isPattern(matcher: string): boolean {
  try {
    new RegExp(matcher);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether the command finds returnlint from where Codex runs it: the project's root (the
 * session's directory, or the repository's root the command asks git for). Only the commands
 * `init codex` writes are read; another is not run to find out: a hook is the project's code,
 * and doctor runs none of it.
 */
function resolveLine(root: string, command: string): DoctorLine {
  const file = /^node "\$\(git rev-parse --show-toplevel 2>\/dev\/null \|\| pwd\)"((?:\/[^\s"]+)?\/(?:node_modules\/returnlint\/dist\/returnlint\.cjs|\.codex\/hooks\/returnlint\.cjs)) hook codex\b/.exec(command)?.[1];
  if (file === undefined) {
    if (/\bnpx\b/.test(command)) return warn(`The hook goes through npx, which starts npm before returnlint at every stop (about ten times the cost of node on a file): "returnlint init codex" writes the command that does not.`);
    return warn(`doctor cannot tell whether "${command}" finds returnlint from the project's root (it runs no hook to find out): run it by hand there with --help.`);
  }
  const base = gitRootOf(root) ?? root;
  const target = path.join(base, ...file.split("/"));
  const shown = path.relative(root, target) || target;
  if (!existsSync(target)) {
    return fail(`The hook runs ${shown}, which does not exist: node exits 1, Codex reports a failed hook and the return goes to the parent unchecked. ${file.includes("node_modules") ? "Install returnlint in the project, or run \"returnlint init codex --vendor\"." : 'Run "returnlint init codex --vendor" and commit the file.'}`);
  }
  return ok(`The hook's command finds ${shown} from the project's root.`);
}

function gitRootOf(root: string): string | undefined {
  for (let dir = path.resolve(root); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, ".git"))) return dir;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/**
 * Codex's trust, in the user's config.toml: the project (`[projects."DIR"] trust_level`), without
 * which Codex loads nothing of its .codex/, and the hook (`[hooks.state."KEY"] trusted_hash`),
 * which must be the hash of the hook as it is now.
 */
function trustLines(context: DoctorContext, found: Registered): DoctorLine[] {
  const home = codexHome(context.env);
  const configFile = path.join(home, "config.toml");
  let user: TomlTable | undefined;
  try {
    const text = readSettingsText(configFile);
    user = text === undefined ? undefined : parseToml(text);
  } catch (error) {
    return [fail(`Cannot read Codex's settings ${configFile} (${error instanceof Error ? error.message : String(error)}): doctor cannot tell whether Codex trusts the project and the hook.`)];
  }
  const roots = [...new Set([context.root, realOf(context.root), ...[gitRootOf(context.root)].flatMap((dir) => (dir === undefined ? [] : [dir, realOf(dir)]))])];
  const levels = roots.flatMap((dir) => {
    const level = tomlTable(user, "projects", dir)?.trust_level;
    return typeof level === "string" ? [level] : [];
  });
  const lines: DoctorLine[] = [];
  if (levels.includes("untrusted")) {
    lines.push(fail(`Codex marks this project untrusted in ${configFile}: it loads nothing of .codex/, hooks included, and says nothing about it. Trust the project when codex asks, or set trust_level = "trusted" under [projects."${context.root}"].`));
  } else if (!levels.includes("trusted")) {
    lines.push(fail(`Codex does not trust this project (no [projects."${context.root}"] trust_level = "trusted" in ${configFile}): it skips .codex/hooks.json without a word. Start codex here and trust the project when it asks.`));
  } else lines.push(ok(`Codex trusts the project (${configFile}).`));

  const hooksFiles = [...new Set([path.join(context.root, HOOKS_FILE), path.join(realOf(context.root), HOOKS_FILE)])];
  const states = hooksFiles.flatMap((file) => {
    const state = tomlTable(user, "hooks", "state", codexHookKey(file, found.entry, found.hook));
    return state === undefined ? [] : [state];
  });
  const hash = codexHookHash(found.matcher, {
    command: found.command,
    ...(found.timeout === undefined ? {} : { timeout: found.timeout }),
    ...(found.async === undefined ? {} : { async: found.async }),
    ...(found.statusMessage === undefined ? {} : { statusMessage: found.statusMessage }),
  });
  const trusted = states.map((state) => state.trusted_hash).filter((value): value is string => typeof value === "string");
  if (states.some((state) => state.enabled === false)) lines.push(fail(`The returnlint hook is disabled in Codex's /hooks: Codex skips it. Enable it there.`));
  else if (trusted.includes(hash)) lines.push(ok(`Codex trusts the returnlint hook as it is now (${hash.slice(0, 19)}…).`));
  else if (trusted.length > 0) lines.push(fail(`The returnlint hook changed since it was trusted (its command, matcher or timeout): Codex skips it without a word until it is trusted again. Open /hooks in codex and trust it.`));
  else lines.push(fail(`Codex has not trusted the returnlint hook: it skips it without a word, and every return goes to the parent unchecked. Start codex in this project, open /hooks and trust the SubagentStop hook that runs returnlint.`));
  return lines;
}

function realOf(dir: string): string {
  try {
    return realpathSync.native(dir);
  } catch {
    return dir;
  }
}
