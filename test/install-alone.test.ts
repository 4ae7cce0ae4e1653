// `returnlint` is one self-contained package: its tarball installs ALONE, with no registry to
// reach (npm --offline, and a registry address where nothing listens), in an empty folder, and
// gives a working bin, a working library import and types that compile, as docs/install.md says.
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { tempProject } from "@returnlint/testing";
import { REPO } from "./workspace-packages.js";

let consumer: string;
let installLog: string;

const env = () => {
  // npm as a user runs it: without the npm_config_* that pnpm, running these tests, sets for its children.
  const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith("npm_config_") && name !== "RETURNLINT_SESSION_ID"));
  return { ...clean, NO_COLOR: "1", npm_config_update_notifier: "false" };
};

describe("the returnlint tarball, installed alone without a registry", () => {
  beforeAll(() => {
    const work = tempProject();
    const tarballs = path.join(work, "tarballs");
    execFileSync("pnpm", ["pack", "--pack-destination", tarballs], { cwd: path.join(REPO, "apps", "cli"), stdio: "pipe" });
    const [tarball] = readdirSync(tarballs);
    consumer = path.join(work, "empty folder");
    mkdirSync(consumer);
    // 127.0.0.1:9 (discard): nothing answers there, so any lookup would fail the install.
    installLog = execFileSync("npm", ["install", "--offline", "--registry", "http://127.0.0.1:9/", "--no-audit", "--no-fund", path.join(tarballs, tarball ?? "")], {
      cwd: consumer,
      encoding: "utf8",
      env: env(),
      timeout: 120_000,
    });
  }, 180_000);

  it("installs one package and nothing else: no dependency to resolve", () => {
    expect(installLog).toContain("added 1 package");
    expect(readdirSync(path.join(consumer, "node_modules")).filter((name) => !name.startsWith("."))).toEqual(["returnlint"]);
    const manifest = JSON.parse(readFileSync(path.join(consumer, "node_modules", "returnlint", "package.json"), "utf8")) as Record<string, unknown>;
    expect(manifest.dependencies).toBeUndefined();
  });

  it("npx returnlint check works: a valid return passes, a phantom one fails", () => {
    cpSync(path.join(REPO, "examples", "valid-v7"), path.join(consumer, "valid-v7"), { recursive: true });
    const passed = spawnSync("npx", ["--offline", "returnlint", "check", "valid-v7/return.json", "--root", "valid-v7", "--command", "research"], { cwd: consumer, encoding: "utf8", env: env(), timeout: 60_000 });
    expect(passed.stderr).toBe("");
    expect(passed.stdout).toContain("[PASS] Return validation succeeded");
    expect(passed.status).toBe(0);
    const failed = spawnSync("npx", ["--offline", "returnlint", "check", path.join(REPO, "examples", "phantom-work", "return.json")], { cwd: consumer, encoding: "utf8", env: env(), timeout: 60_000 });
    expect(failed.stdout).toContain("[FAIL]");
    expect(failed.status).toBe(1);
  }, 60_000);

  it("a config with options and YAML loads from the bundle (ajv's and yaml's code are inside it)", () => {
    const project = path.join(consumer, "yaml-project");
    cpSync(path.join(REPO, "examples", "valid-v7"), project, { recursive: true });
    writeFileSync(path.join(project, "returnlint.config.yaml"), "preset: v7\nrules:\n  summary-length: [warn, { maxChars: 20 }]\n");
    const run = spawnSync(path.join(consumer, "node_modules", ".bin", "returnlint"), ["check", "return.json", "--command", "research"], { cwd: project, encoding: "utf8", env: env() });
    expect(run.stderr).toBe("");
    expect(run.stdout).toContain("Rule: summary-length at /summary");
    expect(run.status).toBe(0);
  });

  it("returnlint init points the config's $schema at the installed package's schema, which is there", () => {
    const project = path.join(consumer, "init-project");
    mkdirSync(project);
    symlinkSync(path.join(consumer, "node_modules"), path.join(project, "node_modules"));
    const run = spawnSync(path.join(consumer, "node_modules", ".bin", "returnlint"), ["init", "--preset", "v7"], { cwd: project, encoding: "utf8", env: env() });
    expect(run.status).toBe(0);
    expect(readFileSync(path.join(project, "returnlint.config.yaml"), "utf8").split("\n")[0]).toBe("# yaml-language-server: $schema=./node_modules/returnlint/dist/config.schema.json");
    const schema = JSON.parse(readFileSync(path.join(project, "node_modules", "returnlint", "dist", "config.schema.json"), "utf8")) as { properties: Record<string, unknown> };
    expect(Object.keys(schema.properties)).toEqual(expect.arrayContaining(["preset", "rules", "commands"]));
  });

  it('import { lint } from "returnlint" works', () => {
    const script = [
      'import { lint, textSource } from "returnlint";',
      'const [result] = await lint([textSource(JSON.stringify({ status: "completed", summary: "s", artifacts: [] }))], { root: process.cwd(), command: "plan" });',
      "console.log(JSON.stringify({ ok: result.ok, exitCode: result.exitCode, phantom: result.facts.phantom }));",
    ].join("\n");
    const output = execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: consumer, encoding: "utf8" });
    expect(JSON.parse(output)).toMatchObject({ ok: false, exitCode: 1 });
  });

  it("its types compile under tsc --strict with skipLibCheck off, and catch a wrong use", () => {
    // A TypeScript project has typescript and @types/node of its own; returnlint brings nothing else.
    mkdirSync(path.join(consumer, "node_modules", "@types"), { recursive: true });
    symlinkSync(path.join(REPO, "node_modules", "@types", "node"), path.join(consumer, "node_modules", "@types", "node"));
    writeFileSync(path.join(consumer, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
    const tsconfig = { compilerOptions: { strict: true, module: "nodenext", moduleResolution: "nodenext", target: "es2022", noEmit: true, skipLibCheck: false, types: ["node"] } };
    const compile = (name: string, source: string) => {
      writeFileSync(path.join(consumer, `${name}.ts`), source);
      writeFileSync(path.join(consumer, "tsconfig.json"), JSON.stringify({ ...tsconfig, files: [`${name}.ts`] }));
      return spawnSync(process.execPath, [path.join(REPO, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.json"], { cwd: consumer, encoding: "utf8" });
    };
    const good = compile(
      "good",
      [
        'import { lint, textSource, defineRule, type LintResult, type Rule } from "returnlint";',
        'const results: LintResult[] = await lint([textSource("{}")], { root: process.cwd() });',
        "const ok: boolean = results[0]?.ok ?? false;",
        'const rule: Rule = defineRule((id) => `https://example.com/${id}`)({ id: "r", meta: { description: "d", schema: {}, defaultOptions: {}, messages: { m: { text: "t" } } }, check() {} }) as Rule;',
        "console.log(ok, rule.id);",
        "",
      ].join("\n"),
    );
    expect(good.stdout + good.stderr).toBe("");
    expect(good.status).toBe(0);
    const wrong = compile("wrong", 'import { lint, textSource } from "returnlint";\nconst results = await lint([textSource("{}")], { root: process.cwd() });\nconst ok: string = results[0]!.ok;\nconsole.log(ok);\n');
    expect(wrong.stdout).toContain("wrong.ts(3,7): error TS2322: Type 'boolean' is not assignable to type 'string'.");
  }, 120_000);
});
