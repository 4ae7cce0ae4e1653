import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { tempProject, writeFiles } from "@returnlint/testing";
import { REPO, workspacePackages } from "./workspace-packages.js";

// The proof that a user outside this repository gets working packages: what `pnpm pack`
// puts in the tarballs (exports, files, bin, rewritten workspace:^ ranges) is all they get.
const publishable = workspacePackages().filter(({ manifest }) => manifest.private !== true);
const PLUGIN = "returnlint-rule-no-placeholder-artifacts";

let consumer: string;

function check(args: readonly string[]) {
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: "1" };
  delete env.RETURNLINT_SESSION_ID;
  const run = spawnSync(path.join(consumer, "node_modules", ".bin", "returnlint"), ["check", ...args], { cwd: consumer, encoding: "utf8", env, timeout: 30_000 });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe("the published packages, installed with npm outside the workspace", () => {
  beforeAll(() => {
    const work = tempProject();
    const tarballs = path.join(work, "tarballs");
    for (const { folder } of publishable) {
      execFileSync("pnpm", ["pack", "--pack-destination", tarballs], { cwd: path.join(REPO, folder), stdio: "pipe" });
    }
    consumer = path.join(work, "consumer");
    writeFiles(consumer, { "package.json": { name: "consumer", version: "1.0.0", private: true, type: "module" } });
    const files = readdirSync(tarballs).map((name) => path.join(tarballs, name));
    execFileSync("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error", ...files], { cwd: consumer, stdio: "pipe", timeout: 240_000 });
  }, 300_000);

  it("packs every publishable package, the example plugin among them", () => {
    expect(publishable.map(({ manifest }) => manifest.name)).toEqual(expect.arrayContaining(["returnlint", "@returnlint/core", "@returnlint/rule-tester", PLUGIN]));
    const installed = readdirSync(path.join(consumer, "node_modules", "@returnlint")).map((name) => `@returnlint/${name}`);
    for (const { manifest } of publishable) {
      if (manifest.name.startsWith("@returnlint/")) expect(installed).toContain(manifest.name);
    }
  });

  it("the installed bin explains a built-in rule from the README it was built with", () => {
    const run = spawnSync(path.join(consumer, "node_modules", ".bin", "returnlint"), ["explain", "session-id"], { cwd: consumer, encoding: "utf8", timeout: 30_000 });
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(readFileSync(path.join(REPO, "packages", "rule-session-id", "README.md"), "utf8"));
  });

  it("ships the bin and the config validator's chunk with V8 code caches that this Node accepts", () => {
    // A rejected cache still runs, only slower: this is what keeps start-up near `node -e 0` (BENCHMARKS.md).
    const dist = path.join(consumer, "node_modules", "returnlint", "dist");
    const files = [path.join(dist, "cli.cjs"), path.join(dist, "chunks", "validator-config.cjs")];
    // The wrapper the installed bin compiles them in: its `WRAPPER` (build/bin.mjs reads the same from src/loader.cjs).
    const wrapper = /const WRAPPER=("[^"\n]*");/.exec(readFileSync(path.join(dist, "returnlint.cjs"), "utf8"))?.[1];
    expect(wrapper).toBeDefined();
    const script = [
      'const { readFileSync } = require("node:fs");',
      'const { Script } = require("node:vm");',
      `for (const file of ${JSON.stringify(files)}) {`,
      '  const text = readFileSync(file, "utf8");',
      '  const cachedData = readFileSync(`${file}.cache`);',
      // As dist/returnlint.cjs compiles them (src/loader.cjs): the build wrote cli.cjs inside the
      // loader's wrapper, with the host it hands them; a chunk is wrapped when it is read.
      `  const wrapper = ${wrapper ?? "undefined"};`,
      "  const source = text.startsWith(wrapper) ? text : `${wrapper}${text}\\n});`;",
      "  console.log(new Script(source, { filename: file, cachedData }).cachedDataRejected);",
      "}",
    ].join("\n");
    expect(execFileSync(process.execPath, ["-e", script], { encoding: "utf8" })).toBe("false\nfalse\n");
  });

  describe("a config naming the example plugin by package name", () => {
    const report = "specs/1_fix/reports/research-001.md";
    beforeAll(() => {
      const value = (status: string, artifact: string) => ({
        status,
        summary: "Researched the fix.",
        artifacts: [{ type: "report", path: artifact, summary: "Research report" }],
        metadata: { session_id: "sess_1", agent_type: "researcher", delegation_depth: 1, delegation_path: ["orchestrator", "research", "researcher"] },
      });
      writeFiles(consumer, {
        "returnlint.config.json": { preset: "v7", rules: { [PLUGIN]: "error" } },
        "template.json": value("completed", report),
        [report]: "# Research Report\n\n## Findings\n\nTODO: write the findings.\n",
        "written.json": value("completed", "specs/1_fix/reports/research-002.md"),
        "specs/1_fix/reports/research-002.md": "# Research Report\n\n## Findings\n\nThe validator skipped Stage 3.\n",
      });
    });

    it("flags a placeholder artifact: exit 1 and the plugin's finding", () => {
      const run = check(["template.json", "--session-id", "sess_1"]);
      expect(run.stderr).toBe("");
      expect(run.stdout).toContain(`[FAIL] Artifact is an unfilled template: ${report} line 5 has a to-do marker "TODO"`);
      expect(run.stdout).toContain("Rule: no-placeholder-artifacts at /artifacts/0/path");
      expect(run.status).toBe(1);
    });

    it("passes a written artifact: exit 0", () => {
      const run = check(["written.json", "--session-id", "sess_1", "--format", "json"]);
      expect(run.stderr).toBe("");
      const parsed = JSON.parse(run.stdout) as { ok: boolean; results: { ruleId: string; level: string; message: string }[] };
      expect(parsed.ok).toBe(true);
      expect(parsed.results).toContainEqual(
        expect.objectContaining({ ruleId: "no-placeholder-artifacts", level: "pass", message: "Artifact is not a template: specs/1_fix/reports/research-002.md" }),
      );
      expect(run.status).toBe(0);
    });

    it("the library API and the rule tester import from the installed packages", () => {
      const script = [
        'import { validate } from "returnlint";',
        'import { RuleTester } from "@returnlint/rule-tester";',
        `import rule from "${PLUGIN}";`,
        'const report = await validate(JSON.stringify({ status: "completed", summary: "s", artifacts: [] }), { command: "plan" });',
        'console.log(JSON.stringify({ ok: report.ok, id: rule.id, tester: typeof RuleTester }));',
      ].join("\n");
      const output = execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: consumer, encoding: "utf8" });
      expect(JSON.parse(output)).toEqual({ ok: false, id: "no-placeholder-artifacts", tester: "function" });
    });
  });
});
