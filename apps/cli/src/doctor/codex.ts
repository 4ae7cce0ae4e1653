import { existsSync, realpathSync } from "node:fs";
import path from "node:path";
import { isObject } from "@returnlint/core";
import { codexAgents, codexHome, codexHookHash, codexHookKey, codexMatches, parseToml, readSettingsText, tomlTable, type TomlTable } from "../commands/codex-config.js";
import { codexHookOf } from "../commands/init-codex.js";
import { agentsChecked, configLine, mappedBuiltIns, noAgentChecked } from "./agents.js";
import type { DoctorContext, DoctorLine, HostDoctor } from "./host-doctor.js";
import { probeHookCommand, PROBE_AGENT } from "./probe.js";
import { andList, readSettings } from "./settings.js";

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
const fail = (text: string): DoctorLine => ({ level: "fail", text });

/**
 * Codex's project hooks: a SubagentStop hook running `returnlint hook codex` in .codex/hooks.json,
 * whose matcher takes the project's agents, whose command runs from the project, and which Codex
 * trusts (it skips an untrusted project's hooks, and an untrusted hook, without a word).
 */
export const codexDoctor: HostDoctor = {
  host: "codex",
  title: "Codex",
  present: ({ root }) => [HOOKS_FILE, ".codex/config.toml", ".codex/agents"].some((file) => existsSync(path.join(root, file))),
  check(context) {
    const lines: DoctorLine[] = [];
    const config = configLine(context);
    if (config !== undefined) lines.push(config);
    const found = registered(context.root, lines);
    if (found === undefined) return lines;
    lines.push(...matcherLines(context, found), ...mappedBuiltIns(context.config));
    if (context.config !== undefined) {
      const payload = { session_id: "returnlint-doctor", turn_id: "doctor", cwd: context.root, hook_event_name: "SubagentStop", stop_hook_active: false, agent_id: "doctor", agent_type: PROBE_AGENT, agent_transcript_path: null, transcript_path: null, last_assistant_message: "" };
      lines.push(probeHookCommand({ command: found.command, cwd: context.root, env: context.env, payload }));
    }
    lines.push(...trustLines(context, found));
    return lines;
  },
};

/** The returnlint hook of .codex/hooks.json, or undefined after a line saying why there is none. */
function registered(root: string, lines: DoctorLine[]): Registered | undefined {
  const settings = readSettings(root, HOOKS_FILE);
  if (settings.kind === "broken") {
    lines.push(settings.line);
    return undefined;
  }
  if (settings.kind === "missing") {
    lines.push(fail(`${HOOKS_FILE} does not exist: Codex runs no returnlint hook here; run "returnlint init codex"`));
    return undefined;
  }
  const events = isObject(settings.value.hooks) ? settings.value.hooks : {};
  const entries = Array.isArray(events.SubagentStop) ? (events.SubagentStop as unknown[]) : [];
  for (const [entry, group] of entries.entries()) {
    if (!isObject(group)) continue;
    const hook = codexHookOf(group.hooks);
    if (hook === undefined || !Array.isArray(group.hooks)) continue;
    const fields = hook as Record<string, unknown>;
    const matcher = typeof group.matcher === "string" ? group.matcher : undefined;
    lines.push(ok(`${HOOKS_FILE} runs returnlint when a subagent stops (SubagentStop${matcher === undefined ? "" : `, matcher "${matcher}"`})`));
    return {
      entry,
      hook: group.hooks.indexOf(hook),
      matcher,
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
        ? `${HOOKS_FILE} runs "returnlint hook codex" on ${andList(elsewhere)}, not on SubagentStop: no subagent's return is checked; run "returnlint init codex"`
        : `no SubagentStop hook runs "returnlint hook codex" in ${HOOKS_FILE}: subagents stop unchecked; run "returnlint init codex"`,
    ),
  );
  return undefined;
}

/** The project's agents the matcher takes or misses, by name, and Codex's own roles it starts the hook for. */
function matcherLines(context: DoctorContext, found: Registered): DoctorLine[] {
  const { matcher } = found;
  if (matcher !== undefined && !["", "*"].includes(matcher) && !/^[A-Za-z0-9_|]+$/.test(matcher) && !isPattern(matcher)) {
    return [fail(`the matcher "${matcher}" is not a regular expression Codex can read: Codex skips the hook, with a warning at start`)];
  }
  const lines: DoctorLine[] = [];
  const agents = agentsChecked(context.config, codexAgents(context.root, () => undefined), (line) => lines.push(line));
  const shown = (list: typeof agents) => andList(list.map((agent) => `${agent.name} (/${agent.command})`));
  if (agents.length === 0) {
    lines.push(noAgentChecked(".codex/agents/, of the [agents.NAME] tables of .codex/config.toml"));
  } else {
    const missed = agents.filter((agent) => !codexMatches(matcher, agent.name));
    if (missed.length > 0) lines.push(fail(`the matcher "${matcher ?? ""}" does not take ${shown(missed)}: Codex never runs the hook for ${missed.length === 1 ? "it, which stops" : "them, which stop"} unchecked; run "returnlint init codex" to rebuild the matcher`));
    const caught = agents.filter((agent) => !missed.includes(agent));
    if (caught.length > 0) lines.push(ok(`the hook runs for ${shown(caught)}`));
  }
  const roles = CODEX_ROLES.filter((role) => codexMatches(matcher, role));
  if (roles.length > 0) lines.push(ok(`the hook also runs for Codex's own ${andList(roles)}, and lets ${roles.length === 1 ? "it" : "them"} stop unchecked (one start of returnlint each)`));
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
    return [fail(`Codex's settings ${configFile} cannot be read (${error instanceof Error ? error.message : String(error)}): doctor cannot tell whether Codex trusts the project and the hook`)];
  }
  const roots = [...new Set([context.root, realOf(context.root), ...[gitRootOf(context.root)].flatMap((dir) => (dir === undefined ? [] : [dir, realOf(dir)]))])];
  const levels = roots.flatMap((dir) => {
    const level = tomlTable(user, "projects", dir)?.trust_level;
    return typeof level === "string" ? [level] : [];
  });
  const lines: DoctorLine[] = [];
  if (levels.includes("untrusted")) {
    lines.push(fail(`Codex marks this project untrusted in ${configFile}: it loads nothing of .codex/, hooks included, and says nothing about it; trust the project when codex asks`));
  } else if (!levels.includes("trusted")) {
    lines.push(fail(`Codex does not trust this project (no [projects."${context.root}"] trust_level = "trusted" in ${configFile}): it skips .codex/hooks.json without a word; start codex here and trust the project when it asks`));
  } else lines.push(ok(`Codex trusts the project (${configFile})`));

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
  if (states.some((state) => state.enabled === false)) lines.push(fail(`the returnlint hook is disabled in Codex's /hooks: Codex skips it; enable it there`));
  else if (trusted.includes(hash)) lines.push(ok(`Codex trusts the returnlint hook as it is now (${hash.slice(0, 19)}…)`));
  else if (trusted.length > 0) lines.push(fail(`the returnlint hook changed since it was trusted (its command, matcher or timeout): Codex skips it without a word until it is trusted again; open /hooks in codex and trust it`));
  else lines.push(fail(`Codex has not trusted the returnlint hook: it skips it without a word, and every return goes to the parent unchecked; start codex in this project, open /hooks and trust the SubagentStop hook that runs returnlint`));
  return lines;
}

function realOf(dir: string): string {
  try {
    return realpathSync.native(dir);
  } catch {
    return dir;
  }
}
