import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { STACK_FRAME, metadata, project, returnlint } from "./helpers.js";

const research = {
  status: "researched",
  artifacts: [{ type: "report", path: "specs/1_a/reports/research-001.md", summary: "Report" }],
  metadata: metadata("lean-research-agent"),
};
const plan = {
  status: "completed",
  summary: "Plan created.",
  artifacts: [{ type: "plan", path: "specs/1_a/plans/implementation-001.md", summary: "Plan" }],
  metadata: metadata("planner"),
};
const implement = {
  status: "completed",
  summary: "Implemented.",
  session_id: "sess_1",
  artifacts: [{ type: "implementation", path: "src/a.ts", summary: "Code" }],
  metadata: { agent_type: "implementer", delegation_depth: 1, delegation_path: ["orchestrator", "implement", "implementer"] },
};
const files = {
  "specs/1_a/reports/research-001.md": "# Report\n",
  "specs/1_a/plans/implementation-001.md": "# Plan\n",
  "src/a.ts": "export {};\n",
};

describe("one config, three formats", () => {
  const root = project({
    ...files,
    "research.json": research,
    "plan.json": plan,
    "implement.json": implement,
    "returnlint.config.json": {
      preset: "v7",
      commands: { research: { preset: "metadata-file" }, plan: {}, implement: { preset: "v5" } },
    },
  });
  const check = (file: string, command: string) => returnlint(["check", file, "--command", command, "--session-id", "sess_1", "--format", "json"], { cwd: root });

  it("checks each command with its own format", () => {
    for (const [file, command, format] of [["research.json", "research", "metadata-file"], ["plan.json", "plan", "v7"], ["implement.json", "implement", "v5"]] as const) {
      const run = check(file, command);
      expect(JSON.parse(run.stdout)).toMatchObject({ ok: true, format, command });
      expect(run.status).toBe(0);
    }
  });

  it("rejects a return in another command's format", () => {
    const run = check("research.json", "plan");
    expect(run.status).toBe(1);
    const report = JSON.parse(run.stdout) as { results: { messageId: string; pointer?: string }[] };
    expect(report.results).toContainEqual(expect.objectContaining({ messageId: "missingField", pointer: "/summary" }));
    expect(report.results).toContainEqual(expect.objectContaining({ messageId: "invalidStatus", pointer: "/status" }));
  });

  it("finds the config from a subdirectory", () => {
    const run = returnlint(["check", path.join(root, "research.json"), "--command", "research", "--root", root], { cwd: path.join(root, "specs", "1_a") });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("metadata-file return from lean-research-agent (/research, preset metadata-file)");
  });
});

describe("config errors", () => {
  it("names an unknown rule, a bad severity and a bad option in one run, exit 2", () => {
    const root = project({
      "r.json": plan,
      "returnlint.config.json": {
        rules: { "status-enun": "error", "summary-length": ["fatal", { maxChars: 10 }] },
        commands: { plan: { rules: { "summary-length": ["warn", { maxChars: -5 }] } } },
      },
    });
    const run = returnlint(["check", "r.json"], { cwd: root });
    expect(run.status).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("Invalid configuration in returnlint.config.json (3 problems):");
    expect(run.stderr).toContain('rules.status-enun: unknown rule "status-enun" (did you mean "status-enum"?)');
    expect(run.stderr).toContain('rules.summary-length: severity must be "off", "warn" or "error"; received "fatal"');
    expect(run.stderr).toContain("commands.plan.rules.summary-length[1].maxChars: must be >= 1; received -5");
    expect(run.stderr).not.toMatch(STACK_FRAME);
  });

  it("names an unknown key with a suggestion, and an unknown preset", () => {
    const root = project({ "r.json": plan, "returnlint.config.json": { presets: "v7", commands: { plan: { preset: "v6" } } } });
    const run = returnlint(["check", "r.json"], { cwd: root });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('unknown key "presets" (did you mean "preset"?)');
    expect(run.stderr).toContain('unknown preset "v6" (did you mean "v5"?)');
  });

  it("says where a config's JSON breaks", () => {
    const root = project({ "r.json": plan });
    writeFileSync(path.join(root, "returnlint.config.json"), '{\n  "preset": "v7",\n}\n');
    const run = returnlint(["check", "r.json"], { cwd: root });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("is not valid JSON: expected a property name in double quotes, found '}' (line 3, column 1)");
  });

  it("reads YAML and package.json configs", () => {
    const yaml = project({ "r.json": plan, "returnlint.config.yaml": "preset: v5\n" });
    expect(returnlint(["check", "r.json", "--format", "json"], { cwd: yaml }).stdout).toContain('"format":"v5"');
    const manifest = project({ "r.json": plan, "package.json": { name: "x", returnlint: { preset: "metadata-file" } } });
    expect(returnlint(["check", "r.json", "--format", "json"], { cwd: manifest }).stdout).toContain('"format":"metadata-file"');
  });

  it("loads a config module", () => {
    const root = project({ "r.json": plan, "returnlint.config.mjs": 'export default { preset: "v5" };\n' });
    expect(returnlint(["check", "r.json", "--format", "json"], { cwd: root }).stdout).toContain('"format":"v5"');
  });

  it("--config wins over discovery, and a missing one is exit 2", () => {
    const root = project({ "r.json": plan, "returnlint.config.json": { preset: "v5" }, "other.json": { preset: "metadata-file" } });
    expect(returnlint(["check", "r.json", "--config", "other.json", "--format", "json"], { cwd: root }).stdout).toContain('"format":"metadata-file"');
    const run = returnlint(["check", "r.json", "--config", "missing.json"], { cwd: root });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("Config file not found:");
  });

  it("--preset overrides the config, and an unknown one is exit 2", () => {
    const root = project({ "r.json": plan });
    expect(returnlint(["check", "r.json", "--preset", "v5", "--format", "json"], { cwd: root }).stdout).toContain('"format":"v5"');
    const run = returnlint(["check", "r.json", "--preset", "v8"], { cwd: root });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('unknown preset "v8"');
  });

  it("severity off turns a rule off; options merge over the preset's", () => {
    const root = project({
      "r.json": { ...plan, summary: "x".repeat(50) },
      "returnlint.config.json": { rules: { artifacts: "off", "summary-length": ["error", { maxChars: 10 }] } },
    });
    const run = returnlint(["check", "r.json", "--format", "json"], { cwd: root });
    const report = JSON.parse(run.stdout) as { results: { ruleId: string; level: string }[] };
    expect(report.results.some((result) => result.ruleId === "artifacts")).toBe(false);
    expect(report.results).toContainEqual(expect.objectContaining({ ruleId: "summary-length", level: "fail" }));
    expect(run.status).toBe(1);
  });
});

describe("schemas compiled when returnlint was built", () => {
  // NODE_DEBUG=module names every file Node's loader loads: ajv lives in chunks/config-options.cjs.
  const loadsAjv = (stderr: string) => stderr.includes("chunks/config-options.cjs");

  it("validate a config of built-in rules, bad options and all, without loading ajv", () => {
    const root = project({ ...files, "r.json": research, "returnlint.config.json": { preset: "metadata-file", rules: { "summary-length": ["warn", { maxChars: -3, bogus: 1 }] } } });
    const run = returnlint(["check", "r.json", "--command", "research"], { cwd: root, env: { NODE_DEBUG: "module" } });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('rules.summary-length[1]: unknown key "bogus"; valid keys: maxChars');
    expect(run.stderr).toContain("rules.summary-length[1].maxChars: must be >= 1; received -3");
    expect(loadsAjv(run.stderr)).toBe(false);

    writeFileSync(path.join(root, "returnlint.config.json"), JSON.stringify({ preset: "metadata-file", rules: { "summary-length": ["warn", { maxChars: 300 }] } }));
    const valid = returnlint(["check", "r.json", "--command", "research"], { cwd: root, env: { NODE_DEBUG: "module" } });
    expect(valid.stdout).toContain("[PASS] Return validation succeeded");
    expect(loadsAjv(valid.stderr)).toBe(false);
  });

  it("a custom rule's options are still checked, with ajv", () => {
    const rule = `export default { id: "x", meta: { description: "x", docs: "https://example.com/x", schema: { type: "object", properties: { n: { type: "integer" } }, additionalProperties: false }, defaultOptions: {}, messages: { m: { text: "m" } } }, check() {} };\n`;
    const root = project({ ...files, "r.json": research, "x.mjs": rule, "returnlint.config.json": { preset: "metadata-file", rules: { "./x.mjs": ["error", { n: "many" }] } } });
    const run = returnlint(["check", "r.json", "--command", "research"], { cwd: root, env: { NODE_DEBUG: "module" } });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('rules["./x.mjs"][1].n: must be integer; received "many"');
    expect(loadsAjv(run.stderr)).toBe(true);
  });
});
