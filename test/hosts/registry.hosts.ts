import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { agentFile, runClaude } from "./claude.js";
import { commandLines, jsonSnippet, snippet } from "./docs.js";
import { binOf, cleanUp, readJson, REPO, run, tempDir, writeFiles } from "./hosts.js";
import { startModelServer, type ModelServer } from "./model-server.js";
import { opencodeConfig, runOpencode } from "./opencode.js";
import { npmProject } from "./registry.js";
import { opencodeResume, PARENT_PROMPT, phantomThenFixed, REPORT, RESEARCHER_PROMPT, WRITE_REPORT } from "./scenarios.js";

// What a user gets from a registry: the workspace published with changesets (global-setup.ts)
// to a loopback Verdaccio, then installed in clean folders with only node and npm, by the
// lines the docs give.

const registry = inject("registry");
const published = inject("published");
const NODE_BIN = path.dirname(process.execPath);

let server: ModelServer;
let cache: string;
let claudeHome: string;
let opencodeHome: string;

beforeAll(async () => {
  server = await startModelServer();
  cache = tempDir("npm-cache");
  claudeHome = tempDir("registry-claude-home");
  opencodeHome = tempDir("registry-opencode-home");
});

afterAll(async () => {
  await server.close();
  cleanUp();
});

/** A clean folder whose npm reaches only the loopback registry, and whose PATH holds node, npm and the system's tools. */
function userProject(name: string): { root: string; env: Record<string, string> } {
  const root = tempDir(name);
  writeFiles(root, { "package.json": { name, version: "1.0.0", private: true, type: "module" } });
  const env = { ...npmProject(root, registry), npm_config_cache: cache, PATH: [path.join(root, "node_modules", ".bin"), NODE_BIN, "/usr/bin", "/bin"].join(path.delimiter) };
  return { root, env };
}

/** Runs one line of the docs in a shell, as a user would type it. */
async function sh(line: string, cwd: string, env: Record<string, string>) {
  return run("sh", ["-c", line], { cwd, env, timeoutMs: 300_000 });
}

async function install(line: string, cwd: string, env: Record<string, string>): Promise<void> {
  const done = await sh(`${line} --no-audit --no-fund --loglevel=error`, cwd, env);
  expect(done.status, `${line}\n${done.stderr}`).toBe(0);
}

const phantom = JSON.stringify({
  status: "completed",
  summary: "Researched task 259.",
  artifacts: [{ type: "report", path: REPORT, summary: "Research report" }],
  metadata: { session_id: "sess_1", agent_type: "researcher", delegation_depth: 1, delegation_path: ["orchestrator", "research", "researcher"] },
});

function footprint(dir: string): { bytes: number; files: number } {
  let bytes = 0;
  let files = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    files += 1;
    bytes += statSync(path.join(entry.parentPath, entry.name)).size;
  }
  return { bytes, files };
}

describe("the workspace, released to a loopback registry", () => {
  it("holds every public package at the version changesets gave it", async () => {
    expect(Object.keys(published)).toEqual(expect.arrayContaining(["returnlint", "@returnlint/core", "@returnlint/opencode", "@returnlint/rule-tester", "returnlint-rule-no-placeholder-artifacts"]));
    const { root, env } = userProject("view");
    const view = await sh("npm view returnlint version", root, env);
    expect(view.stdout.trim()).toBe(published.returnlint);
  });

  it("installs with the docs' project lines: npm install returnlint, then npx returnlint check", async () => {
    const { root, env } = userProject("project");
    const [installLine, checkLine, ...rest] = commandLines("install-project");
    expect(rest).toEqual([]);
    await install(String(installLine), root, env);
    writeFiles(root, { "return.json": phantom });
    const failed = await sh(String(checkLine), root, env);
    expect(failed.stdout).toContain(`[FAIL] Artifact does not exist: ${REPORT}`);
    expect(failed.status).toBe(1);
    writeFiles(root, { [REPORT]: "# Research\n" });
    const passed = await sh(String(checkLine), root, env);
    expect(passed.stdout).toContain("[PASS] Return validation succeeded");
    expect(passed.status).toBe(0);

    const size = footprint(path.join(root, "node_modules"));
    console.log(`install footprint of returnlint@${published.returnlint}: ${(size.bytes / 1024 / 1024).toFixed(2)} MiB in ${String(size.files)} files`);
    // One self-contained package: nothing else is resolved or installed (docs/install.md).
    expect(readdirSync(path.join(root, "node_modules")).filter((name) => !name.startsWith("."))).toEqual(["returnlint"]);
  });

  it("installs with the docs' global lines: npm install -g returnlint puts returnlint on the PATH", async () => {
    const { root, env } = userProject("global");
    const prefix = path.join(root, "global");
    const globalEnv = { ...env, npm_config_prefix: prefix, PATH: `${path.join(prefix, "bin")}${path.delimiter}${env.PATH ?? ""}` };
    const [installLine, checkLine] = commandLines("install-global");
    await install(String(installLine), root, globalEnv);
    expect(existsSync(path.join(prefix, "bin", "returnlint"))).toBe(true);
    writeFiles(root, { "return.json": phantom, [REPORT]: "# Research\n" });
    const checked = await sh(String(checkLine), root, globalEnv);
    expect(checked.status, checked.stderr).toBe(0);
    expect((await sh("returnlint --version", root, globalEnv)).stdout.trim()).toBe(published.returnlint);
  });

  it("serves a rule author: the docs' lines install the rule tester, and vitest runs a rule's table (and fails a wrong one)", async () => {
    const { root, env } = userProject("rule-author");
    const [installLine, testLine] = commandLines("install-rule-author");
    await install(String(installLine), root, env);
    writeFiles(root, {
      "no-draft.js": [
        'import { defineRule } from "@returnlint/core";',
        "export default defineRule({",
        '  id: "no-draft",',
        "  meta: {",
        '    description: "A return is not a draft.",',
        '    docs: "https://example.com/no-draft",',
        '    schema: { type: "object", additionalProperties: false, properties: {} },',
        "    defaultOptions: {},",
        '    messages: { draft: { text: "Status is a draft: {status}", recommendation: "Finish the work before returning" } },',
        "  },",
        "  check(context) {",
        '    if (context.value.status === "draft") context.report({ messageId: "draft", data: { status: "draft" }, pointer: "/status" });',
        "  },",
        "});",
        "",
      ].join("\n"),
      "no-draft.test.js": [
        'import { describe, it } from "vitest";',
        'import { RuleTester } from "@returnlint/rule-tester";',
        'import rule from "./no-draft.js";',
        "new RuleTester({ describe, it }).run(rule, {",
        '  valid: [{ name: "done", input: { status: "completed" } }],',
        '  invalid: [{ name: "a draft", input: { status: "draft" }, errors: [{ messageId: "draft", pointer: "/status" }] }],',
        "});",
        "",
      ].join("\n"),
    });
    const passed = await sh(String(testLine), root, env);
    expect(passed.status, passed.stdout + passed.stderr).toBe(0);
    expect(passed.stdout).toMatch(/no-draft\.test\.js \(\d+ tests\)/);
    expect(passed.stdout).toMatch(/Tests\s+\d+ passed \(\d+\)/);
    writeFiles(root, { "wrong.test.js": readFileSync(path.join(root, "no-draft.test.js"), "utf8").replace('pointer: "/status"', 'pointer: "/summary"') });
    const failed = await sh(String(testLine), root, env);
    expect(failed.status).toBe(1);
    expect(failed.stdout + failed.stderr).toContain("/summary");
  });

  it("loads the example rule package by its short name", async () => {
    const { root, env } = userProject("example-rule");
    await install("npm install --save-dev returnlint returnlint-rule-no-placeholder-artifacts", root, env);
    writeFiles(root, {
      "returnlint.config.json": { preset: "v7", rules: { "no-placeholder-artifacts": "error" } },
      "return.json": phantom,
      [REPORT]: "# Research Report\n\n## Findings\n\nTODO: write the findings.\n",
    });
    const checked = await sh("npx returnlint check return.json --command research", root, env);
    expect(checked.stdout).toContain(`[FAIL] Artifact is an unfilled template: ${REPORT} line 5 has a to-do marker "TODO"`);
    expect(checked.status).toBe(1);
  });
});

describe("the hosts, with what the registry installs", () => {
  /** A project with the docs' three agents and returnlint installed from the registry. */
  async function claudeProject(name: string, withReturnlint = true): Promise<{ root: string; env: Record<string, string> }> {
    const project = userProject(name);
    writeFiles(project.root, {
      ".claude/agents/lean-research-agent.md": agentFile("lean-research-agent", RESEARCHER_PROMPT),
      ".claude/agents/planner.md": agentFile("planner", "You plan tasks."),
      ".claude/agents/implementer.md": agentFile("implementer", "You implement plans."),
    });
    if (withReturnlint) await install("npm install --save-dev returnlint", project.root, project.env);
    return project;
  }

  it("Claude Code runs the project's node_modules/returnlint with node, written by returnlint init claude as the docs show", async () => {
    const { root, env } = await claudeProject("claude-hook");
    const init = await sh("npx returnlint init claude", root, env);
    expect(init.status, init.stderr).toBe(0);
    // Installed in node_modules: init runs that copy, and writes no copy of its own.
    expect(init.stdout).toContain("Next: keep returnlint in the project's devDependencies: the hook runs node_modules/returnlint with node\n");
    expect(existsSync(path.join(root, ".claude", "hooks"))).toBe(false);
    expect(readJson(path.join(root, ".claude", "settings.json"))).toEqual(jsonSnippet("claude-settings"));
    server.play(phantomThenFixed(root));
    const ran = await runClaude(root, PARENT_PROMPT, { server, home: claudeHome, registry });
    expect(ran.status, ran.stderr).toBe(0);
    expect(server.of("lean-research-agent")[1]?.input).toContain(WRITE_REPORT);
    expect(readdirSync(path.join(root, ".returnlint", "verdicts")).map((file) => readJson(path.join(root, ".returnlint", "verdicts", file)))).toEqual([
      expect.objectContaining({ ok: true, attempts: 2, decision: "pass" }),
    ]);
  });

  it("Claude Code loads the returnlint plugin from the marketplace, installed the docs' way", async () => {
    const { root, env } = await claudeProject("claude-plugin");
    const home = tempDir("plugin-home");
    const [line] = commandLines("claude-plugin-install");
    // The docs name the GitHub repository; here the marketplace is this checkout.
    const args = String(line).replace(/^claude /, "").replace("returnlint/returnlint", REPO).split(" ");
    const installed = await run(binOf("claude"), args, { cwd: root, env: { ...env, HOME: home }, timeoutMs: 120_000 });
    expect(installed.status, installed.stdout + installed.stderr).toBe(0);
    server.play(phantomThenFixed(root));
    const ran = await runClaude(root, PARENT_PROMPT, { server, home, registry });
    expect(ran.status, ran.stderr).toBe(0);
    expect(server.of("lean-research-agent")).toHaveLength(3);
    expect(server.of("lean-research-agent")[1]?.input).toContain("returnlint: Your final message's return failed validation for /research");
    expect(existsSync(path.join(root, REPORT))).toBe(true);
  });

  it("Claude Code without returnlint installed: the hook fails where the user sees it, and no verdict is written", async () => {
    const { root } = await claudeProject("claude-missing", false);
    writeFiles(root, { ".claude/settings.json": jsonSnippet("claude-settings") });
    server.play(phantomThenFixed(root));
    const ran = await runClaude(root, PARENT_PROMPT, { server, home: claudeHome, registry });
    const [stop] = ran.hooks.filter((hook) => hook.event === "SubagentStop");
    expect(stop?.exitCode).toBe(1);
    expect(stop?.stderr).toContain("Cannot find module");
    // Not blocked: the return went to the parent unchecked, and the postflight gate finds no verdict.
    expect(server.of("lean-research-agent")).toHaveLength(1);
    expect(existsSync(path.join(root, ".returnlint"))).toBe(false);
  });

  it('OpenCode installs "@returnlint/opencode" by name from the registry, from the docs\' opencode.json', async () => {
    const root = tempDir("opencode-by-name");
    const docs = jsonSnippet("opencode-json") as { plugin: unknown[] };
    writeFiles(root, { "opencode.json": opencodeConfig(server, RESEARCHER_PROMPT, docs.plugin) });
    server.play(opencodeResume(root));
    const ran = await runOpencode(root, PARENT_PROMPT, { home: tempDir("opencode-by-name-home"), registry });
    expect(ran.status, ran.stderr).toBe(0);
    const parent = server.of("main");
    expect(parent[1]?.input).toContain('<validation tool="returnlint" ok="false">');
    expect(parent.at(-1)?.input).toContain('<validation tool="returnlint" ok="true">');
    expect(readFileSync(path.join(root, REPORT), "utf8")).toContain("Written when resumed.");
  });

  it("OpenCode loads the copy in node_modules through the file returnlint init opencode --local writes", async () => {
    const { root, env } = userProject("opencode-local");
    await install("npm install --save-dev returnlint @returnlint/opencode", root, env);
    const init = await sh("npx returnlint init opencode --local", root, env);
    expect(init.status, init.stderr).toBe(0);
    expect(readFileSync(path.join(root, ".opencode", "plugins", "returnlint.js"), "utf8")).toContain(snippet("opencode-local-plugin"));
    writeFiles(root, { "opencode.json": opencodeConfig(server, RESEARCHER_PROMPT, []) });
    server.play(opencodeResume(root));
    const ran = await runOpencode(root, PARENT_PROMPT, { home: opencodeHome, registry });
    expect(ran.status, ran.stderr).toBe(0);
    expect(server.of("main")[1]?.input).toContain(`<validation tool="returnlint" ok="false">\nThe lean-research-agent return failed validation for /research (1 problem):\n1. Artifact does not exist: ${REPORT}`);
  });
});
