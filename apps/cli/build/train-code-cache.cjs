// The code cache's training (build/bin.mjs spawns it): the bin's loader, required rather than run,
// runs the CLI once for each run in RETURNLINT_CODE_CACHE_RUNS (a JSON list of
// { cwd, args, status }) in this one process, and the caches it writes (dist/cli.cjs.cache, and
// FILE.cache for each chunk the bundle required through the loader) hold every function those
// runs compiled. With RETURNLINT_CODE_CACHE_COMMAND (check, hook), it writes only cli.cjs's cache
// for that command's runs, dist/cli.cjs.COMMAND.cache (the loader's `cacheOf`). Each run is a fresh instance of the bundle; its
// process.exit(code) ends the run, not the process. A run whose exit code is not `status` fails
// the build.
"use strict";
const { writeFileSync } = require("node:fs");

const [loaderFile] = process.argv.slice(2);
const runs = JSON.parse(process.env.RETURNLINT_CODE_CACHE_RUNS ?? "[]");
if (loaderFile === undefined || runs.length === 0) {
  process.stderr.write("train-code-cache: usage: RETURNLINT_CODE_CACHE_RUNS=JSON node train-code-cache.cjs LOADER\n");
  process.exit(2);
}
const loader = require(loaderFile);
const exit = process.exit;

async function train() {
  for (const { cwd, args, status } of runs) {
    process.chdir(cwd);
    process.argv = [process.argv[0], loaderFile, ...args];
    const code = await new Promise((resolve) => {
      process.exit = resolve;
      loader.run();
    });
    if (code !== status) throw new Error(`returnlint ${args.join(" ")} (in ${cwd}) exited ${String(code)}, not ${String(status)}`);
  }
  process.exit = exit;
  // cli.cjs's and each chunk's the bundle required through the loader, each beside its file.
  for (const [cacheFile, cache] of loader.codeCaches()) writeFileSync(cacheFile, cache);
}

train().then(
  () => exit(0),
  (error) => {
    process.exit = exit;
    process.stderr.write(`train-code-cache: ${error instanceof Error ? error.message : String(error)}\n`);
    exit(1);
  },
);
