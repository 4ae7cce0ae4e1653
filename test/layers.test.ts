import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO, workspacePackages } from "./workspace-packages.js";

// ARCHITECTURE.md: data and dependencies flow one way, apps → @returnlint/api → core; rules and
// presets are data core is handed. A package never reaches into apps/ (by path or by the app's name).

/** Every import or require specifier in a source text. */
function specifiers(text: string): string[] {
  const found: string[] = [];
  const patterns = [/\bfrom\s*["']([^"']+)["']/g, /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g, /\brequire\s*\(\s*["']([^"']+)["']\s*\)/g, /^\s*import\s*["']([^"']+)["']/gm];
  for (const pattern of patterns) for (const match of text.matchAll(pattern)) found.push(match[1] ?? "");
  return found;
}

/** The source files of a folder (no dist, no node_modules). */
function sources(folder: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name === "dist" || entry.name.startsWith(".")) continue;
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) out.push(...sources(full));
    else if (/\.(?:[cm]?ts|[cm]?js)$/.test(entry.name)) out.push(full);
  }
  return out;
}

/** The names that run rules outside `lint`: the library's `validate` and `checkFound`, core's runner and rule resolution. */
const RUNNER = new Set(["validate", "checkFound", "runRules", "runRulesEagerly", "rulesFor"]);

/** The runner's names a source text imports from the library or core. */
function runnerImports(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/\bimport\s*\{([^}]*)\}\s*from\s*["']@returnlint\/(?:api|core)["']/g)) {
    for (const part of (match[1] ?? "").split(",")) {
      const name = part.trim().replace(/^type\s+/, "").split(/\s+as\s+/)[0] ?? "";
      if (RUNNER.has(name)) found.push(name);
    }
  }
  return found;
}

const APPS = path.join(REPO, "apps");
const appNames = new Set(workspacePackages().filter(({ folder }) => folder.startsWith("apps/")).map(({ manifest }) => manifest.name));

/** Each way a file under packages/ depends on an app: a relative path into apps/, or an app's package name. */
function appImports(file: string, text: string): string[] {
  return specifiers(text).filter((specifier) => {
    if (specifier.startsWith(".")) return path.resolve(path.dirname(file), specifier).startsWith(APPS + path.sep);
    const name = specifier.startsWith("@") ? specifier.split("/").slice(0, 2).join("/") : (specifier.split("/")[0] ?? "");
    return appNames.has(name);
  });
}

describe("layers", () => {
  it("no file under packages/ imports from apps/, by path or by an app's name", () => {
    const found: string[] = [];
    for (const file of sources(path.join(REPO, "packages"))) {
      for (const specifier of appImports(file, readFileSync(file, "utf8"))) found.push(`${path.relative(REPO, file)}: ${specifier}`);
    }
    expect(found).toEqual([]);
  });

  it("no package under packages/ depends on an app", () => {
    const found = workspacePackages()
      .filter(({ folder }) => folder.startsWith("packages/"))
      .flatMap(({ folder, manifest }) =>
        ["dependencies", "devDependencies", "peerDependencies", "optionalDependencies"].flatMap((field) =>
          Object.keys((manifest[field] ?? {}) as Record<string, string>)
            .filter((dependency) => appNames.has(dependency))
            .map((dependency) => `${folder}: ${field}.${dependency}`),
        ),
      );
    expect(found).toEqual([]);
  });

  it("core is handed its rules, presets and importer: it imports no rule or preset and reads no global importer", () => {
    const found: string[] = [];
    for (const file of sources(path.join(REPO, "packages/core/src"))) {
      const text = readFileSync(file, "utf8");
      for (const specifier of specifiers(text)) if (/^@returnlint\/(?:rule|preset)-/.test(specifier)) found.push(`${path.relative(REPO, file)}: ${specifier}`);
      if (text.includes("returnlint.importFile")) found.push(`${path.relative(REPO, file)}: reads the global returnlint.importFile`);
    }
    expect(found).toEqual([]);
  });

  it("the scan can fail: it sees a path into apps/ and the app's name", () => {
    const file = path.join(REPO, "packages/api/src/example.ts");
    expect(appImports(file, 'import { main } from "../../../apps/cli/src/main.js";\nconst x = await import("returnlint");')).toEqual([
      "../../../apps/cli/src/main.js",
      "returnlint",
    ]);
    expect(appImports(file, 'import { validate } from "@returnlint/api";\nimport { x } from "./local.js";')).toEqual([]);
  });

  it("rule packages are independent: each depends on core alone among our packages", () => {
    const found = workspacePackages()
      .filter(({ folder }) => folder.startsWith("packages/rule-") && folder !== "packages/rule-tester")
      .flatMap(({ folder, manifest }) =>
        Object.keys((manifest.dependencies ?? {}) as Record<string, string>)
          .filter((dependency) => dependency.startsWith("@returnlint/") && dependency !== "@returnlint/core")
          .map((dependency) => `${folder}: ${dependency}`),
      );
    expect(found).toEqual([]);
  });

  it("the Claude Code host and the audit are packages, not part of the app", () => {
    const app = path.join(REPO, "apps/cli/src");
    const inApp = sources(app).map((file) => path.relative(app, file)).filter((file) => /^(?:hook|audit)\//.test(file));
    expect(inApp).toEqual([]);
    expect(workspacePackages().map(({ manifest }) => manifest.name)).toEqual(expect.arrayContaining(["@returnlint/hooks", "@returnlint/audit"]));
  });

  it("only the library runs rules: nothing outside packages/api (and core, rule-tester) imports the runner or validate", () => {
    const found: string[] = [];
    for (const folder of ["apps", "packages"]) {
      for (const file of sources(path.join(REPO, folder))) {
        const relative = path.relative(REPO, file);
        if (/^packages\/(?:api|core|rule-tester)\//.test(relative) || /\.test\.[cm]?[jt]s$|\/test\/|\/build\//.test(relative)) continue;
        for (const name of runnerImports(readFileSync(file, "utf8"))) found.push(`${relative}: ${name}`);
      }
    }
    expect(found).toEqual([]);
  });

  it("the runner scan can fail: it sees validate and the runner imported, not a re-export", () => {
    expect(runnerImports('import { lint, validate } from "@returnlint/api";\nimport { rulesFor as r } from "@returnlint/core";')).toEqual(["validate", "rulesFor"]);
    expect(runnerImports('export { validate } from "@returnlint/api";\nimport { lintSource } from "@returnlint/api";')).toEqual([]);
  });

  it("scripts/ and bench/ load the library through a package, not through apps/cli/dist/index.js", () => {
    const found: string[] = [];
    for (const folder of ["scripts", "bench"]) {
      for (const file of sources(path.join(REPO, folder))) {
        const text = readFileSync(file, "utf8");
        if (/apps\/cli\/(?:dist|src)\/index\.js/.test(text)) found.push(path.relative(REPO, file));
      }
    }
    expect(found).toEqual([]);
  });
});
