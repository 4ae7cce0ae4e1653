// The build's lazy chunks (build/lazy-chunks.mjs): a module imported with import() leaves the
// bundle for a chunk of its own, which shares the bundle's modules instead of carrying copies, and
// the build fails loudly when a unit cannot leave.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tempProject } from "@returnlint/testing";
import { bundleCliWithLazyChunks } from "../build/lazy-chunks.mjs";

const SHARED = "export class Thing {}\nexport const made = [];\n";
const HEAVY = "import { Thing, made } from './shared.js';\nexport const HEAVY_TEXT = 'only the heavy module says this';\nexport function heavy() {\n  made.push(HEAVY_TEXT);\n  return new Thing();\n}\n";
const MAIN = "import { Thing, made } from './shared.js';\nexport async function run() {\n  const { heavy } = await import('./heavy.js');\n  return { same: heavy() instanceof Thing, made: [...made] };\n}\n";

function bundleIn(folder) {
  const common = { absWorkingDir: folder, bundle: true, platform: "node", format: "cjs", supported: { "dynamic-import": false }, logLevel: "silent" };
  return bundleCliWithLazyChunks({
    cli: folder,
    options: { ...common, entryPoints: ["src/main.js"], outfile: "dist/cli.cjs" },
    plugins: [],
    units: [{ chunk: "heavy", importer: path.join(folder, "src/main.js"), specifier: "./heavy.js", entry: path.join(folder, "src/heavy.js") }],
    chunkOptions: common,
    chunkPlugins: {},
  });
}

describe("bundleCliWithLazyChunks", () => {
  it("moves a module imported with import() into its chunk, which uses the bundle's own copy of what they share", async () => {
    const folder = tempProject({ "src/shared.js": SHARED, "src/heavy.js": HEAVY, "src/main.js": MAIN });
    await bundleIn(folder);
    expect(readFileSync(path.join(folder, "dist/cli.cjs"), "utf8")).not.toContain("only the heavy module says this");
    const chunk = readFileSync(path.join(folder, "dist/chunks/heavy.cjs"), "utf8");
    expect(chunk).toContain("only the heavy module says this");
    expect(chunk).not.toContain("class Thing");
    // One Thing class and one `made` list: the chunk's module state is the bundle's.
    const { run } = createRequire(import.meta.url)(path.join(folder, "dist/cli.cjs"));
    await expect(run()).resolves.toEqual({ same: true, made: ["only the heavy module says this"] });
  });

  it("fails when a static import still brings the module into the bundle", async () => {
    const folder = tempProject({ "src/shared.js": SHARED, "src/heavy.js": HEAVY, "src/main.js": `import { HEAVY_TEXT } from './heavy.js';\nconsole.log(HEAVY_TEXT);\n${MAIN}` });
    await expect(bundleIn(folder)).rejects.toThrow("lazy chunks: cli.cjs still bundles src/heavy.js: a static import reaches it, or its import() moved (apps/cli/build/)");
  });

  it("fails when no import() of the module reaches the bundle", async () => {
    const folder = tempProject({ "src/shared.js": SHARED, "src/heavy.js": HEAVY, "src/main.js": "import { made } from './shared.js';\nexport const run = () => made;\n" });
    await expect(bundleIn(folder)).rejects.toThrow("lazy chunks: no import() of ./heavy.js in src/main.js reached cli.cjs: did the import move? (apps/cli/build/)");
  });
});
