import { mkdirSync, realpathSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { STACK_FRAME, metadata, project, returnlint } from "./helpers.js";
import type { ReportObject } from "@returnlint/api";

/** The source of a rule module: it reports `found` when the return's status is `bad`, else passes. */
function ruleModule(id: string, options: { exportAs?: "esm" | "cjs" | "cjs-default"; check?: string; schema?: object } = {}): string {
  const rule = `{
  id: ${JSON.stringify(id)},
  meta: {
    description: "Test rule ${id}",
    docs: "https://example.com/${id}",
    schema: ${JSON.stringify(options.schema ?? { type: "object", properties: { word: { type: "string" } }, additionalProperties: false })},
    defaultOptions: { word: "bad" },
    messages: { found: { text: "${id} found {word} in status", recommendation: "Fix {subagent}" }, clean: { text: "${id} checked" } },
  },
  check(context) {
    ${options.check ?? 'if (context.value.status === context.options.word) context.report({ messageId: "found", data: { word: context.options.word }, pointer: "/status" }); else context.pass({ messageId: "clean" });'}
  },
}`;
  if (options.exportAs === "cjs") return `module.exports = ${rule};\n`;
  if (options.exportAs === "cjs-default") return `Object.defineProperty(exports, "__esModule", { value: true });\nexports.default = ${rule};\n`;
  return `export default ${rule};\n`;
}

/** node_modules/NAME with an ESM-only package.json (exports with an `import` condition only, which require.resolve cannot see). */
function packageFiles(name: string, source: string, under = "."): Record<string, unknown> {
  const folder = path.join(under, "node_modules", name);
  return {
    [path.join(folder, "package.json")]: { name, version: "1.0.0", type: "module", exports: { ".": { import: "./index.js" } } },
    [path.join(folder, "index.js")]: source,
  };
}

const ok = {
  status: "completed",
  summary: "Done.",
  artifacts: [{ type: "report", path: "r.md", summary: "Report" }],
  metadata: metadata("researcher"),
};
const bad = { ...ok, status: "bad" };


function checkJson(root: string, file: string, extra: string[] = []) {
  const run = returnlint(["check", file, "--format", "json", ...extra], { cwd: root });
  return { ...run, report: JSON.parse(run.stdout) as ReportObject };
}

describe("rules from outside returnlint", () => {
  it("a local file ./rules/foo.mjs, at error and at warn", () => {
    const root = project({
      "r.md": "# Report\n",
      "ok.json": ok,
      "bad.json": bad,
      "rules/foo.mjs": ruleModule("foo"),
      "returnlint.config.json": { preset: "v7", rules: { "./rules/foo.mjs": "error" } },
    });
    const failing = returnlint(["check", "bad.json"], { cwd: root });
    expect(failing.status).toBe(1);
    expect(failing.stdout).toContain("[FAIL] foo found bad in status\nRecommendation: Fix researcher subagent\nRule: foo at /status");
    expect(returnlint(["check", "ok.json"], { cwd: root }).status).toBe(0);

    const warnRoot = project({ "r.md": "# Report\n", "bad.json": bad, "rules/foo.mjs": ruleModule("foo"), "returnlint.config.json": { rules: { "./rules/foo.mjs": "warn", "status-enum": "off" } } });
    const warned = returnlint(["check", "bad.json"], { cwd: warnRoot });
    expect(warned.stdout).toContain("[WARN] foo found bad in status");
    expect(warned.status).toBe(0);
  });

  it("a rule may word its own reask line: the subagent reads it in --format reask and in the hook's block reason", () => {
    const reasking = ruleModule("no-bad", { check: 'if (context.value.status === "bad") context.report({ messageId: "found", data: { word: "bad" }, pointer: "/status" });' }).replace(
      'recommendation: "Fix {subagent}" }',
      'recommendation: "Fix {subagent}", reask: \'"status" is {word}; say what you finished instead\' }',
    );
    const root = project({ "r.md": "# Report\n", "bad.json": { ...bad, status: "bad" }, "rules/no-bad.mjs": reasking, "returnlint.config.json": { preset: "v7", rules: { "./rules/no-bad.mjs": "error", "status-enum": "off" } } });
    const run = returnlint(["check", "bad.json", "--format", "reask"], { cwd: root });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('- /status: "status" is bad; say what you finished instead.\n');
    const json = checkJson(root, "bad.json");
    expect(json.report.results.find((result) => result.ruleId === "no-bad")).toMatchObject({ reask: '"status" is bad; say what you finished instead' });
    const payload = {
      session_id: "s1",
      cwd: root,
      hook_event_name: "SubagentStop",
      stop_hook_active: false,
      agent_id: "a1",
      agent_type: "researcher",
      last_assistant_message: JSON.stringify({ ...bad, status: "bad" }),
    };
    const hook = returnlint(["hook", "claude"], { cwd: root, input: JSON.stringify(payload) });
    expect(hook.status).toBe(0);
    const { reason } = JSON.parse(hook.stdout) as { reason: string };
    expect(reason).toContain('- /status: "status" is bad; say what you finished instead.');
  });

  it("a package by its full name, its short name, and scoped, each ESM-only", () => {
    const root = project({
      "r.md": "# Report\n",
      "bad.json": bad,
      ...packageFiles("returnlint-rule-full", ruleModule("full")),
      ...packageFiles("returnlint-rule-short", ruleModule("short")),
      ...packageFiles("@acme/returnlint-rule-scoped", ruleModule("scoped")),
      ...packageFiles("@acme/returnlint-rule-abbreviated", ruleModule("abbreviated")),
      "returnlint.config.json": {
        rules: { "returnlint-rule-full": "error", short: "error", "@acme/returnlint-rule-scoped": "error", "@acme/abbreviated": "error", "status-enum": "off" },
      },
    });
    const { status, report } = checkJson(root, "bad.json");
    expect(status).toBe(1);
    const found = report.results.filter((result) => result.messageId === "found").map((result) => [result.ruleId, result.message, result.pointer]);
    expect(found).toEqual([
      ["full", "full found bad in status", "/status"],
      ["short", "short found bad in status", "/status"],
      ["scoped", "scoped found bad in status", "/status"],
      ["abbreviated", "abbreviated found bad in status", "/status"],
    ]);
  });

  it("CommonJS packages: module.exports = rule, and a transpiled exports.default", () => {
    const root = project({
      "r.md": "# Report\n",
      "bad.json": bad,
      "node_modules/returnlint-rule-cjs/package.json": { name: "returnlint-rule-cjs", main: "lib/rule" },
      "node_modules/returnlint-rule-cjs/lib/rule.js": ruleModule("cjs", { exportAs: "cjs" }),
      "node_modules/returnlint-rule-transpiled/package.json": { name: "returnlint-rule-transpiled" },
      "node_modules/returnlint-rule-transpiled/index.js": ruleModule("transpiled", { exportAs: "cjs-default" }),
      "returnlint.config.json": { rules: { cjs: "error", transpiled: "error" } },
    });
    const { report } = checkJson(root, "bad.json");
    expect(report.results.filter((result) => result.messageId === "found").map((result) => result.ruleId)).toEqual(["cjs", "transpiled"]);
  });

  it("options are validated against the rule's own schema", () => {
    const root = project({
      "bad.json": bad,
      ...packageFiles("returnlint-rule-x", ruleModule("x")),
      "returnlint.config.json": { rules: { x: ["error", { word: 7, extra: true }] } },
    });
    const run = returnlint(["check", "bad.json"], { cwd: root });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("rules.x[1].word: must be string; received 7");
    expect(run.stderr).toContain("rules.x[1]");
    expect(run.stderr).toContain("extra");
    const good = project({ "r.md": "x", "b.json": { ...ok, status: "odd" }, ...packageFiles("returnlint-rule-x", ruleModule("x")), "returnlint.config.json": { rules: { x: ["error", { word: "odd" }] } } });
    expect(checkJson(good, "b.json").report.results).toContainEqual(expect.objectContaining({ ruleId: "x", level: "fail", message: "x found odd in status" }));
  });

  it("a rule whose options schema ajv refuses is a configuration error naming the rule", () => {
    const root = project({
      "bad.json": bad,
      ...packageFiles("returnlint-rule-broken-schema", ruleModule("broken-schema", { schema: { type: "object", properties: { word: { type: "strng" } } } })),
      "returnlint.config.json": { rules: { "broken-schema": ["error", { word: "x" }] } },
    });
    const run = returnlint(["check", "bad.json"], { cwd: root });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('rules.broken-schema: rule "broken-schema" (from returnlint-rule-broken-schema) has an invalid options schema');
    expect(run.stderr).not.toMatch(STACK_FRAME);
  });
});

describe("resolution starts at the config file's directory, not the cwd", () => {
  it("finds the config's rules and packages through --config from another directory", () => {
    const root = project({
      "team/r.md": "# Report\n",
      "team/bad.json": bad,
      "team/returnlint.config.json": { rules: { "./rules/local.mjs": "error", pkg: "error", "status-enum": "off" } },
      "team/rules/local.mjs": ruleModule("local"),
      ...packageFiles("returnlint-rule-pkg", ruleModule("pkg"), "team"),
      // The cwd has a rule of the same name that must not be picked up.
      ...packageFiles("returnlint-rule-pkg", ruleModule("impostor"), "elsewhere"),
      "elsewhere/rules/local.mjs": ruleModule("impostor"),
    });
    const run = returnlint(["check", "../team/bad.json", "--config", "../team/returnlint.config.json", "--root", "../team", "--format", "json"], {
      cwd: path.join(root, "elsewhere"),
    });
    const report = JSON.parse(run.stdout) as ReportObject;
    expect(report.results.filter((result) => result.messageId === "found").map((result) => result.ruleId)).toEqual(["local", "pkg"]);
    expect(run.status).toBe(1);
  });

  it("finds a discovered config's packages from a subdirectory", () => {
    const root = project({ "r.md": "x", "bad.json": bad, ...packageFiles("returnlint-rule-pkg", ruleModule("pkg")), "returnlint.config.json": { rules: { pkg: "error" } } });
    mkdirSync(path.join(root, "deep/er"), { recursive: true });
    const run = returnlint(["check", "../../bad.json", "--root", "../..", "--format", "json"], { cwd: path.join(root, "deep/er") });
    expect((JSON.parse(run.stdout) as ReportObject).results).toContainEqual(expect.objectContaining({ ruleId: "pkg", messageId: "found" }));
  });
});

describe("rules that cannot be used: exit 2, with what was tried", () => {
  it("a typo lists every place it looked", () => {
    const root = project({ "bad.json": bad, "config/returnlint.config.json": { rules: { "no-placeholdr-artifacts": "error", "./rules/mising.mjs": "warn", "@acme/nothing": "warn" } } });
    const configDir = realpathSync(path.join(root, "config"));
    const run = returnlint(["check", "bad.json", "--config", "config/returnlint.config.json"], { cwd: root });
    expect(run.status).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("Invalid configuration in config/returnlint.config.json (3 problems):");
    const searched = (name: string) => {
      const folders: string[] = [];
      for (let directory = configDir; ; directory = path.dirname(directory)) {
        folders.push(path.join(directory, "node_modules"));
        if (path.dirname(directory) === directory) break;
      }
      return `package "${name}" from ${configDir} (searched ${folders.join(", ")})`;
    };
    expect(run.stderr).toContain(
      `  - rules.no-placeholdr-artifacts: unknown rule "no-placeholdr-artifacts"; looked for built-in rule "no-placeholdr-artifacts", ${searched("returnlint-rule-no-placeholdr-artifacts")}\n`,
    );
    expect(run.stderr).toContain(`rules["./rules/mising.mjs"]: unknown rule "./rules/mising.mjs"; looked for built-in rule "./rules/mising.mjs", file ${path.join(configDir, "rules/mising.mjs")}\n`);
    expect(run.stderr).toContain(`looked for built-in rule "@acme/nothing", ${searched("@acme/returnlint-rule-nothing")}`);
    expect(run.stderr).not.toMatch(STACK_FRAME);
  });

  it("a near miss of a built-in id is suggested", () => {
    const root = project({ "bad.json": bad, "returnlint.config.json": { rules: { "artifact": "error" } } });
    const run = returnlint(["check", "bad.json"], { cwd: root });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('unknown rule "artifact" (did you mean "artifacts"?)');
  });

  it("a package that exports something else says what it exports", () => {
    const root = project({
      "bad.json": bad,
      ...packageFiles("returnlint-rule-config-like", 'export default { name: "config-like", rules: {} };\n'),
      ...packageFiles("returnlint-rule-named", 'export const rule = { id: "named" };\nexport const meta = {};\n'),
      ...packageFiles("returnlint-rule-function", "export default function makeRule() { return {}; }\n"),
      ...packageFiles("returnlint-rule-no-meta", 'export default { id: "no-meta", meta: { description: "d" }, check() {} };\n'),
      "returnlint.config.json": { rules: { "config-like": "error", named: "error", function: "error", "no-meta": "error" } },
    });
    const run = returnlint(["check", "bad.json"], { cwd: root });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("(4 problems)");
    expect(run.stderr).toContain(
      'rules.config-like: returnlint-rule-config-like (for "config-like") does not export a rule (an object with id, meta.schema, meta.messages and check) as its default export; it exports an object with keys name, rules (missing id, meta, check)',
    );
    expect(run.stderr).toContain("it exports no default, only named exports meta, rule");
    expect(run.stderr).toContain("it exports a function (makeRule)");
    expect(run.stderr).toContain("it exports an object with keys id, meta, check (missing meta.schema, meta.messages)");
  });

  it("a package whose exports give nothing to import, and one that does not load", () => {
    const root = project({
      "bad.json": bad,
      "node_modules/returnlint-rule-require-only/package.json": { name: "returnlint-rule-require-only", exports: { ".": { require: "./index.cjs" } } },
      "node_modules/returnlint-rule-require-only/index.cjs": ruleModule("require-only", { exportAs: "cjs" }),
      ...packageFiles("returnlint-rule-syntax", "export default {\n"),
      "returnlint.config.json": { rules: { "require-only": "error", syntax: "error" } },
    });
    const run = returnlint(["check", "bad.json"], { cwd: root });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/rules\.require-only: package "returnlint-rule-require-only" \(.*\) has no file to import: its "exports" give no "\." entry for the import, node or default condition/);
    expect(run.stderr).toMatch(/rules\.syntax: cannot load returnlint-rule-syntax \(.*index\.js\): /);
  });
});

describe("preset packages", () => {
  const presetFiles = (name: string, source: string, under = "."): Record<string, unknown> => ({
    [path.join(under, "node_modules", name, "package.json")]: { name, version: "1.0.0", type: "module", main: "index.js" },
    [path.join(under, "node_modules", name, "index.js")]: source,
  });

  it("returnlint-preset-x extends v7, and a preset may extend another package preset", () => {
    const root = project({
      "r.md": "# Report\n",
      "bad.json": { ...bad, summary: "x".repeat(30) },
      ...presetFiles("returnlint-preset-base", 'export default { extends: "v7", rules: { "summary-length": ["error", { maxChars: 20 }] } };\n'),
      ...presetFiles("returnlint-preset-team", 'export default { extends: "base", rules: { "status-enum": "off", ours: "error" } };\n'),
      // The rule only the preset depends on, installed beneath it.
      ...packageFiles("returnlint-rule-ours", ruleModule("ours"), "node_modules/returnlint-preset-team"),
      "returnlint.config.json": { preset: "team" },
    });
    const { status, report } = checkJson(root, "bad.json");
    expect(status).toBe(1);
    expect(report.format).toBe("v7");
    expect(report.preset).toBe("team");
    const ruleIds = new Set(report.results.map((result) => result.ruleId));
    expect(ruleIds.has("status-enum")).toBe(false);
    expect(ruleIds.has("required-fields")).toBe(true);
    expect(report.results).toContainEqual(expect.objectContaining({ ruleId: "summary-length", level: "fail" }));
    expect(report.results).toContainEqual(expect.objectContaining({ ruleId: "ours", messageId: "found" }));
  });

  it("--preset names a package preset, with no config file", () => {
    const root = project({ "r.md": "x", "ok.json": ok, ...presetFiles("returnlint-preset-house", 'export default { extends: "v5", format: "v5", rules: {} };\n') });
    const { report } = checkJson(root, "ok.json", ["--preset", "house"]);
    expect(report.format).toBe("v5");
    expect(report.preset).toBe("house");
  });

  it("a broken preset package says what is wrong with it; a cycle is named", () => {
    const root = project({
      "ok.json": ok,
      ...presetFiles("returnlint-preset-broken", 'export default { format: "v6", rules: { "status-enum": "fatal" } };\n'),
      ...presetFiles("returnlint-preset-loop-a", 'export default { extends: "loop-b", rules: {} };\n'),
      ...presetFiles("returnlint-preset-loop-b", 'export default { extends: "loop-a", rules: {} };\n'),
      "returnlint.config.json": { preset: "broken", commands: { plan: { preset: "loop-a" }, research: { preset: "missing" } } },
    });
    const run = returnlint(["check", "ok.json"], { cwd: root });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('returnlint-preset-broken does not export a valid preset: "format" must be one of v5, v7, metadata-file, handoff, multi-task; received "v6"; rules["status-enum"] must be "off", "warn", "error" or [severity, options]; received "fatal"');
    expect(run.stderr).toContain('preset "loop-a" extends itself: loop-a → loop-b → loop-a');
    expect(run.stderr).toMatch(/unknown preset "missing"; looked for built-in presets \(v5, v7, metadata-file, handoff, multi-task, strict, auto\), package "returnlint-preset-missing" from .* \(searched .*node_modules/);
  });
});

describe("a rule that throws", () => {
  it("is an internal error naming the rule and its source; the other rules' results still print", () => {
    const root = project({
      "r.md": "# Report\n",
      "ok.json": ok,
      ...packageFiles("returnlint-rule-crashy", ruleModule("crashy", { check: 'throw new Error("cannot parse the artifact");' })),
      "returnlint.config.json": { rules: { crashy: "error" } },
    });
    const text = returnlint(["check", "ok.json"], { cwd: root });
    expect(text.status).toBe(2);
    expect(text.stdout).toContain("[PASS] Return is valid JSON");
    expect(text.stdout).toContain("[PASS] Artifact exists: r.md");
    expect(text.stdout).toContain("[FAIL] Rule crashy crashed (from returnlint-rule-crashy)\nError: cannot parse the artifact");
    expect(text.stdout).not.toMatch(STACK_FRAME);

    const { status, report } = checkJson(root, "ok.json");
    expect(status).toBe(2);
    expect(report.results).toContainEqual(expect.objectContaining({ ruleId: "crashy", messageId: "ruleCrashed", level: "fail" }));
    expect(report.results.filter((result) => result.level === "pass").map((result) => result.ruleId)).toEqual(
      expect.arrayContaining(["json-structure", "required-fields", "status-enum", "artifacts"]),
    );
  });

  it("a local file rule that throws is named by its path", () => {
    const root = project({ "ok.json": ok, "r.md": "x", "rules/boom.mjs": ruleModule("boom", { check: "null.status;" }), "returnlint.config.json": { rules: { "./rules/boom.mjs": "warn" } } });
    const run = returnlint(["check", "ok.json"], { cwd: root });
    expect(run.status).toBe(2);
    expect(run.stdout).toContain(`[FAIL] Rule boom crashed (from ${path.join(realpathSync(root), "rules/boom.mjs")})`);
  });
});
