import { createHash } from "node:crypto";
import { homedir } from "node:os";
import path from "node:path";
import { FileRefusedError, isObject, readRegularFile } from "@returnlint/core";
import { agentDefinitions, type AgentDefinition } from "./init-settings.js";

// What `init codex` and `doctor` read of Codex's own settings, read-only: its TOML files (the
// project's agents, the user's trust), how it matches a hook to an agent, and how it names and
// hashes a hook it trusts (codex-rs/hooks, Codex 0.169.0; test/hosts/codex.hosts.ts compares
// these with what the real binary reports).

/** A TOML file's tables and values, as far as returnlint reads them: arrays of tables are left out. */
export type TomlTable = { [key: string]: TomlValue };
export type TomlValue = string | number | boolean | TomlTable | TomlValue[];

/** A settings file is a few kilobytes; a larger one is not read. */
const MAX_TOML_BYTES = 4 * 1024 * 1024;

/** The text of a regular file, undefined when there is none; a sentence when it cannot be read as one. */
export function readSettingsText(file: string): string | undefined {
  try {
    return readRegularFile(file, { maxBytes: MAX_TOML_BYTES }).bytes.toString("utf8");
  } catch (error) {
    if (error instanceof FileRefusedError && error.kind === "missing") return undefined;
    throw error;
  }
}

/**
 * Reads TOML: tables (`[a."b".c]`), dotted keys, strings of the four kinds, numbers, booleans,
 * dates (kept as text), arrays and inline tables. Arrays of tables (`[[…]]`) are skipped with
 * what they hold. Throws a sentence naming the line on anything else.
 */
export function parseToml(text: string): TomlTable {
  const root: TomlTable = {};
  let table: TomlTable | undefined = root;
  let at = 0;
  let line = 1;
  const fail = (what: string): never => {
    throw new Error(`line ${String(line)}: ${what}`);
  };
  const skipSpace = (newlines: boolean) => {
    for (;;) {
      const char = text[at];
      if (char === " " || char === "\t" || char === "\r") at += 1;
      else if (char === "#") while (at < text.length && text[at] !== "\n") at += 1;
      else if (newlines && char === "\n") {
        at += 1;
        line += 1;
      } else return;
    }
  };
  const endOfLine = () => {
    skipSpace(false);
    if (at < text.length && text[at] !== "\n") fail(`unexpected "${text[at] ?? ""}"`);
  };
  const basicString = (): string => {
    const multi = text.startsWith('"""', at);
    at += multi ? 3 : 1;
    if (multi && text[at] === "\n") {
      at += 1;
      line += 1;
    }
    let value = "";
    for (;;) {
      if (at >= text.length) fail("a string is not closed");
      if (multi ? text.startsWith('"""', at) && text[at + 3] !== '"' : text[at] === '"') {
        at += multi ? 3 : 1;
        return value;
      }
      const char = text[at] ?? "";
      if (char === "\n") {
        if (!multi) fail("a string is not closed");
        line += 1;
      }
      if (char !== "\\") {
        value += char;
        at += 1;
        continue;
      }
      const escape = text[at + 1] ?? "";
      const simple: Record<string, string> = { b: "\b", t: "\t", n: "\n", f: "\f", r: "\r", '"': '"', "\\": "\\", e: "\u001b" };
      if (simple[escape] !== undefined) {
        value += simple[escape];
        at += 2;
      } else if (escape === "u" || escape === "U") {
        const digits = escape === "u" ? 4 : 8;
        value += String.fromCodePoint(Number.parseInt(text.slice(at + 2, at + 2 + digits), 16));
        at += 2 + digits;
      } else if (multi && /[ \t\r\n]/.test(escape)) {
        // A line-ending backslash joins the lines: the whitespace after it goes.
        at += 1;
        while (/[ \t\r\n]/.test(text[at] ?? "")) {
          if (text[at] === "\n") line += 1;
          at += 1;
        }
      } else fail(`unknown escape "\\${escape}"`);
    }
  };
  const literalString = (): string => {
    const multi = text.startsWith("'''", at);
    at += multi ? 3 : 1;
    if (multi && text[at] === "\n") {
      at += 1;
      line += 1;
    }
    const end = text.indexOf(multi ? "'''" : "'", at);
    if (end === -1 || (!multi && text.slice(at, end).includes("\n"))) fail("a string is not closed");
    const value = text.slice(at, end);
    line += value.split("\n").length - 1;
    at = end + (multi ? 3 : 1);
    return value;
  };
  const key = (): string[] => {
    const parts: string[] = [];
    for (;;) {
      skipSpace(false);
      const char = text[at];
      if (char === '"') parts.push(basicString());
      else if (char === "'") parts.push(literalString());
      else {
        const bare = /^[A-Za-z0-9_-]+/.exec(text.slice(at, at + 256))?.[0];
        if (bare === undefined) fail("expected a key");
        parts.push(bare ?? "");
        at += bare?.length ?? 0;
      }
      skipSpace(false);
      if (text[at] !== ".") return parts;
      at += 1;
    }
  };
  const value = (): TomlValue => {
    const char = text[at];
    if (char === '"') return basicString();
    if (char === "'") return literalString();
    if (char === "[") {
      at += 1;
      const items: TomlValue[] = [];
      for (;;) {
        skipSpace(true);
        if (text[at] === "]") break;
        items.push(value());
        skipSpace(true);
        if (text[at] === ",") at += 1;
        else if (text[at] !== "]") fail("expected , or ] in an array");
      }
      at += 1;
      return items;
    }
    if (char === "{") {
      at += 1;
      const inline: TomlTable = {};
      skipSpace(false);
      while (text[at] !== "}") {
        const names = key();
        if (text[at] !== "=") fail("expected =");
        at += 1;
        skipSpace(false);
        assign(inline, names, value());
        skipSpace(false);
        if (text[at] === ",") at += 1;
        else if (text[at] !== "}") fail("expected , or } in an inline table");
        skipSpace(false);
      }
      at += 1;
      return inline;
    }
    const token = /^[^\s,\]}#]+(?: [0-9:.+Z-]+)?/.exec(text.slice(at, at + 256))?.[0] ?? "";
    at += token.length;
    if (token === "true" || token === "false") return token === "true";
    const number = Number(token.replaceAll("_", ""));
    if (token !== "" && !Number.isNaN(number)) return number;
    if (/^\d{4}-\d{2}-\d{2}|^\d{2}:\d{2}/.test(token)) return token;
    return fail(`cannot read the value "${token}"`);
  };
  for (;;) {
    skipSpace(true);
    if (at >= text.length) return root;
    if (text.startsWith("[[", at)) {
      // An array of tables: nothing returnlint reads; its keys are skipped with it.
      at += 2;
      key();
      if (!text.startsWith("]]", at)) fail("expected ]]");
      at += 2;
      endOfLine();
      table = undefined;
    } else if (text[at] === "[") {
      at += 1;
      const names = key();
      if (text[at] !== "]") fail("expected ]");
      at += 1;
      endOfLine();
      table = tableAt(root, names, fail);
    } else {
      const names = key();
      if (text[at] !== "=") fail("expected =");
      at += 1;
      skipSpace(false);
      const read = value();
      if (table !== undefined) assign(table, names, read);
      endOfLine();
    }
  }
}

function tableAt(parent: TomlTable, names: readonly string[], fail: (what: string) => never): TomlTable {
  let table = parent;
  for (const name of names) {
    const next = Object.hasOwn(table, name) ? table[name] : (table[name] = {});
    if (!isObject(next) || Array.isArray(next)) return fail(`"${names.join(".")}" is not a table`);
    table = next;
  }
  return table;
}

function assign(table: TomlTable, names: readonly string[], value: TomlValue): void {
  const fail = (what: string): never => {
    throw new Error(what);
  };
  const last = names[names.length - 1] ?? "";
  tableAt(table, names.slice(0, -1), fail)[last] = value;
}

/** A table inside `table` by path, or undefined. */
export function tomlTable(table: TomlTable | undefined, ...names: string[]): TomlTable | undefined {
  let current: TomlValue | undefined = table;
  for (const name of names) {
    if (current === undefined || !isObject(current) || Array.isArray(current) || !Object.hasOwn(current, name)) return undefined;
    current = current[name];
  }
  return current !== undefined && isObject(current) && !Array.isArray(current) ? current : undefined;
}

/** Where Codex keeps the user's settings and trust: CODEX_HOME, else ~/.codex. */
export function codexHome(env: Readonly<Record<string, string | undefined>>): string {
  return env.CODEX_HOME !== undefined && env.CODEX_HOME !== "" ? env.CODEX_HOME : path.join(env.HOME ?? homedir(), ".codex");
}

/**
 * The project's own Codex agents: one per `.codex/agents/*.toml` (its `name`, else the file's
 * name) and each `[agents.NAME]` table of `.codex/config.toml` (the `[agents]` settings, such
 * as `max_threads`, are no agents), with the definition's text when it has a file of its own.
 */
export function codexAgents(cwd: string, warn: (line: string) => void): AgentDefinition[] {
  const defined = agentDefinitions(cwd, ".codex/agents", ".toml", warn, (text, file) => {
    try {
      const name = parseToml(text).name;
      return typeof name === "string" && name !== "" ? name : undefined;
    } catch (error) {
      warn(`read .codex/agents/${file} by its file name: it is not TOML returnlint can read (${error instanceof Error ? error.message : String(error)}).`);
      return undefined;
    }
  });
  const configFile = path.join(cwd, ".codex", "config.toml");
  let config: TomlTable | undefined;
  try {
    const text = readSettingsText(configFile);
    config = text === undefined ? undefined : parseToml(text);
  } catch (error) {
    warn(`skipped the agents of .codex/config.toml: ${error instanceof Error ? error.message : String(error)}.`);
  }
  const roles = Object.entries(tomlTable(config, "agents") ?? {}).flatMap(([name, role]) => (isObject(role) && !Array.isArray(role) ? [name] : []));
  const named = new Set(defined.map((agent) => agent.name));
  return [...defined, ...roles.filter((name) => !named.has(name)).map((name) => ({ name }))];
}

/**
 * Whether Codex's matcher runs a SubagentStop hook for an agent: none, "" or "*" matches every
 * agent; one made only of ASCII letters, digits, `_` and `|` is a list of exact names; anything
 * else is a regular expression found anywhere in the name (so `lean-research-agent`, with its
 * hyphens, is a pattern, and also matches `my-lean-research-agent-2`).
 */
export function codexMatches(matcher: string | undefined, agent: string): boolean {
  if (matcher === undefined || matcher === "" || matcher === "*") return true;
  if (EXACT_MATCHER.test(matcher)) return matcher.split("|").includes(agent);
  try {
    return new RegExp(matcher).test(agent);
  } catch {
    return false;
  }
}

const EXACT_MATCHER = /^[A-Za-z0-9_|]+$/;

/** A matcher that means exactly these agents to Codex: a list of names when it reads one as such, else an anchored pattern. */
export function codexMatcher(agents: readonly string[]): string | undefined {
  if (agents.length === 0) return undefined;
  if (agents.every((name) => /^[A-Za-z0-9_]+$/.test(name))) return agents.join("|");
  return `^(${agents.map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})$`;
}

/** A command hook as Codex reads it from hooks.json. */
export interface CodexCommandHook {
  readonly command: string;
  readonly timeout?: number;
  readonly async?: boolean;
  readonly statusMessage?: string;
}

/**
 * The name Codex gives a hook in its trust records (`hooks.state."<key>"` in the user's
 * config.toml): the hooks file, the event, the entry's index and the hook's index in it. Moving
 * the entry moves its key.
 */
export function codexHookKey(hooksFile: string, entry: number, hook: number): string {
  return `${hooksFile}:subagent_stop:${String(entry)}:${String(hook)}`;
}

/**
 * The hash Codex trusts a SubagentStop command hook by: SHA-256 of the hook's normalized
 * definition (the event, the entry's matcher, the hook with its timeout, 600 s when none is
 * given), as JSON with sorted keys. Any change to the command, the matcher or the timeout makes
 * it another hook, which Codex skips until it is trusted again.
 */
export function codexHookHash(matcher: string | undefined, hook: CodexCommandHook): string {
  const normalized = {
    type: "command",
    command: hook.command,
    timeout: Math.max(1, hook.timeout ?? 600),
    async: hook.async ?? false,
    ...(hook.statusMessage === undefined ? {} : { statusMessage: hook.statusMessage }),
  };
  const identity = { event_name: "subagent_stop", ...(matcher === undefined ? {} : { matcher }), hooks: [normalized] };
  return `sha256:${createHash("sha256").update(JSON.stringify(sorted(identity))).digest("hex")}`;
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((name) => [name, sorted(value[name])]),
  );
}
