// Chart.js, for the audit's HTML report: its text inlined into a chunk that audit's chunk requires only for
// `audit --format html`, so that the report is one self-contained page and the installed CLI needs
// neither chart.js nor the network. @returnlint/audit's chart-library.js reads node_modules only outside the bundle.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { swapModule } from "./swap-module.mjs";

/** Writes the chart library's module into `generated`; returns it, to bundle as a chunk, and the plugin that makes @returnlint/audit's chart-library.js a require of that chunk (from audit's, beside it in dist/chunks/). */
export function chartLibrary(generated) {
  // The UMD build sits beside the package's main file (its "exports" do not list it).
  const source = readFileSync(path.join(path.dirname(fileURLToPath(import.meta.resolve("chart.js"))), "chart.umd.min.js"), "utf8");
  const entry = new URL("chart-library.mjs", generated);
  writeFileSync(entry, `export function chartLibrary() {\n  return ${JSON.stringify(source)};\n}\n`);
  return {
    entry: fileURLToPath(entry),
    chunk: "dist/chunks/chart-library.cjs",
    swap: swapModule({
      name: "chart-library",
      module: path.join(path.dirname(fileURLToPath(import.meta.resolve("@returnlint/audit"))), "chart-library.js"),
      to: { path: "./chart-library.cjs", external: true },
    }),
  };
}
