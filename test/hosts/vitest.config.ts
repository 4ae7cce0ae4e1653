import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";

// Every returnlint the tests run keeps its cache (compiled contracts, parsed YAML configs) in a folder
// of this run, never in the home folder of the machine running them.
process.env.RETURNLINT_CACHE_DIR ??= mkdtempSync(path.join(tmpdir(), "returnlint-test-cache-"));

// `pnpm test:hosts`: the real Claude Code and OpenCode, and a real npm registry. Its files end
// in .hosts.ts so that `pnpm test` (the test project's *.test.ts) never picks them up.
export default defineConfig({
  test: {
    root: new URL("../..", import.meta.url).pathname,
    include: ["test/hosts/**/*.hosts.ts"],
    globalSetup: ["test/hosts/global-setup.ts"],
    reporters: ["default", "./scripts/summary-reporter.ts"],
    // Each test drives a host through a whole conversation; waits inside are bounded on their own.
    testTimeout: 180_000,
    hookTimeout: 600_000,
    maxWorkers: 2,
  },
});
