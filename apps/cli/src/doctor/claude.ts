import path from "node:path";
import { isObject } from "@returnlint/core";
import { andList, readSettings, type SettingsRead } from "./settings.js";
import { checkedAgents, configLine, mappedBuiltIns, namedLikeBuiltIns, noAgentChecked } from "./agents.js";
import { loadedByClaude } from "../commands/init-settings.js";
import { probeHookCommand, PROBE_AGENT } from "./probe.js";
import type { DoctorContext, DoctorLine, HostDoctor } from "./host-doctor.js";

/** The files Claude Code reads hooks from for a project, as the user names them. */
const PROJECT_SETTINGS = [".claude/settings.json", ".claude/settings.local.json"] as const;
/** A hook command that runs returnlint's hook, and for which host. */
const RETURNLINT_HOOK = /returnlint(?:\.cjs)?"?'?\s+hook\s+([\w-]+)/;

/** A hook that runs returnlint, where it is registered. */
interface Registered {
  readonly file: string;
  readonly event: string;
  readonly matcher: string | undefined;
  readonly command: string;
  readonly host: string;
}

/**
 * Claude Code's project hooks: a SubagentStop hook running `returnlint hook claude`, whose matcher
 * takes the agents returnlint checks, whose command runs from the project.
 */
export const claudeDoctor: HostDoctor = {
  host: "claude",
  title: "Claude Code",
  present: (context) => PROJECT_SETTINGS.some((file) => readSettings(context.root, file).kind !== "missing"),
  check(context) {
    const lines: DoctorLine[] = [];
    const files: SettingsRead[] = [...PROJECT_SETTINGS.map((file) => readSettings(context.root, file)), ...userSettings(context)];
    const registered: Registered[] = [];
    for (const settings of files) {
      if (settings.kind === "broken") lines.push(settings.line);
      if (settings.kind !== "object") continue;
      if (settings.value.disableAllHooks === true) lines.push({ level: "fail", text: `${settings.file} sets "disableAllHooks": true: Claude Code runs no hook at all` });
      registered.push(...hooksIn(settings.file, settings.value.hooks));
    }
    const config = configLine(context);
    if (config !== undefined) lines.push(config);

    const subagentStop = registered.filter((hook) => hook.event === "SubagentStop" && hook.host === "claude");
    for (const hook of registered.filter((candidate) => candidate.host !== "claude")) {
      lines.push({ level: "fail", text: `${hook.file} runs "returnlint hook ${hook.host}" on ${hook.event}: that is the hook for another host, which reads another payload; Claude Code's is "returnlint hook claude"` });
    }
    for (const hook of registered.filter((candidate) => candidate.host === "claude" && candidate.event !== "SubagentStop" && candidate.event !== "Stop")) {
      lines.push({ level: "fail", text: `${hook.file} runs returnlint on ${hook.event}, which is no stop: it never sees a return; register it under "SubagentStop"` });
    }
    if (subagentStop.length === 0) {
      const onStop = registered.some((hook) => hook.host === "claude" && hook.event === "Stop");
      lines.push(
        onStop
          ? { level: "warn", text: `returnlint runs on Stop only: it checks the main agent's return, never a subagent's; "returnlint init claude" adds the SubagentStop hook` }
          : { level: "fail", text: `no SubagentStop hook runs "returnlint hook claude" in ${andList(PROJECT_SETTINGS)}: subagents stop unchecked; run "returnlint init claude"` },
      );
      return lines;
    }
    for (const hook of subagentStop) lines.push({ level: "ok", text: `${hook.file} runs returnlint when a subagent stops (SubagentStop${hook.matcher === undefined ? "" : `, matcher "${hook.matcher}"`})` });

    const agents = checkedAgents(
      context,
      ".claude/agents",
      ".md",
      (line) => lines.push(line),
      (defined) => loadedByClaude(defined, (text) => lines.push({ level: "warn", text })),
    );
    if (agents.length === 0) {
      lines.push(noAgentChecked(".claude/agents/"));
    } else {
      const unmatched = agents.filter((agent) => !subagentStop.some((hook) => matches(hook.matcher, agent.name)));
      const shown = (list: typeof agents) => andList(list.map((agent) => `${agent.name} (/${agent.command})`));
      if (unmatched.length > 0) lines.push({ level: "fail", text: `no SubagentStop matcher takes ${shown(unmatched)}: ${unmatched.length === 1 ? "it stops" : "they stop"} unchecked; run "returnlint init claude" to rebuild the matcher` });
      const matched = agents.filter((agent) => !unmatched.includes(agent));
      if (matched.length > 0) lines.push({ level: "ok", text: `the hook runs for ${shown(matched)}` });
    }
    lines.push(...namedLikeBuiltIns(context, [[".claude/agents", ".md"]]), ...mappedBuiltIns(context.config));

    if (context.config !== undefined) {
      const env = { ...context.env, CLAUDE_PROJECT_DIR: context.root };
      for (const command of new Set(subagentStop.map((hook) => hook.command))) {
        lines.push(probeHookCommand({ command, cwd: context.root, env, payload: { session_id: "returnlint-doctor", cwd: context.root, hook_event_name: "SubagentStop", stop_hook_active: false, agent_id: "doctor", agent_type: PROBE_AGENT, last_assistant_message: "" } }));
      }
    }
    return lines;
  },
};

/** ~/.claude/settings.json: hooks there run in every project. */
function userSettings(context: DoctorContext): SettingsRead[] {
  const home = context.env.HOME;
  if (home === undefined || home === "") return [];
  const read = readSettings(home, path.join(".claude", "settings.json"));
  return [{ ...read, file: `~/${read.file}` }];
}

function hooksIn(file: string, hooks: unknown): Registered[] {
  if (!isObject(hooks)) return [];
  return Object.entries(hooks).flatMap(([event, entries]) =>
    (Array.isArray(entries) ? entries : []).flatMap((entry: unknown) => {
      if (!isObject(entry) || !Array.isArray(entry.hooks)) return [];
      const matcher = typeof entry.matcher === "string" && entry.matcher !== "" ? entry.matcher : undefined;
      return entry.hooks.flatMap((hook: unknown) => {
        if (!isObject(hook) || typeof hook.command !== "string") return [];
        const host = RETURNLINT_HOOK.exec(hook.command)?.[1];
        return host === undefined ? [] : [{ file, event, matcher, command: hook.command, host }];
      });
    }),
  );
}

/**
 * Whether Claude Code's matcher takes this agent: none, "" or "*" takes every agent; names of
 * letters, digits, `_` and `-` joined by `|` are exact names; anything else is a regular expression.
 */
export function matches(matcher: string | undefined, agent: string): boolean {
  if (matcher === undefined || matcher === "*") return true;
  if (/^[\w|-]+$/.test(matcher)) return matcher.split("|").includes(agent);
  try {
    return new RegExp(matcher).test(agent);
  } catch {
    return false;
  }
}
