import path from "node:path";
import { isObject } from "@returnlint/core";
import { CURSOR_AGENTS_DIR, CURSOR_HOOKS_FILE } from "../commands/init-cursor.js";
import { lstatOrUndefined } from "../commands/init-settings.js";
import { checkedAgents, configLine, mappedBuiltIns, noAgentChecked } from "./agents.js";
import type { DoctorContext, DoctorLine, HostDoctor } from "./host-doctor.js";
import { PROBE_AGENT, probeHookCommand } from "./probe.js";
import { andList, readSettings } from "./settings.js";

// What `returnlint doctor` checks of a project's Cursor setup, in the order a person fixes it: the
// hooks file, the event returnlint is registered for, the agents the matcher lets through, the
// command Cursor runs, Cursor's bound on follow-ups, and what Cursor does not do (its cloud agents
// run no stop hooks).

const HOOKS_FILE = CURSOR_HOOKS_FILE.join("/");
/** A hook command that runs returnlint's hook, and for which host. */
const RETURNLINT_HOOK = /returnlint(?:\.cjs)?"?'?\s+hook\s+([\w-]+)/;
/** The hook's own bound when its command sets none (`returnlint hook --help`). */
const DEFAULT_MAX_BLOCKS = 3;
/** Cursor's loop_limit when an entry sets none. */
const CURSOR_DEFAULT_LOOP_LIMIT = 5;
/** Where Cursor's cloud agents (its background agents) are set up in a project. */
const CLOUD_AGENTS_FILE = ".cursor/environment.json";

/** An entry of the hooks file that runs returnlint's hook, where it is registered. */
interface Registered {
  readonly event: string;
  readonly host: string;
  readonly command: string;
  readonly entry: Readonly<Record<string, unknown>>;
}

/**
 * Cursor's project hooks (.cursor/hooks.json, version 1): a subagentStop entry running `returnlint
 * hook cursor`, whose matcher takes the agents returnlint checks, whose command runs from the
 * project, and whose loop_limit lets returnlint's own bound come first.
 */
export const cursorDoctor: HostDoctor = {
  host: "cursor",
  title: "Cursor",
  present: (context) => readSettings(context.root, HOOKS_FILE).kind !== "missing",
  check(context) {
    const settings = readSettings(context.root, HOOKS_FILE);
    if (settings.kind === "missing") return [{ level: "fail", text: `there is no ${HOOKS_FILE}: Cursor runs no hook in this project; run "returnlint init cursor"` }];
    if (settings.kind === "broken") return [settings.line];
    const { version, hooks } = settings.value;
    if (version !== 1) {
      return [{ level: "fail", text: `${HOOKS_FILE} ${version === undefined ? `has no "version"` : `says "version": ${JSON.stringify(version)}`}: Cursor reads hooks files of version 1 and runs none of these; set "version": 1` }];
    }
    const lines: DoctorLine[] = [];
    const config = configLine(context);
    if (config !== undefined) lines.push(config);
    const registered = hooksIn(hooks);
    for (const hook of registered.filter((candidate) => candidate.host !== "cursor")) {
      lines.push({ level: "fail", text: `${HOOKS_FILE} runs "returnlint hook ${hook.host}" on ${hook.event}: that is the hook for another host, which reads another payload; Cursor's is "returnlint hook cursor"` });
    }
    const ours = registered.filter((hook) => hook.host === "cursor");
    const subagentStop = ours.filter((hook) => hook.event === "subagentStop");
    if (ours.some((hook) => hook.event === "SubagentStop")) {
      lines.push({ level: "fail", text: `${HOOKS_FILE} registers returnlint under "SubagentStop", Claude Code's name: Cursor's event is "subagentStop", and it runs nothing under the other` });
    }
    if (ours.some((hook) => hook.event === "stop")) {
      lines.push({ level: "warn", text: `returnlint is registered for stop too, whose payload carries no final message: every stop of the main agent goes through with a sentence; remove that entry` });
    }
    const [hook] = subagentStop;
    if (hook === undefined) {
      lines.push({ level: "fail", text: `no subagentStop entry of ${HOOKS_FILE} runs "returnlint hook cursor": subagents stop unchecked; run "returnlint init cursor"` });
      return lines;
    }
    lines.push({ level: "ok", text: `${HOOKS_FILE} runs returnlint when a subagent stops (subagentStop${typeof hook.entry.matcher === "string" && hook.entry.matcher !== "" ? `, matcher "${hook.entry.matcher}"` : ""})` });
    if (subagentStop.length > 1) lines.push({ level: "warn", text: `${HOOKS_FILE} registers returnlint ${String(subagentStop.length)} times for subagentStop: each stop runs it as many times, and a failing return is sent back as many times; keep one entry` });

    lines.push(...agentLines(hook.entry.matcher, context, lines), ...mappedBuiltIns(context.config));
    if (context.config !== undefined) {
      lines.push(
        probeHookCommand({
          command: hook.command,
          cwd: context.root,
          env: { ...context.env, CURSOR_PROJECT_DIR: context.root },
          payload: { conversation_id: "returnlint-doctor", hook_event_name: "subagentStop", workspace_roots: [context.root], subagent_id: "doctor", subagent_type: PROBE_AGENT, status: "completed", summary: "" },
          passOutput: ["{}"],
        }),
      );
    }
    if (/(?:^|[\s;&|])npx\s/.test(hook.command)) lines.push({ level: "warn", text: `the hook command starts npx, which costs every stop about ten times what "node" on returnlint's file does; "returnlint init cursor" writes the node command` });
    lines.push(loopLine(hook));
    if (lstatOrUndefined(path.join(context.root, CLOUD_AGENTS_FILE)) !== undefined) {
      lines.push({ level: "warn", text: `this project sets up Cursor's cloud agents (${CLOUD_AGENTS_FILE}), which run no stop hooks: their subagents' returns are never checked there; gate that work on "returnlint check"` });
    }
    return lines;
  },
};

function hooksIn(hooks: unknown): Registered[] {
  if (!isObject(hooks)) return [];
  return Object.entries(hooks).flatMap(([event, entries]) =>
    (Array.isArray(entries) ? entries : []).flatMap((entry: unknown) => {
      if (!isObject(entry) || typeof entry.command !== "string") return [];
      const host = RETURNLINT_HOOK.exec(entry.command)?.[1];
      return host === undefined ? [] : [{ event, host, command: entry.command, entry }];
    }),
  );
}

/** Whether the entry's matcher lets through every agent returnlint checks: Cursor tests it as a regular expression, anywhere in the subagent's type. */
function agentLines(matcher: unknown, context: DoctorContext, lines: DoctorLine[]): DoctorLine[] {
  const agents = checkedAgents(context, CURSOR_AGENTS_DIR, ".md", (line) => lines.push(line));
  if (matcher !== undefined && typeof matcher !== "string") return [{ level: "fail", text: `the entry's "matcher" is not a string: Cursor rejects the hooks file; run "returnlint init cursor"` }];
  let pattern: RegExp | undefined;
  try {
    pattern = matcher === undefined || matcher === "" || matcher === "*" ? undefined : new RegExp(matcher);
  } catch (error) {
    return [{ level: "fail", text: `the matcher "${String(matcher)}" is no regular expression (${error instanceof Error ? error.message : String(error)}): Cursor rejects the hooks file; run "returnlint init cursor"` }];
  }
  if (agents.length === 0) {
    return [noAgentChecked(`${CURSOR_AGENTS_DIR}/`)];
  }
  const shown = (list: typeof agents) => andList(list.map((agent) => `${agent.name} (/${agent.command})`));
  const unmatched = agents.filter((agent) => pattern !== undefined && !pattern.test(agent.name));
  const matched = agents.filter((agent) => !unmatched.includes(agent));
  return [
    ...(unmatched.length === 0 ? [] : [{ level: "fail", text: `the subagentStop matcher "${String(matcher)}" does not take ${shown(unmatched)}: ${unmatched.length === 1 ? "it stops" : "they stop"} unchecked; run "returnlint init cursor" to rebuild the matcher` } as const]),
    ...(matched.length === 0 ? [] : [{ level: "ok", text: `the hook runs for ${shown(matched)}` } as const]),
  ];
}

/** Cursor's bound on the follow-ups the entry sends, beside the hook's own --max-blocks. */
function loopLine(hook: Registered): DoctorLine {
  const maxBlocks = Number(/--max-blocks[=\s]+(\d+)/.exec(hook.command)?.[1] ?? DEFAULT_MAX_BLOCKS);
  const given = hook.entry.loop_limit;
  if (given === null) {
    return { level: "warn", text: `loop_limit is null: nothing on Cursor's side bounds the follow-ups; returnlint's --max-blocks (${String(maxBlocks)}) bounds each subagent's, but not a --fail-closed hold on a payload it cannot read` };
  }
  if (given !== undefined && (typeof given !== "number" || !Number.isInteger(given) || given < 1)) {
    return { level: "fail", text: `loop_limit is ${JSON.stringify(given)}: Cursor takes a positive whole number or null, and rejects the hooks file otherwise` };
  }
  const limit = typeof given === "number" ? given : CURSOR_DEFAULT_LOOP_LIMIT;
  const shown = given === undefined ? `loop_limit is unset (Cursor's default, ${String(limit)})` : `loop_limit is ${String(limit)}`;
  return limit < maxBlocks
    ? { level: "warn", text: `${shown}, below the hook's --max-blocks (${String(maxBlocks)}): Cursor stops delivering returnlint's follow-ups after ${String(limit)}, and the failing return then reaches the parent though its verdict says "block"; raise loop_limit` }
    : { level: "ok", text: `${shown}, at least the hook's --max-blocks (${String(maxBlocks)}): returnlint's own bound comes first` };
}
