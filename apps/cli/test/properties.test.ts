import { mkdirSync } from "node:fs";
import path from "node:path";
import { createFileView, parseReturn, runRules, type ConfiguredRule, type Report } from "@returnlint/core";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { lintSource, loadReturnlintConfig, textSource } from "@returnlint/api";
import { BUILTIN_RULES, loadBuiltinRules } from "@returnlint/api";
import { STACK_FRAME, project, returnlint } from "./helpers.js";

const LEVELS = ["pass", "info", "warn", "fail"];
const INTERNAL = new Set(["ruleCrashed", "ruleTimedOut"]);

/** What every report must be, whatever the input: counts that add up, results that say something, no crashed rule. */
function expectWellFormed(report: Report): void {
  const fails = report.results.filter((result) => result.level === "fail").length;
  const warns = report.results.filter((result) => result.level === "warn").length;
  expect(report.errorCount).toBe(fails);
  expect(report.warningCount).toBe(warns);
  expect(report.ok).toBe(fails === 0);
  expect(report.internalError).toBe(false);
  expect(["v5", "v7", "metadata-file"]).toContain(report.format);
  expect(report.status === null || typeof report.status === "string").toBe(true);
  for (const result of report.results) {
    expect(LEVELS).toContain(result.level);
    expect(BUILTIN_RULES.has(result.ruleId)).toBe(true);
    expect(INTERNAL.has(result.messageId)).toBe(false);
    expect(typeof result.message === "string" && result.message !== "").toBe(true);
    if (result.pointer !== undefined) expect(result.pointer === "" || result.pointer.startsWith("/")).toBe(true);
  }
  expect(() => JSON.stringify(report)).not.toThrow();
}

const anything = fc.jsonValue({ maxDepth: 3 });
const either = <T>(right: fc.Arbitrary<T>): fc.Arbitrary<unknown> => fc.oneof(right, anything);
const text = fc.string({ maxLength: 80 });
const anyKeys = { requiredKeys: [] as never[] };

const artifact = fc.record(
  {
    type: either(fc.constantFrom("report", "plan", "summary", "implementation", "notes")),
    path: either(fc.constantFrom("a.md", "empty.md", "dir", "missing.md", "../outside.md", "/etc/hostname", "", "a\u0000b", "loop.md", "out.md", "./dir/../a.md")),
    summary: either(text),
  },
  anyKeys,
);

/** Objects shaped like the three return formats, with any field of any type. */
const returnShaped = fc.record(
  {
    status: either(fc.constantFrom("completed", "researched", "planned", "implemented", "partial", "failed", "blocked", "in_progress", "done", "")),
    summary: either(fc.string({ maxLength: 500 })),
    artifacts: either(fc.array(either(artifact), { maxLength: 4 })),
    session_id: either(fc.constantFrom("sess_1", "sess_2")),
    metadata: either(
      fc.record(
        {
          session_id: either(fc.constantFrom("sess_1", "sess_2", "")),
          agent_type: either(text),
          delegation_depth: either(fc.integer({ min: -1, max: 6 })),
          delegation_path: either(fc.array(either(fc.constantFrom("orchestrator", "research", "researcher", "planner")), { maxLength: 6 })),
          started_at: either(fc.date({ noInvalidDate: true, min: new Date(0), max: new Date(4e12) }).map((date) => date.toISOString())),
          duration_seconds: either(fc.integer()),
        },
        anyKeys,
      ),
    ),
    errors: either(fc.array(either(fc.record({ type: either(text), message: either(text), recoverable: either(fc.boolean()), recommendation: either(text) }, anyKeys)), { maxLength: 3 })),
    next_steps: either(text),
    partial_progress: either(fc.record({ stage: either(text), details: either(text) }, anyKeys)),
    completion_data: either(fc.record({ completion_summary: either(text), claudemd_suggestions: either(text), roadmap_items: either(fc.array(text)) }, anyKeys)),
  },
  anyKeys,
);

const command = fc.constantFrom(null, "research", "plan", "revise", "implement", "review");
let root = "";

beforeAll(() => {
  root = project({ "a.md": "# Report\n", "empty.md": "", "dir/keep.md": "x" });
  mkdirSync(path.join(root, "specs"), { recursive: true });
});

describe("arbitrary JSON through the library API: never throws, always a well-formed report", () => {
  it("validate() with each preset, on any JSON value and on objects shaped like returns", { timeout: 60_000 }, async () => {
    const configs = await Promise.all(["auto", "v5", "v7", "metadata-file"].map((preset) => loadReturnlintConfig({ cwd: root, preset })));
    await fc.assert(
      fc.asyncProperty(fc.oneof(anything, returnShaped), fc.constantFrom(...configs), command, fc.boolean(), async (value, config, name, fromFile) => {
        const text = JSON.stringify(value);
        const source = fromFile ? { kind: "file" as const, name: "specs/1_x/.return-meta.json", text } : textSource(text);
        const { report } = await lintSource(source, {
          config,
          cwd: root,
          root,
          command: name,
          sessionId: "sess_1",
          taskType: "meta",
          staleAfterSeconds: 3600,
          now: new Date(2e12),
        });
        expectWellFormed(report);
      }),
      { numRuns: 300 },
    );
  });

  it("core's runRules with every built-in rule at error, on any JSON value", { timeout: 60_000 }, async () => {
    const rules: ConfiguredRule[] = [...(await loadBuiltinRules()).values()].map(({ rule, source }) => ({ rule, severity: "error", options: rule.meta.defaultOptions as unknown, source }));
    const files = createFileView(root);
    await fc.assert(
      fc.asyncProperty(fc.oneof(anything, returnShaped), command, fc.constantFrom("v5" as const, "v7" as const, "metadata-file" as const), async (value, name, format) => {
        const source = JSON.stringify(value);
        const report = await runRules({ text: source, parse: parseReturn(source), command: name, format, expected: { sessionId: "sess_1", now: new Date(2e12) }, rules, files });
        expectWellFormed(report);
        // json-structure runs on everything; object-only rules run exactly when the value is an object.
        expect(report.results.some((result) => result.ruleId === "json-structure")).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe("arbitrary bytes on standard input", () => {
  const jsonish = fc.oneof(anything, returnShaped).map((value) => JSON.stringify(value));
  const bytes = fc.oneof(
    fc.uint8Array({ maxLength: 600 }),
    jsonish.map((source) => Buffer.from(source)),
    // A return cut anywhere, or with a byte changed anywhere.
    fc.tuple(jsonish, fc.nat(), fc.integer({ min: 0, max: 255 })).map(([source, at, byte]) => {
      const buffer = Buffer.from(source);
      const index = buffer.length === 0 ? 0 : at % buffer.length;
      return at % 2 === 0 ? buffer.subarray(0, index) : Buffer.concat([buffer.subarray(0, index), Buffer.from([byte]), buffer.subarray(index + 1)]);
    }),
  );

  it("exit 0, 1 or 2, no stack trace, and --format json output that always parses", { timeout: 60_000 }, () => {
    fc.assert(
      fc.property(bytes, (input) => {
        const run = returnlint(["check", "-", "--format", "json", "--root", root], { input: Buffer.from(input) });
        expect([0, 1, 2]).toContain(run.status);
        expect(run.stdout + run.stderr).not.toMatch(STACK_FRAME);
        if (run.status !== 2 || run.stdout !== "") {
          const report = JSON.parse(run.stdout) as { ok: boolean; results: { messageId: string }[] };
          expect(report.ok).toBe(run.status === 0);
          expect(report.results.filter((result) => INTERNAL.has(result.messageId))).toEqual([]);
        } else {
          expect(run.stderr).toMatch(/^returnlint: /);
        }
      }),
      { numRuns: 40 },
    );
  });
});
