import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

/**
 * Chart.js's UMD build (MIT licence; its banner, which carries the notice, is kept),
 * inlined into the HTML report so that the report needs no network. Here it is read
 * from node_modules (chart.js is an optional peer dependency: only the HTML report
 * needs it); the `returnlint` CLI's build replaces this module in its bundle with
 * dist/chunks/chart-library.cjs, which holds the text itself: the built CLI reads
 * neither node_modules nor the network for it.
 */
export function chartLibrary(): string {
  // The UMD build sits beside the package's main file (its "exports" do not list it).
  return readFileSync(path.join(path.dirname(createRequire(import.meta.url).resolve("chart.js")), "chart.umd.min.js"), "utf8");
}
