import { chmodSync, lutimesSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { subagentStop, finalMessage } from "../claude-payloads.js";
import { CAN_SETPRIV, SETPRIV_REASON, failures, metadata, report, ruleModule, run, scratch, v7Return, write } from "./harness.js";

// Issue 15, "Hangs": reproductions 13 to 16. Every case has a deadline: a hang is a child killed
// by the harness (signal set), which fails the case.

const LONG_AGO = new Date("2001-01-01T00:00:00Z");

describe("13. a lock nobody will release ends in a sentence, never a spin", { timeout: 120_000 }, () => {
  it("a dangling-symlink errors.json.lock, left long ago: it is broken and the entry is logged", () => {
    const root = scratch();
    write(root, { "r.json": v7Return([]) });
    mkdirSync(path.join(root, "specs"));
    symlinkSync("/nonexistent/returnlint-lock", path.join(root, "specs/errors.json.lock"));
    lutimesSync(path.join(root, "specs/errors.json.lock"), LONG_AGO, LONG_AGO);
    const ran = run(["check", "r.json", "--log-errors", "specs/errors.json", "--quiet"], { cwd: root, timeout: 30_000 });
    expect(ran.signal).toBeNull();
    expect(ran.status).toBe(1);
    expect((JSON.parse(readFileSync(path.join(root, "specs/errors.json"), "utf8")) as { errors: unknown[] }).errors).toHaveLength(1);
  });

  it("the hook's ledger.lock as a dangling symlink: the hook still decides", () => {
    const root = scratch();
    mkdirSync(path.join(root, ".returnlint"));
    symlinkSync("/nonexistent/returnlint-lock", path.join(root, ".returnlint/ledger.lock"));
    lutimesSync(path.join(root, ".returnlint/ledger.lock"), LONG_AGO, LONG_AGO);
    const payload = subagentStop({ cwd: root, agentType: "researcher", message: finalMessage(["specs/1_x/missing.md"]) });
    const ran = run(["hook", "claude"], { cwd: root, input: JSON.stringify(payload), timeout: 30_000 });
    expect(ran.signal).toBeNull();
    expect(ran.status).toBe(0);
    expect((JSON.parse(ran.stdout) as { decision: string }).decision).toBe("block");
  });

  it.runIf(CAN_SETPRIV)("a stale lock this user may not remove (another user's, in a sticky folder): a sentence after the 10 s deadline, exit 2", () => {
    const root = scratch(true);
    write(root, { "r.json": v7Return([]) });
    chmodSync(path.join(root, "r.json"), 0o644);
    const logs = path.join(root, "logs");
    mkdirSync(logs);
    chmodSync(logs, 0o1777);
    writeFileSync(path.join(logs, "errors.json.lock"), "1\n");
    const ran = run(["check", "r.json", "--log-errors", "logs/errors.json", "--quiet"], { cwd: root, nobody: true, timeout: 40_000 });
    expect(ran.signal).toBeNull();
    expect(ran.status).toBe(2);
    expect(ran.stderr).toBe(
      `returnlint: Timed out after 10 s waiting for the lock ${path.join(logs, "errors.json.lock")}: it did not change hands in that time, and it cannot be removed (permission denied (EPERM)). Delete it if no returnlint is running.\n`,
    );
  });
  it.skipIf(CAN_SETPRIV)(`a stale lock this user may not remove: skipped (${SETPRIV_REASON})`, () => undefined);
});

describe("14. artifact paths cost time linear in their length", { timeout: 120_000 }, () => {
  const climb = (bytes: number) => "../".repeat(Math.ceil(bytes / 3));

  it.each([
    ["300 KB of ../", climb(300 * 1024)],
    ["1.5 MB of ../", climb(1.5 * 1024 * 1024)],
    ["300 KB of a/../", "a/../".repeat(60_000) + "x.md"],
  ])("check: %s gets its finding at once", (_name, given) => {
    const root = scratch();
    const ran = run(["check", "-", "--format", "json"], { cwd: root, input: JSON.stringify(v7Return([given])), timeout: 15_000 });
    expect(ran.signal).toBeNull();
    expect(ran.status).toBe(1);
    expect(failures(ran)).toEqual(["nameTooLong"]);
    // The message quotes the path, bounded.
    expect(ran.stdout.length).toBeLessThan(8 * 1024);
  });

  it("scan and the hook: the same", () => {
    const root = scratch();
    const given = climb(300 * 1024);
    write(root, { "specs/1_x/.return-meta.json": { status: "researched", artifacts: [{ type: "report", path: given, summary: "s" }], metadata: metadata("researcher") } });
    const scan = run(["scan", "--format", "json"], { cwd: root, timeout: 15_000 });
    expect(scan.signal).toBeNull();
    expect(scan.status).toBe(1);
    const message = `Done.\n\n\`\`\`json\n${JSON.stringify(v7Return([given]))}\n\`\`\``;
    const hook = run(["hook", "claude"], { cwd: root, input: JSON.stringify(subagentStop({ cwd: root, agentType: "researcher", message })), timeout: 15_000 });
    expect(hook.signal).toBeNull();
    expect((JSON.parse(hook.stdout) as { decision: string }).decision).toBe("block");
  });
});

describe("15. a YAML config is read in time linear in its size", { timeout: 120_000 }, () => {
  it("200,000 keys (the same map as JSON parses in a fraction of a second)", () => {
    const root = scratch();
    const agents = Array.from({ length: 200_000 }, (_, index) => `  agent-${String(index)}: research\n`).join("");
    write(root, { "returnlint.config.yaml": `agents:\n${agents}`, "r.json": v7Return([]) });
    const ran = run(["check", "r.json", "--format", "json"], { cwd: root, timeout: 60_000 });
    expect(ran.signal).toBeNull();
    expect(ran.status).toBe(1);
    expect(failures(ran)).toEqual(["phantomWork"]);
  });

  it("a duplicate key among them is still found, with its line", () => {
    const root = scratch();
    const agents = Array.from({ length: 50_000 }, (_, index) => `  agent-${String(index)}: research\n`).join("");
    write(root, { "returnlint.config.yaml": `agents:\n${agents}  agent-7: plan\n`, "r.json": v7Return([]) });
    const ran = run(["check", "r.json"], { cwd: root, timeout: 60_000 });
    expect(ran.status).toBe(2);
    expect(ran.stderr).toBe(`returnlint: Config ${path.join(root, "returnlint.config.yaml")} is not valid YAML: Map keys must be unique; "agent-7" is repeated (line 50002, column 3)\n`);
  });
});

describe("16. a rule that never returns is stopped at the rule time limit", { timeout: 60_000 }, () => {
  it.each([
    ["a synchronous endless loop", "check() { for (;;) {} }"],
    ["an endless loop after an await", "async check() { await null; for (;;) {} }"],
    ["Atomics.wait for ever", "check() { Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0); }"],
  ])("%s: exit 2, the rule named, the other rules' results kept", (_name, body) => {
    const root = scratch();
    write(root, { "a.md": "# A\n", "rules/spinner.mjs": ruleModule("spinner", body), "r.json": v7Return(["a.md"]), "returnlint.config.json": { rules: { "./rules/spinner.mjs": "error" } } });
    const ran = run(["check", "r.json", "--format", "json"], { cwd: root, env: { RETURNLINT_RULE_TIMEOUT_MS: "500" }, timeout: 15_000 });
    expect(ran.signal).toBeNull();
    expect(ran.status).toBe(2);
    const results = report(ran).results;
    expect(results.find((result) => result.ruleId === "spinner")).toMatchObject({ level: "fail", messageId: "ruleTimedOut" });
    expect(results.filter((result) => result.ruleId === "artifacts" && result.level === "pass").length).toBeGreaterThan(0);
  });
});
