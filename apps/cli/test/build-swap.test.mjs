// The build's module swaps (build/swap-module.mjs) fail loudly when the module they replace moves.
import path from "node:path";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import { tempProject } from "@returnlint/testing";
import { swapModule } from "../build/swap-module.mjs";

async function bundleWith(folder, entry, swap) {
  const result = await build({ absWorkingDir: folder, entryPoints: [entry], bundle: true, write: false, platform: "node", format: "cjs", logLevel: "silent", plugins: [swap.plugin] });
  return result.outputFiles[0].text;
}

const docs = "export const DOCS = 'the original';\n";
const toChunk = { path: "./chunks/docs.cjs", external: true };

describe("swapModule", () => {
  it("swaps the module its importers name, matched by the file it resolves to", async () => {
    const folder = tempProject({ "src/docs.js": docs, "src/commands/explain.js": "export const load = () => import('../docs.js');\n", "src/main.js": "import { load } from './commands/explain.js';\nload();\n" });
    const swap = swapModule({ name: "docs", module: path.join(folder, "src/docs.js"), to: toChunk });
    const text = await bundleWith(folder, "src/main.js", swap);
    expect(text).toMatch(/(?:require|import)\("\.\/chunks\/docs\.cjs"\)/);
    expect(text).not.toContain("the original");
    expect(() => swap.assertSwapped()).not.toThrow();
  });

  it("finds a TypeScript source imported with .js, as the sources write it", () => {
    const folder = tempProject({ "src/docs.ts": docs });
    expect(() => swapModule({ name: "docs", module: path.join(folder, "src/docs.js"), to: toChunk })).not.toThrow();
  });

  it("fails at once when the module it replaces is not there", () => {
    const folder = tempProject({ "src/moved/docs.js": docs });
    expect(() => swapModule({ name: "docs", module: path.join(folder, "src/docs.js"), to: toChunk })).toThrow(
      `docs: ${path.join(folder, "src/docs.js")} is not there, so nothing can be swapped for ./chunks/docs.cjs: did it move? (apps/cli/build/)`,
    );
  });

  it("fails after the build when no import in a bundle reached the module: the bundle would carry another copy", async () => {
    // The importer moved beside a copy of its own: a pattern on the import's text would still match, and swap the wrong file or none.
    const folder = tempProject({ "src/docs.js": docs, "src/moved/docs.js": docs, "src/moved/explain.js": "import { DOCS } from './docs.js';\nconsole.log(DOCS);\n" });
    const swap = swapModule({ name: "docs", module: path.join(folder, "src/docs.js"), to: toChunk });
    const text = await bundleWith(folder, "src/moved/explain.js", swap);
    expect(text).toContain("the original");
    expect(() => swap.assertSwapped()).toThrow(
      `docs: the bundle of src/moved/explain.js never imported ${path.join(folder, "src/docs.js")}, so ./chunks/docs.cjs was not swapped in: did its importer move, or change how it imports it? (apps/cli/build/)`,
    );
  });

  it("swaps only the kinds of import it is given", async () => {
    const folder = tempProject({ "src/options.js": "export const compile = 1;\n", "src/load.js": "import { compile } from './options.js';\nconsole.log(compile);\n" });
    const swap = swapModule({ name: "lazy-options", module: path.join(folder, "src/options.js"), kinds: ["dynamic-import"], to: toChunk });
    await bundleWith(folder, "src/load.js", swap);
    expect(() => swap.assertSwapped()).toThrow(/never imported .*options\.js \(as dynamic-import\)/);
  });

  it("checks every bundle it was given, each on its own", async () => {
    const folder = tempProject({ "src/docs.js": docs, "src/a.js": "import('./docs.js');\n", "src/b.js": "console.log('no docs here');\n" });
    const swap = swapModule({ name: "docs", module: path.join(folder, "src/docs.js"), to: toChunk });
    await bundleWith(folder, "src/a.js", swap);
    expect(() => swap.assertSwapped()).not.toThrow();
    await bundleWith(folder, "src/b.js", swap);
    expect(() => swap.assertSwapped()).toThrow(/never imported/);
  });
});
