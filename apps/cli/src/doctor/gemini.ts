import { createHash } from "node:crypto";
import { readdirSync, realpathSync } from "node:fs";
import path from "node:path";
import { FileRefusedError, isObject, readRegularFile } from "@returnlint/core";
import { BUILT_IN_AGENTS } from "@returnlint/api";
import { GEMINI_HOOK_TIMEOUT_MS } from "../commands/init-gemini.js";
import { andList, readSettings, type SettingsRead } from "./settings.js";
import { checkedAgents, configLine, mappedBuiltIns, noAgentChecked } from "./agents.js";
import { probeHookCommand, PROBE_AGENT } from "./probe.js";
import type { DoctorContext, DoctorLine, HostDoctor } from "./host-doctor.js";

const PROJECT_SETTINGS = ".gemini/settings.json";
const AGENTS_DIR = ".gemini/agents";
/** The parent's call of a subagent: Gemini CLI has no subagent-stop event, its AfterTool hook sees the return. */
const AGENT_TOOL = "invoke_agent";
/** A hook command that runs returnlint's hook, and for which host. */
const RETURNLINT_HOOK = /returnlint(?:\.cjs)?["']?\s+hook\s+([\w-]+)/;
/** An agent definition or a list of trusted folders is a page; a larger file is not read. */
const MAX_FILE_BYTES = 1024 * 1024;
/** Less than a second is a timeout in seconds written where Gemini CLI reads milliseconds (Claude Code's `"timeout": 30`). */
const MIN_TIMEOUT_MS = 1000;

interface Registered {
  readonly file: string;
  readonly event: string;
  readonly matcher: string | undefined;
  readonly name: string | undefined;
  readonly command: string;
  readonly host: string;
  /** Milliseconds, as Gemini CLI reads it. */
  readonly timeout: number | undefined;
}

/**
 * Gemini CLI: an AfterTool hook whose matcher takes invoke_agent and whose command runs
 * `returnlint hook gemini` from the project; a folder Gemini trusts (else it reads no project
 * setting and runs no project hook, without a word); the project's agents acknowledged (else it
 * does not load them); hooks not turned off.
 */
export const geminiDoctor: HostDoctor = {
  host: "gemini",
  title: "Gemini CLI",
  present: (context) => readSettings(context.root, PROJECT_SETTINGS).kind !== "missing" || agentDefinitions(context.root).length > 0,
  check(context) {
    const lines: DoctorLine[] = [];
    const home = geminiHome(context);
    const project = readSettings(context.root, PROJECT_SETTINGS);
    const user = home === undefined ? undefined : shownFrom(readSettings(home, path.join(".gemini", "settings.json")), "~/.gemini/settings.json");
    const files = [project, ...(user === undefined ? [] : [user])];
    for (const settings of files) if (settings.kind === "broken") lines.push(settings.line);

    lines.push(trustLine(context, home, user));
    const registered: Registered[] = [];
    const disabled = new Set<unknown>();
    for (const settings of files) {
      if (settings.kind !== "object") continue;
      const hooksConfig = isObject(settings.value.hooksConfig) ? settings.value.hooksConfig : {};
      if (hooksConfig.enabled === false) lines.push({ level: "fail", text: `${settings.file} sets "hooksConfig.enabled": false: Gemini CLI runs no hook at all` });
      // Gemini CLI joins the lists of every settings file.
      for (const entry of Array.isArray(hooksConfig.disabled) ? hooksConfig.disabled : []) disabled.add(entry);
      registered.push(...hooksIn(settings.file, settings.value.hooks));
    }
    for (const hook of registered.filter((one) => one.host === "gemini" && (disabled.has(one.name) || disabled.has(one.command)))) {
      lines.push({ level: "fail", text: `"hooksConfig.disabled" lists the returnlint hook of ${hook.file}: Gemini CLI skips it` });
    }
    const config = configLine(context);
    if (config !== undefined) lines.push(config);

    for (const hook of registered.filter((one) => one.host !== "gemini")) {
      lines.push({ level: "fail", text: `${hook.file} runs "returnlint hook ${hook.host}" on ${hook.event}: that is the hook for another host, which reads another payload; Gemini CLI's is "returnlint hook gemini"` });
    }
    for (const hook of registered.filter((one) => one.host === "gemini" && one.event !== "AfterTool")) {
      lines.push({ level: "fail", text: `${hook.file} runs returnlint on ${hook.event}: Gemini CLI has no subagent-stop event, and only AfterTool of ${AGENT_TOOL} sees what a subagent returns; register it under "AfterTool"` });
    }
    const afterTool = registered.filter((one) => one.host === "gemini" && one.event === "AfterTool");
    for (const hook of afterTool.filter((one) => !matches(one.matcher, AGENT_TOOL))) {
      lines.push({ level: "fail", text: `${hook.file}'s AfterTool matcher "${hook.matcher ?? ""}" never takes ${AGENT_TOOL}, the parent's call of a subagent: subagents return unchecked; set it to "${AGENT_TOOL}"` });
    }
    const running = afterTool.filter((one) => matches(one.matcher, AGENT_TOOL));
    if (running.length === 0) {
      if (afterTool.length === 0) lines.push({ level: "fail", text: `no AfterTool hook runs "returnlint hook gemini" in ${PROJECT_SETTINGS} or ~/.gemini/settings.json: subagents return unchecked; run "returnlint init gemini"` });
      return lines;
    }
    for (const hook of running.filter((one) => one.timeout !== undefined && one.timeout < MIN_TIMEOUT_MS)) {
      lines.push({ level: "fail", text: `${hook.file} gives the returnlint hook "timeout": ${String(hook.timeout)}, which Gemini CLI reads in milliseconds: it stops the hook before it can answer, and the return goes through unchecked; use ${String(GEMINI_HOOK_TIMEOUT_MS)}` });
    }
    for (const hook of running) {
      lines.push(
        hook.matcher === AGENT_TOOL
          ? { level: "ok", text: `${hook.file} runs returnlint when a subagent returns (AfterTool, matcher "${AGENT_TOOL}")` }
          : { level: "warn", text: `${hook.file} runs returnlint after ${hook.matcher === undefined ? "every tool call" : `every tool call "${hook.matcher}" matches`}, not only ${AGENT_TOOL}: a start of returnlint for each; the matcher "${AGENT_TOOL}" is enough` },
      );
    }

    const agents = checkedAgents(context, AGENTS_DIR, ".md", (line) => lines.push(line));
    if (agents.length === 0) {
      lines.push(noAgentChecked(`${AGENTS_DIR}/`));
    } else {
      lines.push({ level: "ok", text: `the hook checks the returns of ${andList(agents.map((agent) => `${agent.name} (/${agent.command})`))}` });
    }
    lines.push(...acknowledgmentLines(context, home, new Set(agents.map((agent) => agent.name))));
    lines.push(...mappedBuiltIns(context.config));

    if (context.config !== undefined) {
      for (const command of new Set(running.map((hook) => hook.command))) lines.push(probe(context, command));
    }
    return lines;
  },
};

/** Gemini CLI's home: GEMINI_CLI_HOME, else HOME (its ~/.gemini holds the user's settings, trusted folders and acknowledgments). */
function geminiHome(context: DoctorContext): string | undefined {
  const home = context.env.GEMINI_CLI_HOME ?? context.env.HOME;
  return home === undefined || home === "" ? undefined : home;
}

function shownFrom(read: SettingsRead, shown: string): SettingsRead {
  return read.kind === "broken" ? { ...read, file: shown, line: { ...read.line, text: read.line.text.replace(read.file, shown) } } : { ...read, file: shown };
}

/**
 * Whether Gemini CLI trusts the project's folder, as it decides: the environment first, then the
 * user's setting that turns folder trust off, then the longest rule of trustedFolders.json that
 * covers the folder. An untrusted folder's .gemini/settings.json is not read at all: no hook runs,
 * and an interactive session says nothing about it.
 */
function trustLine(context: DoctorContext, home: string | undefined, user: SettingsRead | undefined): DoctorLine {
  const untrustedEffect = "Gemini CLI then ignores .gemini/settings.json, its hooks included, and says nothing when a subagent returns (a headless run refuses to start)";
  if (context.env.GEMINI_RESTRICTED_MODE === "true" || context.env.GEMINI_CLI_TRUST_WORKSPACE === "false") {
    return { level: "fail", text: `this environment sets ${context.env.GEMINI_RESTRICTED_MODE === "true" ? "GEMINI_RESTRICTED_MODE=true" : "GEMINI_CLI_TRUST_WORKSPACE=false"}: the folder is untrusted, and ${untrustedEffect}` };
  }
  if (context.env.GEMINI_CLI_TRUST_WORKSPACE === "true") return { level: "ok", text: "the folder is trusted: this environment sets GEMINI_CLI_TRUST_WORKSPACE=true" };
  const security = user?.kind === "object" && isObject(user.value.security) ? user.value.security : {};
  if (isObject(security.folderTrust) && security.folderTrust.enabled === false) return { level: "ok", text: `the folder is trusted: ~/.gemini/settings.json turns folder trust off ("security.folderTrust.enabled": false)` };
  const file = context.env.GEMINI_CLI_TRUSTED_FOLDERS_PATH ?? (home === undefined ? undefined : path.join(home, ".gemini", "trustedFolders.json"));
  const shown = context.env.GEMINI_CLI_TRUSTED_FOLDERS_PATH ?? "~/.gemini/trustedFolders.json";
  const trustIt = `start gemini in ${context.root} and trust the folder when it asks, or set GEMINI_CLI_TRUST_WORKSPACE=true where it runs headless`;
  if (file === undefined) return { level: "fail", text: `no home folder is set (HOME), so no folder is trusted: ${untrustedEffect}; ${trustIt}` };
  const rules = trustedFolders(file);
  if (typeof rules === "string") return { level: "fail", text: `${shown} cannot be read (${rules}): Gemini CLI refuses to start until it is fixed` };
  const folder = realOrSame(context.root);
  let best: { readonly path: string; readonly level: string } | undefined;
  for (const [rule, level] of Object.entries(rules)) {
    const covered = realOrSame(level === "TRUST_PARENT" ? path.dirname(rule) : rule);
    const inside = path.relative(covered, folder);
    if ((inside === "" || (!inside.startsWith("..") && !path.isAbsolute(inside))) && rule.length > (best?.path.length ?? -1)) best = { path: rule, level };
  }
  if (best === undefined) return { level: "fail", text: `the folder is not trusted (no rule of ${shown} covers ${context.root}): ${untrustedEffect}; ${trustIt}` };
  if (best.level === "DO_NOT_TRUST") return { level: "fail", text: `${shown} marks ${best.path} DO_NOT_TRUST: ${untrustedEffect}; remove that rule and ${trustIt}` };
  return { level: "ok", text: `the folder is trusted: ${shown} marks ${best.path} ${best.level}` };
}

/** trustedFolders.json's rules (path → level); {} when there is none; a sentence when it cannot be read. Gemini CLI allows comments in it. */
function trustedFolders(file: string): Readonly<Record<string, string>> | string {
  let text: string;
  try {
    text = readRegularFile(file, { maxBytes: MAX_FILE_BYTES }).bytes.toString("utf8");
  } catch (error) {
    if (!(error instanceof FileRefusedError)) throw error;
    return error.kind === "missing" ? {} : error.reason;
  }
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/\/\*[\s\S]*?\*\/|^\s*\/\/.*$/gm, "")) as unknown;
  } catch (error) {
    return `it is not JSON: ${error instanceof Error ? error.message : String(error)}`;
  }
  if (!isObject(value)) return "it is not a JSON object";
  return Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === "string"));
}

function realOrSame(file: string): string {
  try {
    return realpathSync.native(file);
  } catch {
    return path.resolve(file);
  }
}

/** The definitions of .gemini/agents/ as Gemini CLI loads them: its `.md` files not starting with "_", each named by its frontmatter, with the hash it acknowledges. */
function agentDefinitions(root: string): { readonly name: string; readonly file: string; readonly hash: string }[] {
  let names: string[];
  try {
    names = readdirSync(path.join(root, AGENTS_DIR)).filter((name) => name.endsWith(".md") && !name.startsWith("_"));
  } catch {
    return [];
  }
  return names.sort().flatMap((name) => {
    let bytes: Buffer;
    try {
      bytes = readRegularFile(path.join(root, AGENTS_DIR, name), { maxBytes: MAX_FILE_BYTES }).bytes;
    } catch (error) {
      if (error instanceof FileRefusedError) return [];
      throw error;
    }
    const agent = /^---\r?\n(?:[\s\S]*?\r?\n)?name:\s*["']?([^"'\r\n]+?)["']?\s*\r?\n/.exec(bytes.toString("utf8"))?.[1] ?? name.slice(0, -3);
    return [{ name: agent, file: `${AGENTS_DIR}/${name}`, hash: createHash("sha256").update(bytes).digest("hex") }];
  });
}

/**
 * The checked agents of .gemini/agents/ that Gemini CLI will not load: not acknowledged as the
 * file is now (~/.gemini/acknowledgments/agents.json holds each file's hash per project), or named
 * like one of Gemini's own agents, which wins.
 */
function acknowledgmentLines(context: DoctorContext, home: string | undefined, checked: ReadonlySet<string>): DoctorLine[] {
  const defined = agentDefinitions(context.root).filter((agent) => checked.has(agent.name));
  const lines: DoctorLine[] = [];
  const shadowed = defined.filter((agent) => BUILT_IN_AGENTS.has(agent.name));
  for (const agent of shadowed) lines.push({ level: "warn", text: `${agent.file} is named ${agent.name}, like Gemini CLI's own agent, which Gemini CLI runs instead: rename it` });
  const own = defined.filter((agent) => !shadowed.includes(agent));
  if (own.length === 0 || home === undefined) return lines;
  const acknowledged = acknowledgments(path.join(home, ".gemini", "acknowledgments", "agents.json"));
  const forProject = acknowledged[context.root] ?? acknowledged[realOrSame(context.root)] ?? {};
  const missing = own.filter((agent) => !isObject(forProject) || forProject[agent.name] !== agent.hash);
  if (missing.length === 0) {
    lines.push({ level: "ok", text: `Gemini CLI loads ${andList(own.map((agent) => agent.name))}: acknowledged as ${own.length === 1 ? "its file is" : "their files are"} now` });
  } else {
    const names = andList(missing.map((agent) => agent.name));
    lines.push({
      level: "fail",
      text: `Gemini CLI does not load ${names}: ${missing.length === 1 ? "its file is" : "their files are"} not acknowledged as ${missing.length === 1 ? "it is" : "they are"} now (~/.gemini/acknowledgments/agents.json), so the parent cannot call ${missing.length === 1 ? "it" : "them"}; start gemini here and choose "Acknowledge and Enable" when it lists ${missing.length === 1 ? "it" : "them"}`,
    });
  }
  return lines;
}

function acknowledgments(file: string): Readonly<Record<string, unknown>> {
  try {
    const value = JSON.parse(readRegularFile(file, { maxBytes: 16 * 1024 * 1024 }).bytes.toString("utf8")) as unknown;
    return isObject(value) ? value : {};
  } catch {
    return {};
  }
}

function hooksIn(file: string, hooks: unknown): Registered[] {
  if (!isObject(hooks)) return [];
  return Object.entries(hooks).flatMap(([event, entries]) =>
    (Array.isArray(entries) ? entries : []).flatMap((entry: unknown) => {
      if (!isObject(entry) || !Array.isArray(entry.hooks)) return [];
      const matcher = typeof entry.matcher === "string" && entry.matcher.trim() !== "" ? entry.matcher.trim() : undefined;
      return entry.hooks.flatMap((hook: unknown) => {
        if (!isObject(hook) || typeof hook.command !== "string") return [];
        const host = RETURNLINT_HOOK.exec(hook.command)?.[1];
        const timeout = typeof hook.timeout === "number" ? hook.timeout : undefined;
        return host === undefined ? [] : [{ file, event, matcher, name: typeof hook.name === "string" ? hook.name : undefined, command: hook.command, host, timeout }];
      });
    }),
  );
}

/** Whether Gemini CLI's matcher takes the tool: none or "*" takes every tool; else a regular expression tested anywhere in the name, or the name itself when it is none. */
export function matches(matcher: string | undefined, tool: string): boolean {
  if (matcher === undefined || matcher === "*") return true;
  try {
    return new RegExp(matcher).test(tool);
  } catch {
    return matcher === tool;
  }
}

/**
 * The command run as Gemini CLI runs it: `$GEMINI_PROJECT_DIR` (and `$GEMINI_CWD`,
 * `$CLAUDE_PROJECT_DIR`) replaced in its text by the root quoted for the shell, the same in the
 * environment, in the root, with the AfterTool payload of a subagent the hook leaves alone.
 */
function probe(context: DoctorContext, command: string): DoctorLine {
  const quoted = `'${context.root.replaceAll("'", "'\\''")}'`;
  const expanded = command.replace(/\$(?:GEMINI_PROJECT_DIR|GEMINI_CWD|CLAUDE_PROJECT_DIR)\b/g, () => quoted);
  const env = { ...context.env, GEMINI_PROJECT_DIR: context.root, GEMINI_CWD: context.root, CLAUDE_PROJECT_DIR: context.root, GEMINI_SESSION_ID: "returnlint-doctor" };
  const line = probeHookCommand({
    command: expanded,
    cwd: context.root,
    env,
    payload: {
      session_id: "returnlint-doctor",
      cwd: context.root,
      hook_event_name: "AfterTool",
      tool_name: AGENT_TOOL,
      tool_input: { agent_name: PROBE_AGENT, prompt: "" },
      tool_response: { llmContent: [{ text: "" }], returnDisplay: { isSubagentProgress: true, agentName: PROBE_AGENT, recentActivity: [], state: "completed", result: "", terminateReason: "GOAL" } },
    },
  });
  return expanded === command ? line : { ...line, text: line.text.replace(expanded, command) };
}
