import type { LoadedConfig } from "@returnlint/core";
import { BUILT_IN_AGENTS, commandForAgent } from "@returnlint/api";
import { agentFiles } from "../commands/init-settings.js";
import type { DoctorContext, DoctorLine } from "./host-doctor.js";

/** The project's agents a host's hook will check: those defined in its folder and those the config's agents map names, with the command each maps to. */
export function checkedAgents(context: DoctorContext, dir: string, suffix: string, warn: (line: DoctorLine) => void): { readonly name: string; readonly command: string }[] {
  const defined = agentFiles(context.root, dir, suffix, (text) => {
    warn({ level: "warn", text });
  });
  const names = new Set([...defined, ...Object.keys(context.config?.config.agents ?? {})]);
  return [...names].sort().flatMap((name) => {
    const command = commandForAgent(context.config, name);
    return command === null ? [] : [{ name, command }];
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
