import { describe, it } from "vitest";
import { RuleTester } from "@returnlint/rule-tester";
import { claudeTranscript } from "@returnlint/testing";
import rule from "./index.js";

const VITEST_RED = " Test Files  1 failed (1)\n      Tests  1 failed | 3 passed (4)\n   Start at  10:00:00\n";
const VITEST_GREEN = " Test Files  1 passed (1)\n      Tests  4 passed (4)\n";
const redThenGreen = claudeTranscript([{ bash: "pnpm test", exitCode: 1, output: VITEST_RED }, { bash: "pnpm test", exitCode: 0, output: VITEST_GREEN }]);
const greenThenRed = claudeTranscript([{ bash: "pnpm test", exitCode: 0, output: VITEST_GREEN }, { bash: "pnpm vitest run src/a.test.ts", exitCode: 1, output: VITEST_RED }]);
const noTests = claudeTranscript([{ bash: "ls", exitCode: 0, output: "src\n" }]);
const lakeRed = claudeTranscript([{ bash: "lake build", exitCode: 1, output: "✖ [3/5] Building Foo\nerror: build failed\n" }, { bash: "pnpm test", exitCode: 0, output: VITEST_GREEN }]);
const passed = { status: "completed", summary: "Done.", tests_passed: true };

new RuleTester({ describe, it }).run(rule, {
  valid: [
    { name: "the last test run passed, after a failing one", input: passed, expected: { transcriptPath: redThenGreen } },
    { name: "the summary's words, backed", input: { status: "completed", summary: "Fixed it; all tests pass." }, expected: { transcriptPath: redThenGreen } },
    { name: "a summary that says not all tests pass claims nothing", input: { status: "completed", summary: "Not all tests pass yet." }, expected: { transcriptPath: greenThenRed } },
    { name: "tests_passed: false claims nothing", input: { status: "completed", tests_passed: false }, expected: { transcriptPath: greenThenRed } },
    { name: "a failed return claims nothing passed", input: { ...passed, status: "failed" }, expected: { transcriptPath: greenThenRed } },
    { name: "no transcript: said, nothing fails", input: passed },
    { name: "summaryWords off leaves prose alone", input: { status: "completed", summary: "All tests pass." }, options: { summaryWords: "off" }, expected: { transcriptPath: greenThenRed } },
  ],
  invalid: [
    {
      name: "tests_passed: true after a failing last run: the runner's closing line is quoted",
      input: passed,
      expected: { transcriptPath: greenThenRed },
      errors: [
        {
          messageId: "lastRunFailed",
          pointer: "/tests_passed",
          message: "Tests claimed to pass, but the last test run failed: Tests  1 failed | 3 passed (4)",
          detail: "Transcript line 4: `pnpm vitest run src/a.test.ts` (vitest) closed with: Tests  1 failed | 3 passed (4)\nError: the return says tests_passed is true",
          reask: "your last test run failed (transcript line 4, vitest: Tests  1 failed | 3 passed (4)); fix the failures and run it again, or report that it fails",
        },
      ],
    },
    {
      name: "\"All tests pass\" in the summary, after a failing run: a warning",
      input: { status: "completed", summary: "Implemented it. All tests pass." },
      expected: { transcriptPath: greenThenRed },
      errors: [{ messageId: "lastRunFailed", pointer: "/summary", detail: 'Error: the return says "All tests pass"' }],
    },
    {
      name: "tests claimed, none run",
      input: passed,
      expected: { transcriptPath: noTests },
      errors: [{ messageId: "noTestRun", pointer: "/tests_passed", reask: "you say tests_passed is true, but your transcript shows no test run; run them and report what they say" }],
    },
    {
      name: "verification.build_passed against the last lake build",
      input: { status: "implemented", verification: { build_passed: true } },
      expected: { transcriptPath: lakeRed },
      errors: [{ messageId: "lastRunFailed", pointer: "/verification/build_passed", message: "the last build run failed: error: build failed" }],
    },
    {
      name: "a contract's test annotation",
      input: { status: "done", checks: { unit: "passed" } },
      contract: { type: "object", properties: { checks: { type: "object", properties: { unit: { type: "string", "x-returnlint": "test" } } } } },
      expected: { transcriptPath: greenThenRed },
      errors: [{ messageId: "lastRunFailed", pointer: "/checks/unit" }],
    },
    {
      name: "a transcript that cannot be read is a warning, never a pass",
      input: passed,
      expected: { transcriptPath: "/nonexistent/returnlint/transcript.jsonl" },
      errors: [{ messageId: "transcriptUnreadable" }],
    },
  ],
});
