import { mkdtempSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import path from "node:path";
import { configDefaults, defineConfig } from "vitest/config";

// Every returnlint the tests run keeps its cache (compiled contracts, parsed YAML configs) in a folder
// of this run, never in the home folder of the machine running them.
process.env.RETURNLINT_CACHE_DIR ??= mkdtempSync(path.join(tmpdir(), "returnlint-test-cache-"));

/**
 * The CLI's files that hold the machine: they start a hundred processes at once, or assert that a
 * run ends within a host's hook timeout. They run after the others, one file at a time, so that
 * neither slows the other down past a bound (on two cores, "a million made-up paths" took 3 s alone
 * and over 30 s beside the 150 parallel writers).
 */
const ONE_AT_A_TIME = ["test/adversarial/bounds.test.ts", "test/adversarial/writes.test.ts", "test/adversarial/hangs.test.ts", "test/adversarial/exit-codes.test.ts", "test/concurrency.test.ts"];

// Named so that each package's own `vitest run` does not pick it up (TOOLCHAIN.md).
export default defineConfig({
  test: {
    projects: [
      "packages/*",
      "examples/returnlint-rule-*",
      "test",
      { test: { name: "returnlint", root: "./apps/cli", exclude: [...configDefaults.exclude, ...ONE_AT_A_TIME] } },
      { test: { name: "returnlint, one file at a time", root: "./apps/cli", include: ONE_AT_A_TIME, fileParallelism: false, sequence: { groupOrder: 1 } } },
    ],
    reporters: ["default", "./scripts/summary-reporter.ts"],
    // Most files spend their time waiting on the CLI processes they start: a worker per core keeps
    // every core busy (Vitest's default, one fewer, leaves one of two cores idle).
    maxWorkers: availableParallelism(),
  },
});
