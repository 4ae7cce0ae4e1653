import { realpathSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadReturnlintConfig, validate, type ReportObject } from "@returnlint/api";
import { STACK_FRAME, metadata, project, returnlint } from "./helpers.js";

/** A local rule module, ./rules/<id>.mjs, whose check is `body`. */
function ruleFile(id: string, body: string): string {
  return `export default {
  id: ${JSON.stringify(id)},
  meta: { description: "${id}", docs: "https://example.com/${id}", schema: { type: "object" }, defaultOptions: {}, messages: { found: { text: "${id} found it" } } },
  ${body}
};\n`;
}

const ok = { status: "completed", summary: "Done.", artifacts: [{ type: "report", path: "r.md", summary: "Report" }], metadata: metadata("researcher") };

function projectWith(id: string, body: string): { root: string; source: string } {
  const root = project({ "r.md": "# Report\n", "ok.json": ok, [`rules/${id}.mjs`]: ruleFile(id, body), "returnlint.config.json": { rules: { [`./rules/${id}.mjs`]: "error" } } });
  return { root, source: path.join(realpathSync(root), "rules", `${id}.mjs`) };
}


/** Runs the CLI with --format json: exit 2, the broken rule named with its file, the built-in rules' results all there. */
function expectNamedInternalError(id: string, body: string, messageId: string, detail: string, env: Record<string, string> = {}): number {
  const { root, source } = projectWith(id, body);
  const started = Date.now();
  const run = returnlint(["check", "ok.json", "--format", "json"], { cwd: root, env });
  const elapsed = Date.now() - started;
  expect(run.status).toBe(2);
  expect(run.stderr).toBe("");
  expect(run.stdout).not.toMatch(STACK_FRAME);
  const { results } = JSON.parse(run.stdout) as ReportObject;
  const broken = results.filter((result) => result.ruleId === id);
  expect(broken).toHaveLength(1);
  expect(broken[0]).toMatchObject({ level: "fail", messageId });
  expect(broken[0]?.message).toContain(`Rule ${id} `);
  expect(broken[0]?.message).toContain(`(from ${source})`);
  expect(broken[0]?.detail).toContain(detail);
  const passed = new Set(results.filter((result) => result.level === "pass").map((result) => result.ruleId));
  for (const builtin of ["json-structure", "required-fields", "status-enum", "artifacts"]) expect(passed.has(builtin), builtin).toBe(true);
  return elapsed;
}

describe("a custom rule that breaks: exit 2 naming the rule, the other rules still reported", { timeout: 60_000 }, () => {
  it("throws", () => {
    expectNamedInternalError("thrower", 'check() { throw new TypeError("cannot read the plan"); }', "ruleCrashed", "Error: cannot read the plan");
  });

  it("rejects asynchronously", () => {
    expectNamedInternalError("rejecter", 'async check() { await null; throw new Error("later"); }', "ruleCrashed", "Error: later");
  });

  it("reports a messageId its meta does not declare", () => {
    expectNamedInternalError("misnamer", 'check(context) { context.report({ messageId: "notDeclared" }); }', "ruleCrashed", 'reported unknown messageId "notDeclared"');
  });

  it("returns a non-promise object instead of reporting", () => {
    expectNamedInternalError("returner", 'check() { return { problems: [{ messageId: "found" }] }; }', "ruleCrashed", 'check returned an object {"problems":[{"messageId":"found"}]}');
  });

  it("never settles, while a timer of its own would keep the process alive: RETURNLINT_RULE_TIMEOUT_MS bounds it", () => {
    const elapsed = expectNamedInternalError(
      "sleeper",
      "check() { setInterval(() => {}, 1000); return new Promise(() => {}); }",
      "ruleTimedOut",
      "did not settle in time",
      { RETURNLINT_RULE_TIMEOUT_MS: "300" },
    );
    expect(elapsed).toBeLessThan(5000);
  });

  it("is never relayed to the subagent: --format reask leaves it out, and standard error tells the orchestrator", () => {
    const { root } = projectWith("thrower", 'check() { throw new Error("cannot read the plan"); }');
    const alone = returnlint(["check", "ok.json", "--format", "reask"], { cwd: root });
    expect(alone.status).toBe(2);
    expect(alone.stdout).toBe("");
    expect(alone.stderr).toMatch(/^returnlint: Rule thrower crashed \(from .*thrower\.mjs\): the verdict on ok\.json is incomplete\.\n$/);
    const phantom = { ...ok, artifacts: [] };
    writeFileSync(path.join(root, "phantom.json"), JSON.stringify(phantom));
    const mixed = returnlint(["check", "phantom.json", "--format", "reask"], { cwd: root });
    expect(mixed.status).toBe(2);
    expect(mixed.stdout).toBe(
      '- /artifacts: status "completed" says the work is done but "artifacts" is empty; write the files and list each as {"type": …, "path": …, "summary": …}, or set status to "partial".\n',
    );
    expect(mixed.stdout).not.toContain("maintainers");
  });

  it("the stylish transcript names the timed-out rule too", () => {
    const { root, source } = projectWith("sleeper", "check() { return new Promise(() => {}); }");
    const run = returnlint(["check", "ok.json"], { cwd: root, env: { RETURNLINT_RULE_TIMEOUT_MS: "200" } });
    expect(run.status).toBe(2);
    expect(run.stdout).toContain(`[FAIL] Rule sleeper timed out after 200 ms (from ${source})\nError: its check did not settle in time`);
    expect(run.stdout).toContain("[PASS] Artifact exists: r.md");
  });

  it("throws from a timer of its own: an internal error of that rule (exit 2), not Node's stack trace and exit 1", () => {
    expectNamedInternalError(
      "timebomb",
      'check() { setTimeout(() => { throw new Error("from a timer"); }, 20); return new Promise(() => {}); }',
      "ruleCrashed",
      "Error: from a timer (thrown outside its check, from a timer or an unhandled promise)",
      { RETURNLINT_RULE_TIMEOUT_MS: "5000" },
    );
  });

  it("leaves a promise rejected that nobody handles: the same", () => {
    expectNamedInternalError("dangler", 'check() { Promise.reject(new Error("nobody listens")); return new Promise(() => {}); }', "ruleCrashed", "Error: nobody listens", {
      RETURNLINT_RULE_TIMEOUT_MS: "5000",
    });
  });

  it("a time limit that is not a number of milliseconds is a usage error", () => {
    const { root } = projectWith("fine", "check() {}");
    const run = returnlint(["check", "ok.json"], { cwd: root, env: { RETURNLINT_RULE_TIMEOUT_MS: "10s" } });
    expect(run.status).toBe(2);
    expect(run.stderr).toBe('returnlint: RETURNLINT_RULE_TIMEOUT_MS must be a positive number of milliseconds; received "10s".\n');
  });

  it("validate({ ruleTimeoutMs }) sets the limit through the library API", async () => {
    const { root } = projectWith("sleeper", "check() { return new Promise(() => {}); }");
    const config = await loadReturnlintConfig({ cwd: root });
    const report = await validate(JSON.stringify(ok), { config, root, ruleTimeoutMs: 50 });
    expect(report.internalError).toBe(true);
    expect(report.results.find((result) => result.ruleId === "sleeper")).toMatchObject({ messageId: "ruleTimedOut", message: expect.stringContaining("timed out after 50 ms") as string });
  });
});
