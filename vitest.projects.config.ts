import { mkdtempSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";

// Every returnlint the tests run keeps its cache (compiled contracts, parsed YAML configs) in a folder
// of this run, never in the home folder of the machine running them.
process.env.RETURNLINT_CACHE_DIR ??= mkdtempSync(path.join(tmpdir(), "returnlint-test-cache-"));

// Named so that each package's own `vitest run` does not pick it up (TOOLCHAIN.md).
export default defineConfig({
  test: {
    projects: ["packages/*", "apps/*", "examples/returnlint-rule-*", "test"],
    reporters: ["default", "./scripts/summary-reporter.ts"],
    // Most files spend their time waiting on the CLI processes they start: a worker per core keeps
    // every core busy (Vitest's default, one fewer, leaves one of two cores idle).
    maxWorkers: availableParallelism(),
  },
});
