// The bin and its code cache.
// - dist/returnlint.cjs, the `bin`: a loader that compiles cli.cjs with V8's code cache,
//   dist/cli.cjs.cache, made here by a training run of a real check. Compiling the bundle is
//   otherwise a few milliseconds of every run. A cache made by another Node version is
//   rejected by V8 and the loader compiles from source as usual.
// - dist/returnlint.js: the same CLI for `node dist/returnlint.js` (README, scripts), a
//   two-line ESM file that loads returnlint.cjs.
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** Writes dist/returnlint.cjs (src/loader.cjs) and dist/returnlint.js; returns the loader's URL. */
export function writeBin(cli, dist) {
  const esmEntry = new URL("returnlint.js", dist);
  writeFileSync(esmEntry, `#!/usr/bin/env node\nimport { createRequire } from "node:module";\ncreateRequire(import.meta.url)("./returnlint.cjs");\n`);
  chmodSync(esmEntry, 0o755);
  const loader = new URL("returnlint.cjs", dist);
  writeFileSync(loader, readFileSync(new URL("src/loader.cjs", cli), "utf8"));
  chmodSync(loader, 0o755);
  return loader;
}

/**
 * The training run: a check of the example return, printed as stylish and written as JSON (to a
 * temporary file), whose compiled functions the cache keeps.
 */
export function trainCodeCache(cli, dist, loader) {
  const cacheFile = new URL("cli.cjs.cache", dist);
  rmSync(cacheFile, { force: true });
  const example = fileURLToPath(new URL("../../examples/valid-v7/", cli));
  const scratch = mkdtempSync(path.join(tmpdir(), "returnlint-build-"));
  const trainingArgs = ["check", "return.json", "--command", "research", "-f", "json", "-o", path.join(scratch, "report.json"), "-f", "stylish"];
  const training = spawnSync(process.execPath, [fileURLToPath(loader), ...trainingArgs], {
    cwd: example,
    env: { ...process.env, RETURNLINT_CODE_CACHE_OUT: fileURLToPath(cacheFile), NO_COLOR: "1" },
    encoding: "utf8",
  });
  rmSync(scratch, { recursive: true, force: true });
  if (training.status !== 0 || !existsSync(cacheFile)) {
    throw new Error(`the code cache's training run failed (exit ${String(training.status)}): ${training.stderr}${training.stdout.slice(0, 500)}`);
  }
}
