import { defineConfig } from "vitest/config";

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
