// The examples in README.md and docs/*.md, run against the built CLI and compared with the text shown,
// so that the docs cannot drift from what returnlint does. How to write an example that is checked, and
// how to mark one that is not runnable on its own, is said in README.md ("Examples in the docs are tested").
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, readdirSync, readFileSync, realpathSync, chmodSync, mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { tempProject } from "@returnlint/testing";
import { examplesOf, expectedExit, forbiddenProgram, matches, normalize, parseMarker, splitCommands, type Example } from "./doc-examples.js";

const REPO = fileURLToPath(new URL("..", import.meta.url));
const BIN = path.join(REPO, "apps", "cli", "dist", "returnlint.cjs");
/** README.md, every docs/*.md (whoever adds one) and every example's README. */
const DOCS = [
  "README.md",
  ...readdirSync(path.join(REPO, "docs")).filter((name) => name.endsWith(".md")).sort().map((name) => `docs/${name}`),
  ...readdirSync(path.join(REPO, "examples")).sort().map((name) => `examples/${name}/README.md`).filter((file) => existsSync(path.join(REPO, file))),
];

// `returnlint` on the PATH is the built CLI, as after `npm install returnlint`.
const scratch = tempProject({ "bin/returnlint": `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n` });
const bin = path.join(scratch, "bin");
chmodSync(path.join(bin, "returnlint"), 0o755);

const hasCommand = (name: string) => spawnSync("sh", ["-c", `command -v ${name}`]).status === 0;
/** What git sees changed in the repository: an example run there must leave it as it was. */
const repoState = () => spawnSync("git", ["status", "--porcelain", "--untracked-files=all"], { cwd: REPO, encoding: "utf8" }).stdout;

let copies = 0;
/**
 * Where an example runs: the repository (cwd=DIR below it), a fresh copy of DIR (copy=DIR) for
 * examples that write, or a fresh git repository that DIR's make-history.mjs builds (history=DIR).
 */
function workingDirectory(example: Example): string {
  const { copy, cwd, history } = example.marker;
  if (copy === undefined && history === undefined) return path.join(REPO, cwd ?? ".");
  const target = path.join(scratch, `copy-${String((copies += 1))}`, "project");
  if (history !== undefined) {
    const made = spawnSync(process.execPath, [path.join(REPO, history, "make-history.mjs"), target], { encoding: "utf8" });
    if (made.status !== 0) throw new Error(`${history}/make-history.mjs failed: ${made.stderr}`);
    return target;
  }
  mkdirSync(target, { recursive: true });
  if (copy !== undefined && copy !== "") cpSync(path.join(REPO, copy), target, { recursive: true, filter: (source) => !source.includes(`${path.sep}node_modules`) });
  return target;
}

/** What the shell prints after each command: its exit code, on a line no command prints. */
const MARK = "\u001e";
const SENTINEL = new RegExp(`\\n?${MARK}doc-test exit (\\d+)${MARK}\\n`);

/**
 * Runs the commands one after another in one shell, as a reader types them in one terminal (a
 * variable or a cd carries over), and returns each one's exit code and output.
 */
function run(commands: readonly string[], cwd: string): { status: number; output: string }[] {
  const unset = new Set(["FORCE_COLOR", "RETURNLINT_SESSION_ID", "RETURNLINT_DEBUG", "RETURNLINT_MAX_INPUT_BYTES", "RETURNLINT_RULE_TIMEOUT_MS"]);
  const env = {
    ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !unset.has(name))),
    PATH: `${bin}${path.delimiter}${process.env.PATH ?? ""}`,
    NO_COLOR: "1",
  };
  // Standard error goes where standard output goes, in the order they are written, as on a terminal.
  const script = ["exec 2>&1", ...commands.map((command) => `${command}\nprintf '\\n\\036doc-test exit %s\\036\\n' "$?"`)].join("\n");
  // coreutils' timeout signals the whole process group: nothing an example starts outlives it. No standard input: nothing waits for a keyboard.
  const result = spawnSync("timeout", ["-k", "5", "120", "bash", "-c", script], { cwd, env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  const parts = result.stdout.split(SENTINEL);
  const runs: { status: number; output: string }[] = [];
  for (let index = 0; index + 1 < parts.length; index += 2) runs.push({ output: parts[index] ?? "", status: Number(parts[index + 1]) });
  if (runs.length !== commands.length) throw new Error(`the shell stopped after ${String(runs.length)} of ${String(commands.length)} commands (exit ${String(result.status)}):\n${result.stdout}`);
  return runs;
}

/** The run's own directory reads as /project, in paths and in file URLs, so the docs can show it. */
function asShown(output: string, cwd: string): string {
  let text = output;
  for (const dir of new Set([realpathSync(cwd), cwd])) {
    text = text.split(pathToFileURL(dir).href).join("file:///project").split(dir).join("/project");
  }
  return normalize(text);
}

for (const file of DOCS) {
  const examples = examplesOf(readFileSync(path.join(REPO, file), "utf8"));
  describe(file, () => {
    if (examples.length === 0) it.skip("has no console or sh examples", () => undefined);
    for (const example of examples) {
      const title = `line ${String(example.line)}: ${example.commands[0]?.command.split("\n")[0] ?? "(empty)"}`.slice(0, 140);
      if (example.marker.skip !== undefined) {
        it.skip(`${title} (not runnable on its own: ${example.marker.skip})`, () => undefined);
        continue;
      }
      const missing = example.commands.flatMap(({ command }) => (/\bjq\b/.test(command) && !hasCommand("jq") ? ["jq"] : []));
      it.skipIf(missing.length > 0)(title, () => {
        for (const { command } of example.commands) {
          const forbidden = forbiddenProgram(command);
          if (forbidden !== undefined) throw new Error(`"${forbidden}" is not run by the doc tests: mark the block <!-- doc-test: skip (why) --> (command: ${command})`);
        }
        const cwd = workingDirectory(example);
        const before = example.marker.copy === undefined && example.marker.history === undefined ? repoState() : undefined;
        const runs = run(example.commands.map(({ command }) => command), cwd);
        for (const [index, { command, expected }] of example.commands.entries()) {
          const { status, output } = runs[index] ?? { status: -1, output: "" };
          const exit = expectedExit(command, example.marker, example.language);
          if (exit !== undefined) expect(status, `exit code of: ${command}\n${output}`).toBe(exit);
          if (expected !== undefined) {
            const actual = asShown(output, cwd);
            if (!matches(actual, normalize(expected))) expect(actual, `output of: ${command}`).toBe(normalize(expected));
          }
        }
        if (before !== undefined) expect(repoState(), "an example run in the repository changed it: run it in a copy (doc-test: copy=DIR)").toBe(before);
      }, 150_000);
    }
  });
}

describe("examples/", () => {
  it("every example folder has a README saying what it shows", () => {
    const folders = readdirSync(path.join(REPO, "examples"), { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
    expect(folders.length).toBeGreaterThan(5);
    expect(folders.filter((name) => !existsSync(path.join(REPO, "examples", name, "README.md")))).toEqual([]);
  });
});

describe("the doc-test parser", () => {
  it("reads markers, splits commands and outputs, and matches … wildcards", () => {
    expect(parseMarker("<!-- doc-test: skip (needs a subagent's return in $subagent_return) -->")).toEqual({ skip: "needs a subagent's return in $subagent_return" });
    expect(parseMarker("<!-- doc-test: cwd=examples/metadata-file exit=1 -->")).toEqual({ cwd: "examples/metadata-file", exit: 1 });
    expect(parseMarker("<!-- doc-test: copy= -->")).toEqual({ copy: "" });
    expect(parseMarker("<!-- hosts-suite: install-global -->").skip).toContain('pnpm test:hosts runs it as "install-global"');
    expect(parseMarker("<!-- doc-test: history=examples/audit exit=1 -->")).toEqual({ history: "examples/audit", exit: 1 });
    expect(() => parseMarker("<!-- doc-test: skip -->")).toThrow("a skip needs a reason");
    expect(() => parseMarker("<!-- doc-test: cdw=x -->")).toThrow('unknown doc-test setting "cdw"');
    expect(splitCommands("console", "$ returnlint a \\\n  --b\nout 1\nout 2\n$ returnlint c\n")).toEqual([
      { command: "returnlint a \\\n  --b", expected: "out 1\nout 2" },
      { command: "returnlint c", expected: "" },
    ]);
    expect(splitCommands("sh", "# a comment\nreturnlint a   # trailing\nreturnlint b \\\n  --c\n\nif x; then\n  y\nfi\n")).toEqual([{ command: "# a comment\nreturnlint a   # trailing\nreturnlint b \\\n  --c\n\nif x; then\n  y\nfi" }]);
    expect(splitCommands("sh", "returnlint a   # prose\nreturnlint b \\\n  --c\n")).toEqual([{ command: "returnlint a   # prose" }, { command: "returnlint b \\\n  --c" }]);
    expect(matches("a\nb\nc\nd", "a\n…\nd")).toBe(true);
    expect(matches("a\nd", "a\n…\nd")).toBe(true);
    expect(matches(normalize("rule x took 12 ms"), normalize("rule … took 3 ms"))).toBe(true);
    expect(matches("a\nb", "a\nc")).toBe(false);
    expect(expectedExit("returnlint check x   # exits 1: prose", {})).toBe(1);
    expect(expectedExit("returnlint check x", {})).toBe(0);
    expect(expectedExit("returnlint check x", {}, "console")).toBeUndefined();
    expect(expectedExit("returnlint check x   # exits 1", { exit: 2 })).toBe(2);
    expect(normalize("in 0.42 s, at 2026-01-28T10:30:00.123Z  \n\n")).toBe("in <duration>, at <time>");
  });

  it("runs returnlint and the shell's helpers only: anything else must be marked skip", () => {
    for (const allowed of [
      "returnlint check x.json --format json | jq '.results[]'",
      "pnpm returnlint check examples/not-json/return.txt   # prose; pnpm install would be refused",
      "cd examples/metadata-file && node ../../apps/cli/dist/returnlint.js check --task 259",
      'if ! problems=$(printf \'%s\' "$r" | returnlint check - --format reask); then\n  retry="$problems"\nfi',
      "RETURNLINT_CORPUS=/c pnpm corpus",
    ]) {
      expect(forbiddenProgram(allowed), allowed).toBeUndefined();
    }
    expect(forbiddenProgram("pnpm install && pnpm build && pnpm returnlint check x")).toBe("pnpm install");
    expect(forbiddenProgram("pnpm changeset version")).toBe("pnpm changeset");
    expect(forbiddenProgram("pnpm release")).toBe("pnpm release");
    expect(forbiddenProgram("returnlint check x | sh")).toBe("sh");
    expect(forbiddenProgram("(command -v pnpm || npm install -g pnpm)")).toBe("command");
    expect(forbiddenProgram('x="$(pnpm release)"; returnlint check -')).toBe("pnpm release");
  });
});
