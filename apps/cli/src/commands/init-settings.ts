import { lstatSync, readdirSync, realpathSync } from "node:fs";
import path from "node:path";
import { codeOf, FileRefusedError, isReturnlintError, readRegularFile, ReturnlintError, type LoadedConfig } from "@returnlint/core";
import { commandForAgent, MAX_DEFINITION_BYTES, owesReturn } from "@returnlint/api";
import { loadReturnlintConfig } from "../host.js";
import { DuplicateKeyError, JsonText, type JsonNode, type JsonObjectNode } from "./init-json.js";

// What every `returnlint init HOST` shares: the change it plans to a file, and a host's JSON
// settings file opened for editing as text (init-json.ts), so that nothing else in it changes.

/** One file to write, and what the change is: "add …", said as "Would add …" or "Added …". */
export interface Change {
  /** The file as the user knows it (below the project's root). */
  readonly file: string;
  /** Where it is written: `root/<names…>`, a symlink's target when the file is one (inside the project). */
  readonly root: string;
  readonly names: readonly string[];
  /** Text, or bytes (the vendored copy's loader and pack). */
  readonly content: string | Buffer;
  readonly verb: "add" | "update" | "write";
  readonly what: string;
  /** A file too long to print whole (the vendored copy): --dry-run names it only. */
  readonly long?: boolean;
}

/** What `init HOST` plans: the changes (undefined: a file already as it should be), and what it says. */
export interface HostPlan {
  readonly changes: readonly (Change | undefined)[];
  /** Said when nothing changes: "… already runs returnlint". */
  readonly done: string;
  /** What the user does next, after the changes are written. */
  readonly next: string;
  /** One more line after "Next:", or "". */
  readonly offer?: string;
  /** What the host needs before it runs the hook at all (trusting the folder), said whether or not anything changed. */
  readonly reminder?: string;
}

/** The flags of `returnlint init HOST` beyond --dry-run and --help. */
export interface HostFlags {
  readonly vendor: boolean;
  readonly mcp: boolean;
  readonly local: boolean;
}

/** A host `returnlint init` sets up. */
export interface HostSetup {
  /** The flags it takes beyond --dry-run, and what to say when another is given. */
  readonly flags: Readonly<Partial<Record<keyof HostFlags, true>>>;
  plan(cwd: string, flags: HostFlags, warn: (line: string) => void): Promise<HostPlan>;
}

/** A host's settings file is a few kilobytes; a larger one is not read. */
const MAX_SETTINGS_BYTES = 4 * 1024 * 1024;
/** The vendored copy is a few megabytes; anything much larger by its name is not one. */
export const MAX_VENDORED_BYTES = 64 * 1024 * 1024;

/** A settings file init edits: as the user names it, where it is written, and its text (undefined: there is none yet). */
export interface SettingsFile {
  readonly file: string;
  readonly root: string;
  readonly names: readonly string[];
  readonly json: JsonText | undefined;
}

/**
 * Opens `cwd/<names…>` for editing. A symlink stays one: its target is edited, when it is a
 * file inside the project (the folder init was run in); one that leads outside, or nowhere, is
 * refused. Only a regular file is read (never a FIFO or a device), and only a JSON object.
 */
export function openSettings(cwd: string, names: readonly string[]): SettingsFile {
  const file = path.join(cwd, ...names);
  if (lstatOrUndefined(file) === undefined) return { file, root: cwd, names, json: undefined };
  let real: string;
  let root: string;
  try {
    root = realpathSync.native(cwd);
    real = realpathSync.native(file);
  } catch (error) {
    throw unreadable(file, codeOf(error) === "ENOENT" ? "it is a symbolic link to a file that does not exist" : `it cannot be resolved (${codeOf(error) ?? String(error)})`);
  }
  const relative = path.relative(root, real);
  if (relative === "" || relative.startsWith("..") || path.isAbsolute(relative)) {
    throw unreadable(file, `it is a symbolic link to ${real}, outside the project; edit that file yourself, or replace the link with a file`);
  }
  let text: string;
  try {
    text = readRegularFile(real, { maxBytes: MAX_SETTINGS_BYTES }).bytes.toString("utf8");
  } catch (error) {
    if (error instanceof FileRefusedError) throw unreadable(file, error.reason);
    throw error;
  }
  const json = JsonText.parse(text);
  if (typeof json === "string") throw unreadable(file, `it is not JSON (${json})${file.endsWith(".jsonc") ? "; comments cannot be kept, so add the entry by hand" : ""}`);
  if (json.root.kind !== "object") throw unreadable(file, "it is not a JSON object");
  return { file, root, names: relative.split(path.sep), json };
}

/**
 * The change to a settings file: `fresh` written as a new file when there is none, else the
 * edits `edit` makes to its text (undefined: nothing to change). A key written twice on the
 * way to what init edits is refused: which one the host reads is not init's to guess.
 */
export function edited(
  settings: SettingsFile,
  fresh: unknown,
  created: Pick<Change, "verb" | "what">,
  edit: (json: JsonText, root: JsonObjectNode) => Pick<Change, "verb" | "what"> | undefined,
): Change | undefined {
  const { file, root, names, json } = settings;
  if (json === undefined) return { file, root, names, content: `${JSON.stringify(fresh, null, 2)}\n`, ...created };
  let change: Pick<Change, "verb" | "what"> | undefined;
  try {
    change = edit(json, json.root as JsonObjectNode);
  } catch (error) {
    if (error instanceof DuplicateKeyError) throw unreadable(file, `${error.message}, and init cannot tell which one the host reads`);
    throw error;
  }
  return change === undefined ? undefined : { file, root, names, content: json.toString(), ...change };
}

/** The object or array at `key`; undefined when there is none, or null; a sentence when it is something else. */
export function containerAt<Kind extends "object" | "array">(settings: SettingsFile, parent: JsonObjectNode, key: string, kind: Kind, shown = key): Extract<JsonNode, { kind: Kind }> | undefined {
  const member = settings.json?.member(parent, key);
  if (member === undefined || (member.value.kind === "scalar" && settings.json?.value(member.value) === null)) return undefined;
  if (member.value.kind !== kind) throw unreadable(settings.file, `"${shown}" is not ${kind === "object" ? "an object" : "an array"}`);
  return member.value as Extract<JsonNode, { kind: Kind }>;
}

/** Sets `key` to `value`: a new member, or in place of a null. */
export function put(json: JsonText, parent: JsonObjectNode, key: string, value: unknown): void {
  const member = json.member(parent, key);
  if (member === undefined) json.addMember(parent, key, value);
  else json.replace(member.value, value);
}

export function lstatOrUndefined(file: string): ReturnType<typeof lstatSync> | undefined {
  try {
    return lstatSync(file);
  } catch {
    return undefined;
  }
}

/** The text of a regular file of at most `maxBytes`; undefined for anything else (nothing, a FIFO, a device, a larger file). */
export function readIfRegular(file: string, maxBytes: number): string | undefined {
  return bytesIfRegular(file, maxBytes)?.toString("utf8");
}

/** `readIfRegular`'s bytes. */
export function bytesIfRegular(file: string, maxBytes: number): Buffer | undefined {
  try {
    return readRegularFile(file, { maxBytes }).bytes;
  } catch (error) {
    if (error instanceof FileRefusedError) return undefined;
    throw error;
  }
}

export function unreadable(file: string, why: string): ReturnlintError {
  return new ReturnlintError("USAGE", `Cannot update ${file}: ${why}. init changes nothing.`);
}

// The project's agents

/** An agent of the project: its name, and its definition's text when it has a file of its own. */
export interface AgentDefinition {
  readonly name: string;
  readonly text?: string;
  /** Its definition names it (`name:` in its frontmatter, `name` in its TOML): false when its file's name stood in. */
  readonly named?: boolean;
}

/**
 * The agents returnlint checks: those `defined` in the host's folder and those of the config's
 * agents map, when they map to a command. `warn` names those whose definitions ask for no return
 * returnlint checks: the hook lets their prose through (`agentsOfProject`).
 */
export async function checkedAgents(cwd: string, defined: readonly AgentDefinition[], host: string, warn: (line: string) => void): Promise<string[]> {
  let config: LoadedConfig | undefined;
  try {
    config = await loadReturnlintConfig({ cwd });
  } catch (error) {
    if (!isReturnlintError(error)) throw error;
    throw new ReturnlintError(error.code, `${error.message} Fix it first: init ${host} reads its "agents" map.`, error.problems);
  }
  return agentsChecked(config, defined, warn).map((agent) => agent.name);
}

/** The agents a hook checks, with their commands (`agentsOfProject`); `warn` names those whose prose it lets through and those it leaves alone for want of a command. */
export function agentsChecked(config: LoadedConfig | undefined, defined: readonly AgentDefinition[], warn: (line: string) => void): { readonly name: string; readonly command: string }[] {
  const { checked, proseAllowed, unmapped } = agentsOfProject(config, defined);
  if (proseAllowed.length > 0) warn(proseAllowedLine(proseAllowed));
  if (unmapped.length > 0) warn(unmappedLine(unmapped));
  return checked;
}

/**
 * The agents a hook checks (`defined` ones and the config's agents map's, named for a command),
 * with the command each answers; the names of those whose prose it lets through: their
 * definitions ask for no return returnlint checks (api's `owesReturn`), so only a return they give
 * anyway is checked; and of those whose definitions do ask for one but whose names map to no
 * command, so that the hook leaves them alone. All sorted.
 */
export function agentsOfProject(
  config: LoadedConfig | undefined,
  defined: readonly AgentDefinition[],
): { readonly checked: { readonly name: string; readonly command: string }[]; readonly proseAllowed: string[]; readonly unmapped: string[] } {
  const texts = new Map<string, string | undefined>(Object.keys(config?.config.agents ?? {}).map((name) => [name, undefined]));
  for (const { name, text } of defined) if (texts.get(name) === undefined) texts.set(name, text);
  const owes = (name: string) => {
    const text = texts.get(name);
    return owesReturn({ config, agent: name, run: { wrote: [], ...(text === undefined ? {} : { definition: text }) } });
  };
  const checked: { readonly name: string; readonly command: string }[] = [];
  const proseAllowed: string[] = [];
  const unmapped: string[] = [];
  for (const name of [...texts.keys()].sort()) {
    const command = commandForAgent(config, name);
    if (command !== null) {
      checked.push({ name, command });
      if (!owes(name)) proseAllowed.push(name);
    } else if (texts.get(name) !== undefined && owes(name)) unmapped.push(name);
  }
  return { checked, proseAllowed, unmapped };
}

/** The sentence for the agents whose definitions ask for a return but whose names map to no command (`agentsOfProject`). */
export function unmappedLine(names: readonly string[]): string {
  const one = names.length === 1;
  return `the hook leaves ${one ? names[0] ?? "" : `${String(names.length)} agents (${someNames(names)})`} alone: ${one ? "its definition asks" : "their definitions ask"} for a return, but ${one ? "its name maps" : "their names map"} to no command (research, plan, revise, implement); map ${one ? "it" : "each"} to the command whose rules ${one ? "its returns follow" : "their returns follow"} in the config's "agents" map to check ${one ? "it" : "them"}.`;
}

/** The sentence for the agents whose prose a hook lets through (`agentsOfProject`). */
export function proseAllowedLine(names: readonly string[]): string {
  const one = names.length === 1;
  const which = one ? `of ${names[0] ?? ""} through: its definition asks` : `of ${String(names.length)} agents through (${someNames(names)}): their definitions ask`;
  return `the hook lets the prose ${which} for no return returnlint checks (no JSON return with a "status", no return file such as .return-meta.json), so it checks only a return ${one ? "that agent gives" : "they give"} anyway; name ${one ? "it" : "one"} in the config's "agents" map to hold it to a return.`;
}

/** The most agents a sentence names before it says how many more there are. */
const MAX_NAMED = 8;

/** `names` as a sentence lists them: at most MAX_NAMED, then how many more. */
export function someNames(names: readonly string[]): string {
  return names.length <= MAX_NAMED ? names.join(", ") : `${names.slice(0, MAX_NAMED).join(", ")} and ${String(names.length - MAX_NAMED)} more`;
}

/**
 * The definitions of `.claude/agents/` that Claude Code loads: it needs a `name` (and a
 * `description`) in the frontmatter. `warn` names the others, which it can run only through
 * `general-purpose`, whose stops the hook leaves alone. A file with no frontmatter at all (a
 * README) is no definition, and is not named.
 */
export function loadedByClaude(defined: readonly AgentDefinition[], warn: (line: string) => void): AgentDefinition[] {
  const unloaded = defined.filter((agent) => agent.named === false && agent.text?.startsWith("---") === true);
  const names = unloaded.map((agent) => agent.name).sort();
  if (names.length > 0) {
    const one = names.length === 1;
    warn(
      `Claude Code loads no agent from ${one ? `.claude/agents/${names[0] ?? ""}.md` : `${String(names.length)} definitions of .claude/agents/ (${someNames(names)})`}: ${one ? "its" : "their"} frontmatter has no "name:" (Claude Code needs a name and a description), so it runs ${one ? "it" : "them"} only through general-purpose, whose stops the hook leaves alone; the hook's matcher leaves ${one ? "it" : "them"} out.`,
    );
  }
  return defined.filter((agent) => !unloaded.includes(agent));
}

/** Where OpenCode reads a project's agents (its `agent/` folder, or `agents/`), with `{name}` for an agent's name: the other hosts' are their adapters' `definitionFiles`. */
export const OPENCODE_AGENT_DEFINITIONS: readonly string[] = [".opencode/agent/{name}.md", ".opencode/agents/{name}.md"];

/** A definition file's template (`.claude/agents/{name}.md`) as its folder and the ending of its file names. */
export function definitionFolder(template: string): readonly [string, string] {
  const at = template.indexOf("/{name}");
  return [template.slice(0, at), template.slice(at + "/{name}".length)];
}

/**
 * The agents defined in the project's folder `dir` (relative, with "/"), one per file ending in
 * `suffix`, each named by `nameIn` (default: its frontmatter's `name:`), else by the file's name,
 * with the definition's text. A definition that is no regular file (a FIFO, a link to /dev/zero) or
 * is too large is skipped, and said: it is never opened for reading.
 */
export function agentDefinitions(cwd: string, dir: string, suffix: string, warn: (line: string) => void, nameIn: (text: string, file: string) => string | undefined = frontmatterName): AgentDefinition[] {
  let files: string[];
  try {
    files = readdirSync(path.join(cwd, dir)).filter((name) => name.endsWith(suffix));
  } catch {
    return [];
  }
  return files.flatMap((name) => {
    let text: string;
    try {
      text = readRegularFile(path.join(cwd, dir, name), { maxBytes: MAX_DEFINITION_BYTES }).bytes.toString("utf8");
    } catch (error) {
      if (!(error instanceof FileRefusedError)) throw error;
      warn(`skipped the agent definition ${dir}/${name}: ${error.reason}.`);
      return [];
    }
    const given = nameIn(text, name);
    return [{ name: given ?? name.slice(0, -suffix.length), text, named: given !== undefined }];
  });
}

/** The names of the agents defined in the project's folder `dir` (`agentDefinitions`). */
export function agentFiles(cwd: string, dir: string, suffix: string, warn: (line: string) => void, nameIn?: (text: string, file: string) => string | undefined): string[] {
  return agentDefinitions(cwd, dir, suffix, warn, nameIn).map((agent) => agent.name);
}

/** A Markdown definition's frontmatter `name:`. */
function frontmatterName(text: string): string | undefined {
  return /^---\r?\n(?:[\s\S]*?\r?\n)?name:\s*["']?([^"'\r\n]+?)["']?\s*\r?\n/.exec(text)?.[1];
}

/**
 * A matcher Claude Code reads as intended: names of letters, digits, `_` and `-` joined by
 * `|` are compared as exact names; names with other characters (a plugin's `plugin:agent`)
 * need a regular expression, anchored so that it still means exactly these names.
 */
export function matcherFor(agents: readonly string[]): string | undefined {
  if (agents.length === 0) return undefined;
  if (agents.every((name) => /^[\w-]+$/.test(name))) return agents.join("|");
  return `^(${agents.map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})$`;
}

// A hook entry of `hooks.EVENT`

/** An entry of `hooks.EVENT` as Claude Code, Codex and Gemini CLI read it: a matcher and its hooks. */
interface HookEntry {
  matcher?: unknown;
  hooks?: unknown;
}

/**
 * The change to `settings` that puts returnlint's hook entry (`entry`, whose hooks run `command`)
 * under `hooks.EVENT`: added after the entries there, or, where an entry already runs returnlint's
 * hook (`ourHook` finds it), its matcher and command brought up to date, the options given after
 * `hook HOST` kept. Undefined when it is as it should be.
 */
export function hookEntryChange(
  settings: SettingsFile,
  input: {
    readonly event: string;
    readonly host: string;
    readonly entry: { readonly matcher?: string; readonly hooks: readonly unknown[] };
    readonly command: string;
    /** The hook of an entry's `hooks` that runs returnlint's, if any. */
    readonly ourHook: (hooks: unknown) => { readonly command: string } | undefined;
    readonly added: Pick<Change, "verb" | "what">;
    /** The matcher as the update's sentence says it. */
    readonly where: string;
    /** What the update's sentence adds ("; Codex skips it until you trust it again"). */
    readonly afterUpdate?: string;
  },
): Change | undefined {
  const { event, entry, command, ourHook, added } = input;
  const matcher = entry.matcher;
  const shown = settings.names.join("/");
  return edited(settings, { hooks: { [event]: [entry] } }, added, (json, root) => {
    const hooks = containerAt(settings, root, "hooks", "object");
    if (hooks === undefined) {
      put(json, root, "hooks", { [event]: [entry] });
      return added;
    }
    const entries = containerAt(settings, hooks, event, "array", `hooks.${event}`);
    if (entries === undefined) {
      put(json, hooks, event, [entry]);
      return added;
    }
    const ours = entries.elements.find((element): element is JsonObjectNode => element.kind === "object" && ourHook((json.value(element) as HookEntry).hooks) !== undefined);
    // Appended after the entries already there (Codex names a trusted hook by its place: theirs keep their trust).
    if (ours === undefined) {
      json.append(entries, entry);
      return added;
    }
    const current = json.value(ours) as HookEntry;
    const hook = ourHook(current.hooks);
    // The options given after `hook HOST` stay with the new command.
    const wanted = hook === undefined ? command : `${command}${optionsAfter(hook.command, input.host)}`;
    const updated = [...(current.matcher === matcher ? [] : ["matcher"]), ...(hook?.command === wanted ? [] : ["command"])];
    if (updated.length === 0) return undefined;
    if (current.matcher !== matcher) {
      const member = json.member(ours, "matcher");
      if (matcher === undefined) {
        if (member !== undefined) json.removeMember(ours, member);
      } else if (member === undefined) json.addFirstMember(ours, "matcher", matcher);
      else json.replace(member.value, matcher);
    }
    if (hook !== undefined && hook.command !== wanted) {
      const hookList = json.member(ours, "hooks")?.value;
      const index = Array.isArray(current.hooks) ? current.hooks.indexOf(hook) : -1;
      const hookNode = hookList?.kind === "array" ? hookList.elements[index] : undefined;
      const commandNode = hookNode?.kind === "object" ? json.member(hookNode, "command")?.value : undefined;
      if (commandNode !== undefined) json.replace(commandNode, wanted);
    }
    return { verb: "update", what: `the returnlint hook's ${updated.join(" and ")} in ${shown} (${updated.includes("command") ? `"${wanted}"` : input.where})${input.afterUpdate ?? ""}` };
  });
}

/** What follows the last `hook HOST` of a hook command: the options a user gave it. */
function optionsAfter(command: string, host: string): string {
  const marker = ` hook ${host}`;
  const at = command.lastIndexOf(marker);
  return at === -1 ? "" : command.slice(at + marker.length);
}
