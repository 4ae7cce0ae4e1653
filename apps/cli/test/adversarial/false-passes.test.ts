import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadReturnlintConfig, validate } from "@returnlint/api";
import { subagentStop, finalMessage } from "../claude-payloads.js";
import { BIN, STACK_FRAME, failures, metadata, report, ruleModule, run, scratch, v7Return, write } from "./harness.js";

// Issue 15, "Silent false passes": reproductions 7, 8 and 10. No input, config or rule may end a
// run with exit 0 and no verdict.

const FAST = { RETURNLINT_RULE_TIMEOUT_MS: "500" };
const NEVER = "export default await new Promise(() => {});\n";
const SELF_IMPORT = 'const self = await import("./returnlint.config.mjs");\nexport default self.default;\n';

/** A project whose config is `config` (returnlint.config.mjs), with a return that is phantom work. */
function withConfig(config: string): string {
  const root = scratch();
  write(root, { "returnlint.config.mjs": config, "r.json": v7Return([]), "specs/1_x/.return-meta.json": { status: "researched", artifacts: [], metadata: metadata("researcher") } });
  return root;
}

describe("7. a module that never finishes loading is an error with a sentence, never a silent exit 0", { timeout: 60_000 }, () => {
  const stuck = (ran: ReturnType<typeof run>) => {
    expect(ran.signal).toBeNull();
    expect(ran.stdout).toBe("");
    expect(ran.stderr).toMatch(/did not finish loading within 500 ms/);
    expect(ran.stderr).not.toMatch(STACK_FRAME);
  };

  it.each([
    ["a config whose top-level await never settles", NEVER],
    ["a config that imports itself", SELF_IMPORT],
  ])("%s: check, scan and hook --fail-closed exit 2", (_name, config) => {
    const root = withConfig(config);
    const check = run(["check", "r.json"], { cwd: root, env: FAST });
    stuck(check);
    expect(check.status).toBe(2);
    const scan = run(["scan"], { cwd: root, env: FAST });
    stuck(scan);
    expect(scan.status).toBe(2);
    const payload = JSON.stringify(subagentStop({ cwd: root, agentType: "researcher", message: finalMessage([]) }));
    const closed = run(["hook", "claude", "--fail-closed"], { cwd: root, input: payload, env: FAST });
    stuck(closed);
    expect(closed.status).toBe(2);
    // Without --fail-closed the hook lets the stop through, but says why, to the user too.
    const open = run(["hook", "claude"], { cwd: root, input: payload, env: FAST });
    expect(open.status).toBe(0);
    expect(open.stderr).toMatch(/did not finish loading within 500 ms/);
    expect((JSON.parse(open.stdout) as { systemMessage: string }).systemMessage).toMatch(/did not finish loading within 500 ms/);
  });

  it("a rule module whose top-level await never settles: exit 2 naming the module", () => {
    const root = scratch();
    write(root, { "rules/stuck.mjs": NEVER, "r.json": v7Return([]), "returnlint.config.json": { rules: { "./rules/stuck.mjs": "error" } } });
    const ran = run(["check", "r.json"], { cwd: root, env: FAST });
    expect(ran.status).toBe(2);
    expect(ran.stdout).toBe("");
    expect(ran.stderr).toContain(`cannot load ${path.join(root, "rules/stuck.mjs")}`);
    expect(ran.stderr).toContain("did not finish loading within 500 ms");
  });

  it("validate() settles, with an error, when a module never finishes loading", async () => {
    const root = withConfig(NEVER);
    const previous = process.env.RETURNLINT_RULE_TIMEOUT_MS;
    process.env.RETURNLINT_RULE_TIMEOUT_MS = "300";
    try {
      const outcome = await Promise.race([
        validate(JSON.stringify(v7Return([])), { cwd: root }).then(
          () => "resolved",
          (error: unknown) => (error instanceof Error ? error.message : String(error)),
        ),
        new Promise<string>((resolve) => {
          setTimeout(() => {
            resolve("never settled");
          }, 5000);
        }),
      ]);
      expect(outcome).toContain("did not finish loading within 300 ms");
    } finally {
      if (previous === undefined) delete process.env.RETURNLINT_RULE_TIMEOUT_MS;
      else process.env.RETURNLINT_RULE_TIMEOUT_MS = previous;
    }
  });

  it("a config that ends the process itself (process.exit(0)) while loading: exit 2 and a sentence, never a silent pass", () => {
    const root = withConfig("process.exit(0);\nexport default {};\n");
    const ran = run(["check", "r.json"], { cwd: root });
    expect(ran.status).toBe(2);
    expect(ran.stdout).toBe("");
    expect(ran.stderr).toBe(
      "returnlint: stopped before it reached a verdict: something ended the process early (a config or preset module calling process.exit(), or waiting on something that can never finish); there is no verdict.\n",
    );
  });
});

describe("8. a return with a hundred thousand artifacts gets its verdict", { timeout: 120_000 }, () => {
  const many = (count: number, paths: readonly string[]) => ({
    ...v7Return([]),
    artifacts: Array.from({ length: count }, (_, index) => ({ type: "report", path: paths[index % paths.length], summary: "s" })),
  });

  it("130,000 artifacts that do not exist: exit 1 with every finding, not a stack overflow", () => {
    const root = scratch();
    const ran = run(["check", "-", "--format", "json"], { cwd: root, input: JSON.stringify(many(130_000, ["a.md", "b.md"])), timeout: 60_000 });
    expect(ran.stderr).toBe("");
    expect(ran.status).toBe(1);
    expect(report(ran).errorCount).toBe(130_000);
  });

  it("70,000 artifacts that exist: exit 0", () => {
    const root = scratch();
    write(root, { "a.md": "# A\n", "b.md": "# B\n" });
    const ran = run(["check", "-", "--quiet"], { cwd: root, input: JSON.stringify(many(70_000, ["a.md", "b.md"])), timeout: 60_000 });
    expect(ran.stderr).toBe("");
    expect(ran.status).toBe(0);
  });

  it("the hook blocks a return with 130,000 missing artifacts, with a reason of bounded size", () => {
    const root = scratch();
    const value = many(130_000, ["specs/1_x/a.md", "specs/1_x/b.md"]);
    const message = `Done.\n\n\`\`\`json\n${JSON.stringify(value)}\n\`\`\``;
    const ran = run(["hook", "claude"], { cwd: root, input: JSON.stringify(subagentStop({ cwd: root, agentType: "researcher", message })), timeout: 60_000 });
    expect(ran.status).toBe(0);
    const decision = JSON.parse(ran.stdout) as { decision: string; reason: string };
    expect(decision.decision).toBe("block");
    expect(decision.reason.length).toBeLessThan(16 * 1024);
    expect(decision.reason).toContain("… and 129980 more problems");
  });
});

describe("10. a custom rule that ends the process gives no verdict of its own", { timeout: 60_000 }, () => {
  it.each([
    ["in its check", "check() { process.exit(0); }", ""],
    ["when its module loads", "check() {}", "process.exit(0);"],
  ])("process.exit(0) %s: exit 2, never exit 0 with no output", (_name, body, prelude) => {
    const root = scratch();
    write(root, { "rules/quitter.mjs": ruleModule("quitter", body, prelude), "r.json": v7Return([]), "returnlint.config.json": { rules: { "./rules/quitter.mjs": "error" } } });
    const ran = run(["check", "r.json", "--format", "json"], { cwd: root });
    expect(ran.status).toBe(2);
    if (ran.stdout !== "") {
      expect(failures(ran)).toContain("ruleCrashed");
      expect(ran.stdout).toContain("exit code 0");
    } else {
      expect(ran.stderr).toContain("exit code 0");
    }
  });

  it("the library: validate() reports the rule as crashed and the host process lives on", async () => {
    const root = scratch();
    write(root, { "rules/quitter.mjs": ruleModule("quitter", "check() { process.exit(0); }"), "returnlint.config.json": { rules: { "./rules/quitter.mjs": "error" } } });
    writeFileSync(path.join(root, "a.md"), "# A\n");
    const config = await loadReturnlintConfig({ cwd: root });
    const result = await validate(JSON.stringify(v7Return(["a.md"])), { config, root });
    expect(result.internalError).toBe(true);
    expect(result.results.find((entry) => entry.ruleId === "quitter")).toMatchObject({ messageId: "ruleCrashed" });
  });
});

describe("the rule thread keeps to itself", { timeout: 60_000 }, () => {
  it("what a custom rule prints goes to standard error: the JSON report on standard output still parses", () => {
    const root = scratch();
    const body = 'check() { console.log("chatty rule"); process.stdout.write("raw text\\n"); }';
    write(root, { "rules/chatty.mjs": ruleModule("chatty", body), "a.md": "# A\n", "r.json": v7Return(["a.md"]), "returnlint.config.json": { rules: { "./rules/chatty.mjs": "error" } } });
    const ran = run(["check", "r.json", "--format", "json"], { cwd: root });
    expect(ran.status).toBe(0);
    expect(report(ran).ok).toBe(true);
    expect(ran.stderr).toBe("chatty rule\nraw text\n");
  });

  it("a program using the library with a custom rule ends on its own: the idle thread keeps nothing alive", () => {
    const root = scratch();
    write(root, { "rules/quiet.mjs": ruleModule("quiet", "check() {}"), "returnlint.config.json": { rules: { "./rules/quiet.mjs": "error" } } });
    const library = path.resolve(BIN, "..", "index.js");
    const script = `const { validate } = await import(${JSON.stringify(library)});
const report = await validate(JSON.stringify({ status: "partial", summary: "s", artifacts: [] }), { cwd: ${JSON.stringify(root)} });
console.log(JSON.stringify({ ok: report.ok }));`;
    const child = spawnSync(process.execPath, ["--input-type=module", "-e", script], { cwd: root, encoding: "utf8", timeout: 20_000 });
    expect(child.signal).toBeNull();
    expect(child.status).toBe(0);
    expect(JSON.parse(child.stdout)).toMatchObject({ ok: expect.any(Boolean) as boolean });
  });
});
