import { accessSync, constants, statSync } from "node:fs";
import path from "node:path";
import { FileRefusedError, isObject, readRegularFile } from "@returnlint/core";
import { BUILT_IN_AGENTS, commandForAgent } from "@returnlint/api";
import { CURSOR_AGENTS_DIR, CURSOR_HOOKS_FILE, runsCursorHook } from "../commands/init-cursor.js";
import { agentFiles, lstatOrUndefined } from "../commands/init-settings.js";
import type { DoctorContext, DoctorLine, HostDoctor } from "./host-doctor.js";

// What `returnlint doctor` checks of a project's Cursor setup, in the order a person fixes it: the
// hooks file, the event returnlint is registered for, the command Cursor runs, the agents the
// matcher lets through, and what Cursor does not do (cloud agents run no stop hooks).

const HOOKS_FILE = CURSOR_HOOKS_FILE.join("/");
/** A hooks file is a few kilobytes; a larger one is not read. */
const MAX_HOOKS_BYTES = 4 * 1024 * 1024;
/** The hook's own bound when its command sets none (`returnlint hook --help`). */
const DEFAULT_MAX_BLOCKS = 3;
/** Cursor's loop_limit when an entry sets none. */
const CURSOR_DEFAULT_LOOP_LIMIT = 5;
/** Where Cursor's cloud agents (its background agents) are set up in a project. */
const CLOUD_AGENTS_FILE = ".cursor/environment.json";

const ok = (text: string): DoctorLine => ({ level: "ok", text });
const warn = (text: string): DoctorLine => ({ level: "warn", text });
const fail = (text: string): DoctorLine => ({ level: "fail", text });

type HookEntry = Readonly<Record<string, unknown>>;

export const cursorDoctor: HostDoctor = {
  host: "cursor",
  title: "Cursor",
  present: (context) => lstatOrUndefined(path.join(context.root, ...CURSOR_HOOKS_FILE)) !== undefined,
  check(context) {
    const hooks = readHooks(context.root);
    if (!("events" in hooks)) return [hooks.line];
    const lines: DoctorLine[] = [];
    const ours = (event: string) => entriesOf(hooks.events, event).filter((entry) => runsCursorHook(entry.command));
    const registered = ours("subagentStop");
    const entry = registered[0];
    if (entry === undefined) {
      const claudeHook = entriesOf(hooks.events, "subagentStop").find((candidate) => typeof candidate.command === "string" && /returnlint(?:\.cjs)?"?\s+hook claude\b/.test(candidate.command));
      if (claudeHook !== undefined) return [fail(`${HOOKS_FILE} runs returnlint's Claude Code hook on subagentStop ("${String(claudeHook.command)}"): Cursor's payload is not Claude Code's, so every stop is let through unchecked. Run "returnlint init cursor", which writes "hook cursor".`)];
      const why =
        ours("SubagentStop").length > 0
          ? ` (it is registered for SubagentStop, Claude Code's name: Cursor's event is subagentStop)`
          : ours("stop").length > 0
            ? " (it is registered for stop only, whose payload carries no final message)"
            : "";
      return [fail(`returnlint is not registered for subagentStop in ${HOOKS_FILE}${why}: Cursor never runs it when a subagent stops. Run "returnlint init cursor".`)];
    }
    lines.push(ok(`returnlint runs when a subagent stops: ${HOOKS_FILE} registers "${String(entry.command)}" for subagentStop.`));
    if (registered.length > 1) lines.push(warn(`${HOOKS_FILE} registers returnlint ${String(registered.length)} times for subagentStop: each stop runs it that many times, and a failing return is sent back as many times. Keep one entry.`));
    if (ours("stop").length > 0) lines.push(warn(`returnlint is also registered for stop, whose payload carries no final message: every stop of the main agent is let through with a sentence. Remove that entry.`));
    const command = entry.command as string;
    lines.push(commandLine(command, context));
    if (context.configError !== undefined) lines.push(fail(`returnlint's config cannot be loaded (${context.configError}): the hook lets every stop through with a sentence. Fix the config.`));
    lines.push(...agentLines(entry, context), loopLine(entry, command));
    if (lstatOrUndefined(path.join(context.root, CLOUD_AGENTS_FILE)) !== undefined) {
      lines.push(warn(`This project sets up Cursor's cloud agents (${CLOUD_AGENTS_FILE}), which run no stop hooks: their subagents' returns are never checked there. Gate that work on "returnlint check" instead.`));
    }
    return lines;
  },
};

/** The hooks file's `hooks` object, or the line saying why Cursor cannot use it. */
function readHooks(root: string): { readonly events: Readonly<Record<string, unknown>> } | { readonly line: DoctorLine } {
  let text: string;
  try {
    text = readRegularFile(path.join(root, ...CURSOR_HOOKS_FILE), { maxBytes: MAX_HOOKS_BYTES }).bytes.toString("utf8");
  } catch (error) {
    if (!(error instanceof FileRefusedError)) throw error;
    if (error.kind === "missing") return { line: fail(`There is no ${HOOKS_FILE}: Cursor runs no hook in this project. Run "returnlint init cursor".`) };
    return { line: fail(`Cursor cannot read ${HOOKS_FILE}: ${error.reason}.`) };
  }
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (error) {
    return { line: fail(`${HOOKS_FILE} is not JSON (${error instanceof Error ? error.message : String(error)}): Cursor loads none of its hooks. Fix it; "returnlint init cursor --dry-run" shows the entry.`) };
  }
  if (!isObject(value) || !isObject(value.hooks)) return { line: fail(`${HOOKS_FILE} has no "hooks" object: Cursor runs none of its hooks. Run "returnlint init cursor".`) };
  if (value.version !== 1) {
    const says = value.version === undefined ? `has no "version"` : `says "version": ${JSON.stringify(value.version)}`;
    return { line: fail(`${HOOKS_FILE} ${says}; Cursor reads hooks files of version 1. Set "version": 1.`) };
  }
  return { events: value.hooks };
}

function entriesOf(events: Readonly<Record<string, unknown>>, event: string): HookEntry[] {
  const entries = Object.hasOwn(events, event) ? events[event] : undefined;
  return Array.isArray(entries) ? entries.filter(isObject) : [];
}

/**
 * Whether the command Cursor runs finds returnlint: Cursor runs a project's hooks with the shell, in
 * the project's root, with CURSOR_PROJECT_DIR set to it.
 */
function commandLine(command: string, context: DoctorContext): DoctorLine {
  const expanded = command.replace(/\$\{CURSOR_PROJECT_DIR(?::-[^}]*)?\}|\$CURSOR_PROJECT_DIR\b/g, context.root);
  const words = shellWords(expanded);
  const unresolvable = (what: string) =>
    fail(`Cursor cannot run the hook: ${what}. Every subagent stop then fails the hook, and the return reaches the parent unchecked. Run "returnlint init cursor" (it writes a copy of returnlint where none is installed).`);
  if (/[;&|`]|\$[({A-Za-z_]/.test(expanded) || words === undefined) return warn(`The hook's command "${command}" is more than a program and its arguments: doctor cannot tell whether it finds returnlint. Run it from the project's root to see.`);
  const [program = "", ...args] = words;
  if (program === "node") {
    if (lookUp("node", context) === undefined) return unresolvable("node is not on the PATH it runs with");
    const file = path.resolve(context.root, args[0] ?? "");
    return isFile(file) ? ok(`The hook's command resolves: node runs ${path.relative(context.root, file)}.`) : unresolvable(`node would run ${path.relative(context.root, file)}, which does not exist`);
  }
  if (program === "npx") {
    const bin = path.join(context.root, "node_modules", ".bin", "returnlint");
    if (!isFile(bin)) return unresolvable("npx finds no returnlint in node_modules");
    return warn(`The hook's command starts npx, which costs every stop about ten times what "node" on returnlint's file does. Run "returnlint init cursor" to write the node command.`);
  }
  const found = program.includes("/") ? (isFile(path.resolve(context.root, program)) ? program : undefined) : lookUp(program, context);
  return found === undefined ? unresolvable(`"${program}" is not found from the project's root or on PATH`) : ok(`The hook's command resolves: ${program}.`);
}

/** The agents returnlint checks, and whether the entry's matcher lets each through; the host's own agents named by the config. */
function agentLines(entry: HookEntry, context: DoctorContext): DoctorLine[] {
  const config = context.config;
  const defined = agentFiles(context.root, CURSOR_AGENTS_DIR, ".md", () => undefined);
  const named = Object.keys(config?.config.agents ?? {});
  const checked = [...new Set([...defined, ...named])].filter((agent) => commandForAgent(config, agent) !== null).sort();
  const lines: DoctorLine[] = [];
  const matcher = entry.matcher;
  const list = checked.join(", ");
  if (checked.length === 0) {
    lines.push(warn(`No agent of this project maps to a command (${CURSOR_AGENTS_DIR}/*.md, the config's "agents" map): the hook checks nothing. Name your agents in the config's "agents" map.`));
  } else if (matcher === undefined || matcher === "" || matcher === "*") {
    lines.push(ok(`No matcher: the hook runs for every subagent and checks ${list}; the others map to no command and go through.`));
  } else if (typeof matcher !== "string") {
    lines.push(fail(`The entry's "matcher" is not a string: Cursor rejects the hooks file. Run "returnlint init cursor".`));
  } else {
    let pattern: RegExp | undefined;
    try {
      pattern = new RegExp(matcher);
    } catch (error) {
      lines.push(fail(`The matcher "${matcher}" is no regular expression (${error instanceof Error ? error.message : String(error)}): Cursor rejects the hooks file. Run "returnlint init cursor".`));
    }
    if (pattern !== undefined) {
      const missed = checked.filter((agent) => !pattern.test(agent));
      lines.push(
        missed.length === 0
          ? ok(`The matcher "${matcher}" lets through every agent returnlint checks: ${list}.`)
          : fail(`The matcher "${matcher}" leaves out ${missed.join(", ")}: Cursor never runs the hook when ${missed.length === 1 ? "it stops" : "they stop"}, so ${missed.length === 1 ? "its returns are" : "their returns are"} never checked. Run "returnlint init cursor" to list them.`),
      );
    }
  }
  const ownNamed = named.filter((agent) => BUILT_IN_AGENTS.has(agent) && commandForAgent(config, agent) !== null);
  lines.push(
    ownNamed.length === 0
      ? ok("Cursor's own agents (generalPurpose, explore, shell, …) answer in prose and are left alone.")
      : warn(
          `The config's "agents" map names ${ownNamed.join(", ")}, ${ownNamed.length === 1 ? "an agent Cursor ships, which answers in prose: its returns are" : "agents Cursor ships, which answer in prose: their returns are"} checked and sent back. Remove ${ownNamed.length === 1 ? "it" : "them"} from the map unless you mean it.`,
        ),
  );
  return lines;
}

/** Cursor's bound on the follow-ups the entry sends, beside the hook's own --max-blocks. */
function loopLine(entry: HookEntry, command: string): DoctorLine {
  const maxBlocks = Number(/--max-blocks[=\s]+(\d+)/.exec(command)?.[1] ?? DEFAULT_MAX_BLOCKS);
  const limit = entry.loop_limit === undefined ? CURSOR_DEFAULT_LOOP_LIMIT : entry.loop_limit;
  if (limit === null) return warn(`loop_limit is null: nothing on Cursor's side bounds the follow-ups; returnlint's --max-blocks (${String(maxBlocks)}) bounds each subagent's blocks, but not a --fail-closed hold on a payload it cannot read.`);
  if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1) return fail(`loop_limit is ${JSON.stringify(limit)}: Cursor takes a positive whole number or null, and rejects the hooks file otherwise.`);
  const shown = entry.loop_limit === undefined ? `loop_limit is unset (Cursor's default, ${String(limit)})` : `loop_limit is ${String(limit)}`;
  return limit < maxBlocks
    ? warn(`${shown}, below the hook's --max-blocks (${String(maxBlocks)}): Cursor stops delivering returnlint's follow-ups after ${String(limit)}, and the failing return then reaches the parent though its verdict says "block". Raise loop_limit.`)
    : ok(`${shown}, at least the hook's --max-blocks (${String(maxBlocks)}): returnlint's bound comes first.`);
}

/** A command's words as the shell would split them (quotes removed), or undefined for an unclosed quote. */
function shellWords(command: string): string[] | undefined {
  const words: string[] = [];
  let word: string | undefined;
  let quote: string | undefined;
  for (const char of command) {
    if (quote !== undefined) {
      if (char === quote) quote = undefined;
      else word = (word ?? "") + char;
    } else if (char === '"' || char === "'") {
      quote = char;
      word ??= "";
    } else if (/\s/.test(char)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else word = (word ?? "") + char;
  }
  if (quote !== undefined) return undefined;
  if (word !== undefined) words.push(word);
  return words;
}

/** The executable `name` on the PATH the host runs hooks with, or undefined. */
function lookUp(name: string, context: DoctorContext): string | undefined {
  for (const dir of (context.env.PATH ?? "").split(path.delimiter)) {
    if (dir === "") continue;
    const file = path.join(dir, name);
    try {
      accessSync(file, constants.X_OK);
      if (statSync(file).isFile()) return file;
    } catch {
      // Not there, or not runnable: the next folder.
    }
  }
  return undefined;
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}
