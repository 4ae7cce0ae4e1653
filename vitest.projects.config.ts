import { defineConfig } from "vitest/config";

// Named so that each package's own `vitest run` does not pick it up (TOOLCHAIN.md).
export default defineConfig({
  test: {
    projects: ["packages/*", "apps/*", "examples/returnlint-rule-*", "test"],
    reporters: ["default", "./scripts/summary-reporter.ts"],
  },
});
