import type { LoadedConfig } from "@returnlint/core";
import { BUILT_IN_AGENTS } from "@returnlint/api";
import { agentDefinitions, agentFiles, agentsChecked as agentsCheckedBy, type AgentDefinition } from "../commands/init-settings.js";
import type { DoctorContext, DoctorLine } from "./host-doctor.js";

/**
 * The project's agents a host's hook will check: those defined in its folder (of them, those the
 * host `loaded`) and those the config's agents map names, with the command each maps to; those
 * whose prose it lets through (their definitions ask for no return returnlint checks) are a line
 * of `warn`'s.
 */
export function checkedAgents(context: DoctorContext, dir: string, suffix: string, warn: (line: DoctorLine) => void, loaded: (defined: AgentDefinition[]) => AgentDefinition[] = (defined) => defined): { readonly name: string; readonly command: string }[] {
  const defined = agentDefinitions(context.root, dir, suffix, (text) => {
    warn({ level: "warn", text });
  });
  return agentsChecked(context.config, loaded(defined), warn);
}

/** The line for a host whose hook (or plugin) checks no agent of `where` (its folders, said as a list). */
export function noAgentChecked(where: string, what: "hook" | "plugin" = "hook"): DoctorLine {
  return {
    level: "warn",
    text: `no agent of ${where} or of the config's "agents" map maps to a command, so the ${what} goes by each subagent's name: it checks one with research, plan, revise or implement in its name (or named in the config's "agents" map), and leaves any other alone`,
  };
}

/** `checkedAgents` of agents already read (`defined`). */
export function agentsChecked(config: LoadedConfig | undefined, defined: readonly AgentDefinition[], warn: (line: DoctorLine) => void): { readonly name: string; readonly command: string }[] {
  return agentsCheckedBy(config, defined, (text) => {
    warn({ level: "warn", text });
  });
}

/**
 * The project's agents (of the host's folders `[dir, suffix]`) named like one of the hosts' own
 * agents (`research`, `task`, …), which the hook leaves alone: such an agent is never checked
 * unless the config's agents map names it.
 */
export function namedLikeBuiltIns(context: DoctorContext, folders: readonly (readonly [string, string])[]): DoctorLine[] {
  const mapped = new Set(Object.keys(context.config?.config.agents ?? {}));
  const named = folders.flatMap(([dir, suffix]) => agentFiles(context.root, dir, suffix, () => undefined)).filter((name) => BUILT_IN_AGENTS.has(name) && !mapped.has(name));
  return [...new Set(named)].map((name) => ({
    level: "warn",
    text: `the project's agent ${name} has the name of a host's built-in agent, which the hook leaves alone: it is not checked unless the config's "agents" map names it`,
  }));
}

/** The built-in agents the config's agents map sends to a command: they answer in prose, and will be sent back. */
export function mappedBuiltIns(config: LoadedConfig | undefined): DoctorLine[] {
  const agents = config?.config.agents ?? {};
  return Object.keys(agents)
    .filter((name) => BUILT_IN_AGENTS.has(name))
    .map((name) => ({
      level: "warn",
      text: `the config's "agents" map sends the host's built-in agent ${name} to /${String(agents[name])}: it answers in prose by design and will be sent back; remove the entry unless that is what you want`,
    }));
}

/** The line for a config that cannot be loaded: every stop then goes through unchecked. */
export function configLine(context: DoctorContext): DoctorLine | undefined {
  if (context.configError === undefined) return undefined;
  return { level: "fail", text: `returnlint's config cannot be loaded, so the hook checks nothing and says so at every stop: ${context.configError}` };
}
