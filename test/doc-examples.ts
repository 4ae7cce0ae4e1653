// Reads the runnable examples out of a markdown document, for docs.test.ts.
//
// - A ```console block is a terminal session: a line starting with "$ " is a command (a trailing
//   backslash continues it on the next line), the lines after it, up to the next "$ ", are what it
//   prints (standard output and standard error, as a terminal shows them).
// - A ```sh block is commands whose output is not shown: each line is run on its own (comments and
//   blank lines skipped, backslash continuations joined), or the whole block as one script when it
//   holds shell compound commands (if, for, while, case, functions).
// - An HTML comment on the line before the fence sets how the example runs:
//   <!-- doc-test: skip (why it is not runnable on its own) -->
//   <!-- hosts-suite: NAME -->   run by `pnpm test:hosts` (test/hosts/docs.ts reads the block by NAME):
//                                an install line or a host's config, checked there against the real thing
//   <!-- doc-test: cwd=examples/metadata-file -->   run there instead of the repository root
//   <!-- doc-test: copy=examples/metadata-file -->  run in a fresh copy of it (copy= : an empty directory), for examples that write
//   <!-- doc-test: history=examples/audit -->       run in a fresh git repository made by that folder's make-history.mjs
//   <!-- doc-test: exit=1 -->                       every command of the block exits 1
//   In a sh block, a comment after a command saying "exits N" (`… # exits 1: no JSON`) sets its own;
//   a sh command must exit 0 otherwise. A console block's exit codes are checked only when a marker
//   gives one: what it prints is what it shows.
// - The commands of a block run one after another in one shell, as typed in one terminal.
// - Only returnlint runs: a command may call `returnlint`, `pnpm returnlint`, `pnpm corpus`,
//   `node …returnlint…`, and the shell's own helpers (cd, printf, echo, jq, …). Anything else
//   (`pnpm install`, `pnpm test`, `pnpm release`, `npx …`) fails the test until the block is marked
//   skip: an example must never install, publish or recurse into the test suite by accident.
// - In the shown output, "…" stands for anything: alone on a line, for any number of lines; inside a
//   line, for any text in it. The run's directory is shown as /project; durations and timestamps are
//   compared as <duration> and <time>.

export interface Marker {
  readonly skip?: string;
  readonly cwd?: string;
  readonly copy?: string;
  /** A folder whose make-history.mjs builds the git repository the example runs in. */
  readonly history?: string;
  readonly exit?: number;
}

export interface Command {
  readonly command: string;
  /** What the command prints, for console blocks; undefined for sh blocks (only the exit code is checked). */
  readonly expected?: string;
}

export interface Example {
  /** The line of the opening fence, 1-based. */
  readonly line: number;
  readonly language: "console" | "sh";
  readonly marker: Marker;
  readonly commands: readonly Command[];
}

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([\w-]*)/;
const MARKER = /^<!--\s*doc-test:\s*(.*?)\s*-->$/;
const HOSTS_SUITE = /^<!--\s*hosts-suite:\s*(\S+)\s*-->$/;
const COMPOUND = /^\s*(?:if|for|while|until|case|function)\b|^\s*[\w-]+\s*\(\)\s*\{/m;

export function parseMarker(line: string): Marker {
  const hosted = HOSTS_SUITE.exec(line.trim())?.[1];
  if (hosted !== undefined) return { skip: `pnpm test:hosts runs it as "${hosted}", against the real host or a loopback registry` };
  const body = MARKER.exec(line.trim())?.[1];
  if (body === undefined) return {};
  const skip = /^skip\b\s*(.*)$/.exec(body);
  if (skip !== null) {
    const reason = (skip[1] ?? "").replace(/^[(:—-]\s*|\)$/g, "").trim();
    if (reason === "") throw new Error(`doc-test marker "${line.trim()}": a skip needs a reason`);
    return { skip: reason };
  }
  const marker: { cwd?: string; copy?: string; history?: string; exit?: number } = {};
  for (const setting of body.split(/\s+/).filter((part) => part !== "")) {
    const [name = "", value = ""] = setting.split("=", 2);
    if (name === "cwd") marker.cwd = value;
    else if (name === "copy") marker.copy = value;
    else if (name === "history") marker.history = value;
    else if (name === "exit" && /^\d+$/.test(value)) marker.exit = Number(value);
    else throw new Error(`doc-test marker "${line.trim()}": unknown doc-test setting "${name}"`);
  }
  return marker;
}

/** The commands of a block, with what each prints for console blocks. */
export function splitCommands(language: "console" | "sh", body: string): Command[] {
  const lines = body.replace(/\n$/, "").split("\n");
  if (language === "console") {
    const commands: { command: string; output: string[] }[] = [];
    for (let index = 0; index < lines.length; index += 1) {
      const line = lines[index] ?? "";
      if (line.startsWith("$ ")) {
        let command = line.slice(2);
        while (command.endsWith("\\") && index + 1 < lines.length) {
          index += 1;
          command += `\n${lines[index] ?? ""}`;
        }
        commands.push({ command, output: [] });
      } else commands.at(-1)?.output.push(line);
    }
    return commands.map(({ command, output }) => ({ command, expected: output.join("\n") }));
  }
  const script = lines.join("\n").trim();
  if (COMPOUND.test(script)) return [{ command: script }];
  const commands: Command[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    let command = lines[index] ?? "";
    if (command.trim() === "" || command.trim().startsWith("#")) continue;
    while (command.endsWith("\\") && index + 1 < lines.length) {
      index += 1;
      command += `\n${lines[index] ?? ""}`;
    }
    commands.push({ command });
  }
  return commands;
}

/** Every console and sh block of a markdown document, with the marker on the line before it. */
export function examplesOf(markdown: string): Example[] {
  const lines = markdown.split("\n");
  const examples: Example[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    const open = FENCE.exec(lines[index] ?? "");
    if (open === null) continue;
    const fence = open[1] ?? "```";
    const language = open[2] ?? "";
    const start = index;
    const body: string[] = [];
    for (index += 1; index < lines.length && !(lines[index] ?? "").trimStart().startsWith(fence); index += 1) body.push(lines[index] ?? "");
    if (language !== "console" && language !== "sh") continue;
    let before = start - 1;
    while (before >= 0 && (lines[before] ?? "").trim() === "") before -= 1;
    examples.push({ line: start + 1, language, marker: parseMarker(lines[before] ?? ""), commands: splitCommands(language, body.join("\n")) });
  }
  return examples;
}

/** Trailing spaces and blank lines dropped; durations and timestamps made comparable. */
export function normalize(text: string): string {
  return text
    .replace(/\r\n/g, "\n")
    .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?/g, "<time>")
    .replace(/\b\d+(?:\.\d+)?\s?(?:ms|s)\b/g, "<duration>")
    .split("\n")
    .map((line) => line.trimEnd())
    .join("\n")
    .replace(/\n+$/, "");
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Whether `actual` is `expected`, where "…" alone on a line stands for any lines and inside a line for any text. */
export function matches(actual: string, expected: string): boolean {
  const lines = expected.split("\n");
  let pattern = "";
  lines.forEach((line, index) => {
    const last = index === lines.length - 1;
    if (line.trim() === "…") pattern += last ? "[\\s\\S]*" : "(?:[^\\n]*\\n)*?";
    else pattern += line.split("…").map(escape).join("[^\\n]*?") + (last ? "" : "\\n");
  });
  return new RegExp(`^${pattern}$`).test(actual);
}

/** Programs an example may run besides returnlint itself: the shell's helpers and read-only tools. */
const HELPERS = new Set(["cd", "printf", "echo", "cat", "jq", "test", "[", "true", "false", "exit", "if", "then", "else", "elif", "fi", "!", "grep", "head", "tail", "wc", "sort", "ls"]);

/**
 * The first program in `command` that an example may not run, or undefined: each pipeline stage
 * and list element must start with returnlint (bare, `pnpm returnlint`, or `node` on a returnlint
 * file), `pnpm corpus`, or a helper.
 */
export function forbiddenProgram(command: string): string | undefined {
  // What runs inside $(…) and `…` counts too.
  for (const [, inner = ""] of command.matchAll(/\$\(([^()]*)\)|`([^`]*)`/g)) {
    const found = forbiddenProgram(inner);
    if (found !== undefined) return found;
  }
  const stripped = command
    .replace(/\\\n/g, " ")
    .replace(/\$\([^()]*\)|`[^`]*`/g, "X")
    .replace(/'[^']*'|"[^"]*"/g, "X")
    .replace(/#[^\n]*/g, "");
  for (const segment of stripped.split(/&&|\|\||[|;\n(){}]/)) {
    const words = segment.trim().split(/\s+/).filter((word) => word !== "" && !/^\w+=/.test(word));
    while (words[0] !== undefined && ["!", "if", "then", "else", "elif", "exec"].includes(words[0])) words.shift();
    const [program, first] = words;
    if (program === undefined || HELPERS.has(program) || program === "returnlint") continue;
    if (program === "pnpm" && (first === "returnlint" || first === "corpus")) continue;
    if (program === "node" && first !== undefined && /returnlint\.c?js$/.test(first)) continue;
    return program === "pnpm" || program === "npx" || program === "npm" ? `${program} ${first ?? ""}`.trim() : program;
  }
  return undefined;
}

/** The exit code a command must give: the marker's, else the "exits N" its comment states, else 0 in a sh block (undefined: any). */
export function expectedExit(command: string, marker: Marker, language: "console" | "sh" = "sh"): number | undefined {
  if (marker.exit !== undefined) return marker.exit;
  const stated = /#[^\n]*\bexits? (\d+)\b/.exec(command);
  if (stated !== null) return Number(stated[1]);
  return language === "sh" ? 0 : undefined;
}
