import { spawnSync } from "node:child_process";
import { closeSync, mkdirSync, openSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { subagentStop, finalMessage } from "../claude-payloads.js";
import { BIN, failures, metadata, report, ruleModule, run, scratch, v7Return, write } from "./harness.js";

// Issue 15, "Wrong exit codes and labels", and issue 16's items 5 and 8 (home-relative paths,
// YAML positions). Exit codes stay 0, 1 or 2; what the environment refuses is said as such.

const INTERNAL = /internal error/;

describe("exit codes and labels under attack", { timeout: 120_000 }, () => {
  it("a rule that exhausts its heap: exit 2 naming the rule, not exit 134 with V8's trace", () => {
    const root = scratch();
    const body = "check() { const hoard = []; for (;;) hoard.push(new Array(1e6).fill(Math.random())); }";
    write(root, { "a.md": "# A\n", "rules/hog.mjs": ruleModule("hog", body), "r.json": v7Return(["a.md"]), "returnlint.config.json": { rules: { "./rules/hog.mjs": "error" } } });
    // Filling 512 MB takes seconds where fresh memory is slow (page faults on a loaded virtual
    // machine): a time limit far above it, so that running out of memory, not time, ends the rule.
    const ran = run(["check", "r.json", "--format", "json"], { cwd: root, timeout: 110_000, env: { RETURNLINT_RULE_TIMEOUT_MS: "100000" } });
    expect(ran.status).toBe(2);
    expect(ran.stderr).not.toMatch(/FATAL ERROR|JavaScript heap/);
    expect(report(ran).results.find((result) => result.ruleId === "hog")).toMatchObject({
      messageId: "ruleCrashed",
      detail: "Error: its check ran out of memory (a rule may use 512 MB)",
    });
  });

  it("the current directory deleted: check with absolute paths still works; the hook still decides (never exit 2)", () => {
    const root = scratch();
    write(root, { "a.md": "# A\n", "r.json": v7Return(["a.md"]) });
    const gone = path.join(root, "gone");
    const script = (args: readonly string[]) =>
      `const { spawnSync } = require("node:child_process"); process.chdir(${JSON.stringify(gone)}); require("node:fs").rmdirSync(${JSON.stringify(gone)});
const r = spawnSync(process.execPath, ${JSON.stringify([BIN, ...args])}, { input: process.argv[1] ?? "", encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
process.stdout.write(JSON.stringify({ status: r.status, stdout: r.stdout, stderr: r.stderr }));`;
    const inDeleted = (args: readonly string[], input = "") => {
      mkdirSync(gone);
      const child = spawnSync(process.execPath, ["-e", script(args), input], { encoding: "utf8", timeout: 20_000 });
      return JSON.parse(child.stdout) as { status: number; stdout: string; stderr: string };
    };
    const check = inDeleted(["check", path.join(root, "r.json"), "--root", root]);
    expect(check.stderr).toBe("");
    expect(check.status).toBe(0);
    const failingHook = inDeleted(["hook", "claude"], JSON.stringify(subagentStop({ cwd: root, agentType: "researcher", message: finalMessage(["missing.md"]) })));
    expect(failingHook.status).toBe(0);
    expect((JSON.parse(failingHook.stdout) as { decision: string }).decision).toBe("block");
    const passingHook = inDeleted(["hook", "claude"], JSON.stringify(subagentStop({ cwd: root, agentType: "researcher", message: finalMessage(["a.md"]) })));
    expect(passingHook).toMatchObject({ status: 0, stdout: "" });
  });

  it("--format response on a passing return with a million levels of nesting in errors: exit 0, the nesting kept", () => {
    const root = scratch();
    const deep = `${"[".repeat(1_000_000)}${"]".repeat(1_000_000)}`;
    const input = JSON.stringify(v7Return([], { status: "partial", errors: ["X"] })).replace('"X"', deep);
    const ran = run(["check", "-", "--format", "response"], { cwd: root, input, timeout: 60_000 });
    expect(ran.stderr).toBe("");
    expect(ran.status).toBe(0);
    expect(ran.stdout).toContain(`"errors":[${"[".repeat(1000)}`);
  });

  it("returnlint rules with a custom rule that has no meta.description: listed, no crash", () => {
    const root = scratch();
    const bare = 'export default { id: "bare", meta: { schema: { type: "object" }, messages: {} }, check() {} };\n';
    write(root, { "rules/bare.mjs": bare, "returnlint.config.json": { rules: { "./rules/bare.mjs": "warn" } } });
    const ran = run(["rules"], { cwd: root });
    expect(ran.stderr).toBe("");
    expect(ran.status).toBe(0);
    expect(ran.stdout).toMatch(/\.\/rules\/bare\.mjs .*\(no description in its meta\)/);
    expect(run(["rules", "--format", "json"], { cwd: root }).status).toBe(0);
  });

  it("a YAML alias bomb: a sentence about aliases (exit 2), not an internal error", () => {
    const root = scratch();
    const levels = ["a: &a [x, x, x, x, x, x, x, x, x]"];
    for (const [index, name] of ["b", "c", "d", "e", "f", "g", "h", "i"].entries()) levels.push(`${name}: &${name} [${Array.from({ length: 9 }, () => `*${"abcdefghi"[index] ?? "a"}`).join(", ")}]`);
    write(root, { "returnlint.config.yaml": `${levels.join("\n")}\n`, "r.json": v7Return([]) });
    const ran = run(["check", "r.json"], { cwd: root });
    expect(ran.status).toBe(2);
    expect(ran.stderr).not.toMatch(INTERNAL);
    expect(ran.stderr).toMatch(/^returnlint: Config .*returnlint\.config\.yaml is not a usable YAML config: its aliases \(\*name\) expand to more than a config could hold/);
  });

  it("a YAML syntax error names its real line and column (issue 16, item 8)", () => {
    const root = scratch();
    write(root, { "returnlint.config.yaml": "preset: v7\nrules:\n  artifacts: [error\ncommands: {}\n", "r.json": v7Return([]) });
    const ran = run(["check", "r.json"], { cwd: root });
    expect(ran.status).toBe(2);
    expect(ran.stderr).toMatch(/^returnlint: Config .*returnlint\.config\.yaml is not valid YAML: .* \(line 4, column 1\)\n$/);
  });

  it("YAML nested too deeply: a sentence that says so, not a stack overflow at line 1, column 1", () => {
    const root = scratch();
    write(root, { "returnlint.config.yaml": `rules: ${"[".repeat(100_000)}${"]".repeat(100_000)}\n`, "r.json": v7Return([]) });
    const ran = run(["check", "r.json"], { cwd: root, timeout: 60_000 });
    expect(ran.status).toBe(2);
    expect(ran.stderr).toBe(`returnlint: Config ${path.join(root, "returnlint.config.yaml")} is not a usable YAML config: it is nested too deeply to read (a config is a few levels deep).\n`);
  });

  it("ENOSPC on standard output: a sentence, exit 2", () => {
    const root = scratch();
    write(root, { "r.json": v7Return([]) });
    const full = openSync("/dev/full", "w");
    try {
      const ran = run(["check", "r.json"], { cwd: root, stdio: ["pipe", full, "pipe"] });
      expect(ran.status).toBe(2);
      expect(ran.stderr).toBe("returnlint: Cannot write to standard output: no space left on the device (ENOSPC).\n");
    } finally {
      closeSync(full);
    }
  });

  it("EBADF on standard input (opened for writing only): a sentence, exit 2; the hook lets the stop through", () => {
    const root = scratch();
    const stdin = openSync(path.join(root, "stdin"), "w");
    try {
      const check = run(["check", "-"], { cwd: root, stdio: [stdin, "pipe", "pipe"] });
      expect(check.status).toBe(2);
      expect(check.stderr).toBe("returnlint: Cannot read standard input: the descriptor is not open for this (was it closed, or opened the other way?) (EBADF).\n");
      const hook = run(["hook", "claude"], { cwd: root, stdio: [stdin, "pipe", "pipe"] });
      expect(hook.status).toBe(0);
      expect(hook.stderr).toMatch(/^returnlint hook: Cannot read standard input: .*\(EBADF\)\. \(the stop goes through; --fail-closed blocks instead\)\n$/);
    } finally {
      closeSync(stdin);
    }
  });

  it.each(["constructor", "__proto__", "toString", "hasOwnProperty"])("agent_type %s is a name: no command, no verdict, no crash", (agentType) => {
    const root = scratch();
    write(root, { "returnlint.config.json": { agents: { researcher: "research" } } });
    const ran = run(["hook", "claude"], { cwd: root, input: JSON.stringify(subagentStop({ cwd: root, agentType, message: finalMessage([]) })) });
    expect(ran).toMatchObject({ status: 0, stdout: "", stderr: "" });
  });

  it("a command named constructor, and a status named __proto__: names, not Object.prototype", () => {
    const root = scratch();
    write(root, { "r.json": v7Return([], { status: "__proto__" }) });
    // Not configured: an unknown command, said as such (usage, exit 2), not found on Object.prototype.
    const unknown = run(["check", "r.json", "--command", "constructor", "--format", "json"], { cwd: root });
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/^returnlint: Unknown command "constructor"; known: research, plan, revise, implement\./);
    // Configured: a command like any other, and the status __proto__ is not a known status.
    write(root, { "returnlint.config.json": { commands: { constructor: {} } } });
    const ran = run(["check", "r.json", "--command", "constructor", "--format", "json"], { cwd: root });
    expect(ran.status).toBe(1);
    expect(ran.stdout).not.toContain("function");
    const scanned = scratch();
    write(scanned, { "specs/1_x/.return-meta.json": { status: "constructor", artifacts: [], metadata: metadata("researcher") } });
    const scan = run(["scan", "--format", "json"], { cwd: scanned });
    expect(scan.status).toBe(1);
    expect(scan.stdout).not.toContain("function");
  });

  it.each([
    ["exports", { name: "returnlint-rule-escape", exports: "../outside.mjs" }, '"exports" target "../outside.mjs" is not a path inside the package'],
    ["exports through a dot segment", { name: "returnlint-rule-escape", exports: { ".": "./lib/../../outside.mjs" } }, '"exports" target "./lib/../../outside.mjs" is not a path inside the package'],
    ["main", { name: "returnlint-rule-escape", main: "../outside.mjs" }, "outside the package's folder"],
  ])("a rule package whose %s points outside its folder is refused, as Node refuses it", (_name, manifest, reason) => {
    const root = scratch();
    write(root, {
      "node_modules/outside.mjs": ruleModule("escape", "check() {}"),
      "node_modules/returnlint-rule-escape/package.json": manifest,
      "returnlint.config.json": { rules: { escape: "error" } },
      "r.json": v7Return([]),
    });
    const ran = run(["check", "r.json"], { cwd: root });
    expect(ran.status).toBe(2);
    expect(ran.stderr).toContain(reason);
    expect(ran.stderr).not.toMatch(INTERNAL);
  });

  it("output is bounded: a 5 MB status is quoted, not repeated, in every format and in the hook's reason", () => {
    const root = scratch();
    const huge = v7Return([], { status: "z".repeat(5 * 1024 * 1024) });
    const input = JSON.stringify(huge);
    for (const format of ["stylish", "json", "reask", "github", "junit", "sarif"]) {
      const ran = run(["check", "-", "--format", format], { cwd: root, input, timeout: 60_000 });
      expect(ran.status, format).toBe(1);
      expect(ran.stdout.length + ran.stderr.length, format).toBeLessThan(64 * 1024);
    }
    const message = `Done.\n\n\`\`\`json\n${input}\n\`\`\``;
    const hook = run(["hook", "claude"], { cwd: root, input: JSON.stringify(subagentStop({ cwd: root, agentType: "researcher", message })), timeout: 60_000 });
    expect(hook.status).toBe(0);
    expect(hook.stdout.length).toBeLessThan(16 * 1024);
    expect((JSON.parse(hook.stdout) as { decision: string }).decision).toBe("block");
  });

  it("a ~/ artifact path is called home-relative, not absolute (issue 16, item 5)", () => {
    const root = scratch();
    const ran = run(["check", "-", "--format", "json"], { cwd: root, input: JSON.stringify(v7Return(["~/notes/report.md"])) });
    expect(ran.status).toBe(1);
    expect(failures(ran)).toEqual(["homeRelativePath"]);
    expect(report(ran).results.find((result) => result.messageId === "homeRelativePath")?.message).toBe("Artifact path is home-relative: ~/notes/report.md");
  });
});
