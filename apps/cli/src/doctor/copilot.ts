import { existsSync, readdirSync, realpathSync } from "node:fs";
import path from "node:path";
import { copilotHookFiles, returnlintHooks, SUBAGENT_STOP, type ReturnlintHook } from "../commands/init-copilot.js";
import { agentFiles, readIfRegular } from "../commands/init-settings.js";
import { checkedAgents, configLine, mappedBuiltIns, namedLikeBuiltIns, noAgentChecked } from "./agents.js";
import { probeHookCommand, PROBE_AGENT } from "./probe.js";
import { andList, readSettings, type SettingsRead } from "./settings.js";
import type { DoctorContext, DoctorLine, HostDoctor } from "./host-doctor.js";

/** The hosts whose hook reads a payload Copilot CLI sends a subagent-stop hook: its own, and Claude Code's shape. */
const READS_COPILOT = new Set(["copilot", "claude"]);
/** The files only Copilot CLI reads (Claude Code's are the Claude Code doctor's too). */
const OWN_FILES = /^(?:\.github\/|~|\/)/;

/** Where Copilot CLI keeps the user's settings, hooks and trusted folders, and how a line names it. */
function copilotHome(env: DoctorContext["env"]): { readonly dir: string; readonly shown: string } | undefined {
  if (env.COPILOT_HOME !== undefined && env.COPILOT_HOME !== "") return { dir: env.COPILOT_HOME, shown: env.COPILOT_HOME };
  if (env.HOME === undefined || env.HOME === "") return undefined;
  return { dir: path.join(env.HOME, ".copilot"), shown: "~/.copilot" };
}

/** The user's hooks files and settings, which Copilot CLI runs in every project. */
function userFiles(context: DoctorContext): SettingsRead[] {
  const home = copilotHome(context.env);
  if (home === undefined) return [];
  let hooks: string[];
  try {
    hooks = readdirSync(path.join(home.dir, "hooks"))
      .filter((name) => name.endsWith(".json"))
      .sort()
      .map((name) => `hooks/${name}`);
  } catch {
    hooks = [];
  }
  return [...hooks, "settings.json"].map((relative) => ({ ...readSettings(home.dir, relative), file: `${home.shown}/${relative}` }));
}

/**
 * Whether Copilot CLI trusts the project's folder, which it needs before it runs the project's
 * hooks (it skips them without a word otherwise): COPILOT_ALLOW_ALL set to exactly "true", or the
 * folder or one above it in `trustedFolders` of config.json in its home (a file with `//` comments).
 */
function trust(context: DoctorContext): DoctorLine {
  if (context.env.COPILOT_ALLOW_ALL === "true") return { level: "ok", text: "COPILOT_ALLOW_ALL=true trusts the folder copilot starts in: Copilot CLI runs the project's hooks" };
  const home = copilotHome(context.env);
  const config = home === undefined ? undefined : path.join(home.dir, "config.json");
  const shown = home === undefined ? "~/.copilot/config.json" : `${home.shown}/config.json`;
  const text = config === undefined ? undefined : readIfRegular(config, 4 * 1024 * 1024);
  let folders: unknown;
  try {
    folders = text === undefined ? undefined : (JSON.parse(text.replace(/^\s*\/\/.*$/gm, "")) as { trustedFolders?: unknown }).trustedFolders;
  } catch {
    folders = undefined;
  }
  const root = real(context.root);
  const trusting = (Array.isArray(folders) ? folders : []).find((folder): folder is string => {
    if (typeof folder !== "string" || !path.isAbsolute(folder)) return false;
    const relative = path.relative(real(folder), root);
    return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
  });
  if (trusting !== undefined) return { level: "ok", text: `Copilot CLI trusts the folder: ${shown} lists ${trusting === context.root ? "it" : trusting} under "trustedFolders"` };
  return {
    level: "fail",
    text: `Copilot CLI does not trust ${context.root} (${shown} lists neither it nor a folder above it under "trustedFolders"), so it skips the project's hooks without a word: start "copilot" here once and let it remember the folder, or run "copilot -p" with --trust-folder or COPILOT_ALLOW_ALL=true every time`,
  };
}

function real(folder: string): string {
  try {
    return realpathSync.native(folder);
  } catch {
    return path.resolve(folder);
  }
}

/**
 * Copilot CLI's hooks for a project: one subagentStop hook running returnlint (its own in
 * `.github/hooks/`, or Claude Code's SubagentStop in `.claude/settings.json`, which it runs too,
 * never both: each would count every attempt), in a folder it trusts, whose command runs from the
 * project's root. It runs the hook for every subagent: the config's agents map and the name rule
 * decide which are checked.
 */
export const copilotDoctor: HostDoctor = {
  host: "copilot",
  title: "Copilot CLI",
  present: (context) => copilotHookFiles(context.root).some((file) => file.startsWith(".github/")) || agentFiles(context.root, ".github/agents", ".agent.md", () => undefined).length > 0,
  check(context) {
    const lines: DoctorLine[] = [];
    const files = [...copilotHookFiles(context.root).map((file) => readSettings(context.root, file)), ...userFiles(context)];
    const hooks: ReturnlintHook[] = [];
    for (const settings of files) {
      if (settings.kind === "broken") lines.push(settings.line);
      if (settings.kind !== "object") continue;
      if (settings.value.disableAllHooks === true && !settings.file.startsWith(".claude/")) lines.push({ level: "fail", text: `${settings.file} sets "disableAllHooks": true: Copilot CLI runs no hook at all` });
      hooks.push(...returnlintHooks(settings.file, settings.value.hooks));
    }
    const config = configLine(context);
    if (config !== undefined) lines.push(config);

    const stops = hooks.filter((hook) => SUBAGENT_STOP.has(hook.event) && READS_COPILOT.has(hook.host));
    for (const hook of hooks.filter((candidate) => OWN_FILES.test(candidate.file) && !READS_COPILOT.has(candidate.host))) {
      lines.push({ level: "fail", text: `${hook.file} runs "returnlint hook ${hook.host}" on ${hook.event}: that is the hook for another host, which reads another payload; Copilot CLI's is "returnlint hook copilot"` });
    }
    for (const hook of hooks.filter((candidate) => candidate.host === "copilot" && !SUBAGENT_STOP.has(candidate.event))) {
      const stop = hook.event === "agentStop" || hook.event === "Stop";
      lines.push({
        level: "fail",
        text: stop
          ? `${hook.file} runs returnlint on ${hook.event}, which carries no final message, and inside a subagent a block there does not send it back: register it under "subagentStop"`
          : `${hook.file} runs returnlint on ${hook.event}, which is no stop: it never sees a return; register it under "subagentStop"`,
      });
    }
    if (stops.length === 0) {
      lines.push({ level: "fail", text: `no subagentStop hook runs returnlint in .github/hooks/*.json, .claude/settings.json or the settings Copilot CLI reads: subagents stop unchecked; run "returnlint init copilot"` });
      return lines;
    }
    if (stops.length > 1) {
      lines.push({
        level: "fail",
        text: `returnlint runs ${String(stops.length)} times when a subagent stops (${andList(stops.map((hook) => `${hook.file} (${hook.event})`))}): each run counts the attempt, so a failing return is let through after one block as "repeated-feedback"; keep one (a project that Claude Code runs too keeps .claude/settings.json's, which Copilot CLI runs as well)`,
      });
    } else {
      for (const hook of stops) {
        const claudes = hook.file.startsWith(".claude/") ? ", Claude Code's hook, which Copilot CLI runs with Claude Code's fields" : "";
        lines.push({ level: "ok", text: `${hook.file} runs returnlint when a subagent stops (${hook.event}${claudes}); Copilot CLI runs it for every subagent, matcher or not` });
      }
    }
    if (stops.some((hook) => !hook.file.startsWith("~") && !path.isAbsolute(hook.file))) lines.push(trust(context));

    const agents = [...checkedAgents(context, ".github/agents", ".agent.md", (line) => lines.push(line)), ...checkedAgents(context, ".claude/agents", ".md", (line) => lines.push(line))].filter(
      (agent, index, all) => all.findIndex((other) => other.name === agent.name) === index,
    );
    if (agents.length === 0) {
      lines.push(noAgentChecked(".github/agents/, of .claude/agents/"));
    } else {
      lines.push({ level: "ok", text: `the hook checks ${andList(agents.map((agent) => `${agent.name} (/${agent.command})`))}` });
    }
    lines.push(...namedLikeBuiltIns(context, [[".github/agents", ".agent.md"], [".claude/agents", ".md"]]));
    lines.push(...mappedBuiltIns(context.config));

    if (context.config !== undefined) {
      const env = { ...context.env, COPILOT_PROJECT_DIR: context.root, CLAUDE_PROJECT_DIR: context.root, COPILOT_CLI: "1" };
      for (const hook of stops) {
        const payload =
          hook.event === "subagentStop"
            ? { sessionId: "returnlint-doctor", cwd: context.root, agentId: "doctor", agentType: PROBE_AGENT, agentName: PROBE_AGENT, response: "", stopReason: "end_turn", stop_hook_active: false }
            : { session_id: "returnlint-doctor", cwd: context.root, hook_event_name: "SubagentStop", stop_hook_active: false, agent_id: "doctor", agent_type: PROBE_AGENT, last_assistant_message: "" };
        const cwd = path.resolve(context.root, hook.cwd);
        const probe = existsSync(cwd) ? probeHookCommand({ command: hook.command, cwd, env, payload }) : { level: "fail" as const, text: `the hook's cwd "${hook.cwd}" is no folder of the project: Copilot CLI cannot run it` };
        lines.push(stops.length === 1 ? probe : { ...probe, text: `${hook.file}: ${probe.text}` });
      }
    }
    return lines;
  },
};
