import { defineRule, type AnyRule, type RuleContext, type RuleMeta } from "@returnlint/core";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { RuleTester, type InvalidCase, type ValidCase } from "./index.js";

interface Collected {
  readonly title: string;
  readonly body: () => void | Promise<void>;
}

/** Runs the tester with a describe/it that only collects the test bodies, so that each can be run and its failure read. */
function collect(rule: AnyRule, cases: { valid?: ValidCase[]; invalid?: InvalidCase[] }): Collected[] {
  const tests: Collected[] = [];
  const titles: string[] = [];
  new RuleTester({
    describe(name, body) {
      titles.push(name);
      body();
      titles.pop();
    },
    it(name, body) {
      tests.push({ title: [...titles, name].join(" > "), body });
    },
  }).run(rule, { valid: cases.valid ?? [], invalid: cases.invalid ?? [] });
  return tests;
}

/** The failure of each collected test, by title; undefined for a test that passed. */
async function outcomes(tests: readonly Collected[]): Promise<Record<string, string | undefined>> {
  const result: Record<string, string | undefined> = {};
  for (const test of tests) {
    try {
      await test.body();
      result[test.title] = undefined;
    } catch (error) {
      result[test.title] = error instanceof Error ? error.message : String(error);
    }
  }
  return result;
}

const META: RuleMeta<{ word: string }> = {
  description: "Reports a status equal to the configured word.",
  docs: "https://example.com/word",
  schema: { type: "object", additionalProperties: false, properties: { word: { type: "string" } }, required: ["word"] },
  defaultOptions: { word: "bad" },
  messages: { badStatus: { text: "Status is {status}", recommendation: "Fix {subagent}" } },
};

/** A correct rule, varied one part at a time below. */
function wordRule(overrides: { meta?: Partial<RuleMeta<{ word: string }>>; check?: (context: RuleContext<{ word: string }>) => void | Promise<void> } = {}): AnyRule {
  return defineRule<{ word: string }>()({
    id: "word",
    meta: { ...META, ...overrides.meta },
    check:
      overrides.check ??
      ((context) => {
        if (context.value.status === context.options.word) {
          context.report({ messageId: "badStatus", data: { status: context.options.word }, pointer: "/status" });
        }
      }),
  });
}

const VALID = [{ input: { status: "ok" } }];
const INVALID = [{ input: { status: "bad" }, errors: [{ messageId: "badStatus", pointer: "/status", message: "Status is bad" }] }];

describe("RuleTester", () => {
  it("passes a correct rule (so the failures below are the rule's, not the tester's)", async () => {
    const results = await outcomes(collect(wordRule(), { valid: VALID, invalid: INVALID }));
    expect(Object.keys(results)).toEqual([
      "word > has a valid options schema that accepts its default options",
      'word > valid > {"status":"ok"}',
      'word > invalid > {"status":"bad"}',
    ]);
    expect(Object.values(results)).toEqual([undefined, undefined, undefined]);
  });

  it("fails on an invalid options schema", async () => {
    const rule = wordRule({ meta: { schema: { type: "object", properties: { word: { type: "text" } } } } });
    const results = await outcomes(collect(rule, { valid: VALID }));
    expect(results["word > has a valid options schema that accepts its default options"]).toMatch(/^word: invalid options schema: .*type/);
  });

  it("fails on default options the schema rejects", async () => {
    const rule = wordRule({ meta: { defaultOptions: { word: 7 } as unknown as { word: string } } });
    const results = await outcomes(collect(rule, { valid: VALID }));
    expect(results["word > has a valid options schema that accepts its default options"]).toContain(
      "word: default options do not satisfy the schema: data/word must be string",
    );
  });

  it("fails on default options that are not an object", async () => {
    const rule = wordRule({ meta: { schema: { type: "array" }, defaultOptions: [] as unknown as { word: string } } });
    const results = await outcomes(collect(rule, { valid: VALID }));
    expect(results["word > has a valid options schema that accepts its default options"]).toContain("default options must be an object");
  });

  it("fails on an unknown messageId", async () => {
    const rule = wordRule({
      check(context) {
        context.report({ messageId: "badStatuss", data: { status: "x" } });
      },
    });
    const results = await outcomes(collect(rule, { invalid: [{ input: { status: "bad" }, errors: [{ messageId: "badStatuss" }] }] }));
    expect(results['word > invalid > {"status":"bad"}']).toContain('unknown messageId "badStatuss"');
  });

  it("fails on an unfilled placeholder, even in a pass", async () => {
    const rule = wordRule({
      meta: { messages: { ...META.messages, checked: { text: "Checked {what}" } } },
      check(context) {
        context.pass({ messageId: "checked", data: { wat: "status" } });
      },
    });
    const results = await outcomes(collect(rule, { valid: VALID }));
    expect(results['word > valid > {"status":"ok"}']).toBe('message "checked" left placeholder {what} unfilled');
  });

  it("fails on an unfilled placeholder in a reask line", async () => {
    const rule = wordRule({ meta: { messages: { badStatus: { text: "Status is {status}", reask: 'set "status" to something other than {wrod}' } } } });
    const results = await outcomes(collect(rule, { invalid: [{ input: { status: "bad" }, errors: [{ messageId: "badStatus" }] }] }));
    expect(results['word > invalid > {"status":"bad"}']).toBe('message "badStatus" left placeholder {wrod} unfilled');
  });

  it("fails when the reask line differs from the one expected, and shows the one it got", async () => {
    const rule = wordRule({ meta: { messages: { badStatus: { text: "Status is {status}", reask: 'set "status" to something other than "{status}"' } } } });
    const results = await outcomes(
      collect(rule, {
        invalid: [
          { name: "the reask it words", input: { status: "bad" }, errors: [{ messageId: "badStatus", reask: 'set "status" to something other than "bad"' }] },
          { name: "only part of it", input: { status: "bad", x: 1 }, errors: [{ messageId: "badStatus", reask: 'set "status" to something other' }] },
        ],
      }),
    );
    expect(results["word > invalid > the reask it words"]).toBeUndefined();
    expect(results["word > invalid > only part of it"]).toContain('| reask set "status" to something other than "bad"');
  });

  it("fails on an invalid case that reports nothing", async () => {
    const results = await outcomes(collect(wordRule(), { invalid: [{ input: { status: "ok" }, errors: [{ messageId: "badStatus" }] }] }));
    expect(results['word > invalid > {"status":"ok"}']).toBe("an invalid case reported nothing");
  });

  it("fails on an invalid case that lists no errors", async () => {
    const results = await outcomes(collect(wordRule(), { invalid: [{ input: { status: "bad" }, errors: [] }] }));
    expect(results['word > invalid > {"status":"bad"}']).toBe("an invalid case must list the errors it expects");
  });

  it("fails on a valid case that reports a problem", async () => {
    const results = await outcomes(collect(wordRule(), { valid: [{ input: { status: "bad" } }] }));
    expect(results['word > valid > {"status":"bad"}']).toContain("expected no problems, got:\n  fail badStatus /status Status is bad");
  });

  it("fails on a duplicate case, whatever its name or key order, and only the second copy", async () => {
    const tests = collect(wordRule(), {
      valid: [
        { name: "first", input: { status: "ok", summary: "s" }, options: { word: "bad" } },
        { name: "second", input: { summary: "s", status: "ok" }, options: { word: "bad" } },
      ],
    });
    const results = await outcomes(tests);
    expect(results["word > valid > first"]).toBeUndefined();
    expect(results["word > valid > second"]).toBe("duplicate valid case: second");
  });

  it("fails one case, not the file, when an input is nested deeper than JSON.stringify goes", async () => {
    let deep: Record<string, unknown> = { status: "ok" };
    for (let depth = 0; depth < 100_000; depth += 1) deep = { nested: deep };
    const tests = collect(wordRule(), { valid: [{ name: "deep", input: deep }, { name: "plain", input: { status: "ok", summary: "s" } }] });
    const results = await outcomes(tests);
    expect(results["word > valid > deep"]).toMatch(/^the case cannot be serialised with JSON\.stringify \(Maximum call stack size exceeded\); give its input as a JSON string$/);
    expect(results["word > valid > plain"]).toBeUndefined();
  });

  it("does not call cases duplicates when only the agent differs", async () => {
    const results = await outcomes(collect(wordRule(), { valid: [{ input: { status: "ok" }, agent: "a", name: "a" }, { input: { status: "ok" }, agent: "b", name: "b" }] }));
    expect(results).toEqual({ "word > has a valid options schema that accepts its default options": undefined, "word > valid > a": undefined, "word > valid > b": undefined });
  });

  it("fails on a rule whose two runs over the same input differ", async () => {
    let runs = 0;
    const rule = wordRule({
      check(context) {
        runs += 1;
        context.report({ messageId: "badStatus", data: { status: `run ${String(runs)}` } });
      },
    });
    const results = await outcomes(collect(rule, { invalid: [{ input: { status: "bad" }, errors: [{ messageId: "badStatus" }] }] }));
    expect(results['word > invalid > {"status":"bad"}']).toBe("word is not deterministic: two runs over the same input differ");
  });

  it("fails when the problems differ from the expected ones", async () => {
    const results = await outcomes(
      collect(wordRule(), {
        invalid: [
          { name: "wrong pointer", input: { status: "bad" }, errors: [{ messageId: "badStatus", pointer: "/summary" }] },
          { name: "wrong message", input: { status: "bad", x: 1 }, errors: [{ messageId: "badStatus", message: "Status is good" }] },
          { name: "wrong count", input: { status: "bad", x: 2 }, errors: [{ messageId: "badStatus" }, { messageId: "badStatus" }] },
          { name: "wrong data", input: { status: "bad", x: 3 }, errors: [{ messageId: "badStatus", data: { status: "good" } }] },
          { name: "data it did not report", input: { status: "bad", x: 4 }, errors: [{ messageId: "badStatus", data: { status: "bad", word: "bad" } }] },
          { name: "the data it reported", input: { status: "bad", x: 5 }, errors: [{ messageId: "badStatus", data: { status: "bad" } }] },
        ],
      }),
    );
    expect(results["word > invalid > wrong pointer"]).toContain('problem 0: expected {"messageId":"badStatus","pointer":"/summary"}');
    expect(results["word > invalid > wrong message"]).toContain("problem 0: expected");
    expect(results["word > invalid > wrong count"]).toContain("expected 2 problem(s), got 1");
    expect(results["word > invalid > wrong data"]).toContain('problem 0: expected {"messageId":"badStatus","data":{"status":"good"}}, got:');
    expect(results["word > invalid > wrong data"]).toContain('| data {"status":"bad"}');
    expect(results["word > invalid > data it did not report"]).toContain("problem 0: expected");
    expect(results["word > invalid > the data it reported"]).toBeUndefined();
  });

  it("fails on case options the schema rejects", async () => {
    const results = await outcomes(collect(wordRule(), { valid: [{ input: { status: "ok" }, options: { word: 1 } }] }));
    expect(results['word > valid > {"status":"ok"}']).toContain("case options do not satisfy the schema: data/word must be string");
  });

  it("fails on a rule that throws, with the rule's message", async () => {
    const rule = wordRule({
      check() {
        throw new Error("cannot read status");
      },
    });
    const results = await outcomes(collect(rule, { valid: VALID }));
    expect(results['word > valid > {"status":"ok"}']).toBe("Rule word crashed (from rule-tester): Error: cannot read status");
  });

  it("refuses a fixture path that leaves the case's root", async () => {
    const results = await outcomes(collect(wordRule(), { valid: [{ input: { status: "ok" }, files: { "../escape.md": "x" } }] }));
    expect(results['word > valid > {"status":"ok"}']).toBe('fixture path "../escape.md" must stay inside the case\'s root');
  });

  it("writes each case's fixture tree for the rule to read through ctx.files", async () => {
    const rule = wordRule({
      check(context) {
        const text = context.files.read("notes/a.md", 100);
        if (text !== "bad") return;
        context.report({ messageId: "badStatus", data: { status: text }, pointer: "/artifacts/0/path" });
      },
    });
    const results = await outcomes(
      collect(rule, {
        valid: [{ input: { status: "ok" }, files: { "notes/a.md": "good" } }],
        invalid: [{ input: { status: "ok" }, files: { "notes/a.md": "bad" }, errors: [{ messageId: "badStatus", pointer: "/artifacts/0/path" }] }],
      }),
    );
    expect(Object.values(results)).toEqual([undefined, undefined, undefined]);
  });

  it("hands each case's expected (task type, clock, staleness limit) to the rule, and tells such cases apart", async () => {
    const rule = wordRule({
      check(context) {
        const { taskType, now } = context.expected;
        if (taskType === "meta") context.report({ messageId: "badStatus", data: { status: now?.toISOString() ?? "no clock" } });
      },
    });
    const now = new Date("2026-01-28T10:42:00Z");
    const results = await outcomes(
      collect(rule, {
        valid: [{ name: "general", input: { status: "ok" }, expected: { taskType: "general", now } }],
        invalid: [{ name: "meta", input: { status: "ok" }, expected: { taskType: "meta", now }, errors: [{ messageId: "badStatus", message: "2026-01-28T10:42:00.000Z" }] }],
      }),
    );
    expect(Object.values(results)).toEqual([undefined, undefined, undefined]);
  });

  it("runs in vitest with an empty valid (or invalid) table: the file passes, with the cases it has", () => {
    const folder = mkdtempSync(path.join(fileURLToPath(new URL("..", import.meta.url)), ".vitest-"));
    try {
      writeFileSync(
        path.join(folder, "empty.test.mjs"),
        [
          'import { describe, it } from "vitest";',
          'import { RuleTester } from "../dist/index.js";',
          "const rule = {",
          '  id: "no-bad",',
          '  meta: { description: "d", docs: "https://example.com", schema: { type: "object" }, defaultOptions: {}, messages: { bad: { text: "bad" } } },',
          '  check(context) { if (context.value.status === "bad") context.report({ messageId: "bad" }); },',
          "};",
          'new RuleTester({ describe, it }).run(rule, { valid: [], invalid: [{ input: { status: "bad" }, errors: [{ messageId: "bad" }] }] });',
          'new RuleTester({ describe, it }).run({ ...rule, id: "only-valid" }, { valid: [{ input: { status: "ok" } }], invalid: [] });',
          "",
        ].join("\n"),
      );
      const vitest = fileURLToPath(import.meta.resolve("vitest/package.json")).replace(/package\.json$/, "vitest.mjs");
      const run = spawnSync(process.execPath, [vitest, "run", "--root", folder, "--reporter", "verbose"], { encoding: "utf8", env: { ...process.env, NO_COLOR: "1", CI: "1" }, timeout: 60_000 });
      expect(run.stderr + run.stdout).not.toContain("No test found");
      expect(run.status).toBe(0);
      expect(run.stdout).toMatch(/Tests +4 passed \(4\)/);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }, 60_000);

  it("needs describe and it from somewhere", () => {
    expect(() => new RuleTester()).toThrow("RuleTester needs describe and it");
  });
});

describe("RuleTester's expected message ids, as TypeScript checks a rule's test", () => {
  // The fixture is outside src/ (and ignored by ESLint): the repository's own typecheck never sees it.
  const fixture = fileURLToPath(new URL("../type-fixtures/misspelt-expected-id.ts", import.meta.url));
  const baseConfig = fileURLToPath(new URL("../../../tsconfig.base.json", import.meta.url));

  it("an invalid case expecting a messageId the rule does not declare does not compile, and the error names the id", () => {
    const { config } = ts.readConfigFile(baseConfig, (file) => ts.sys.readFile(file)) as { config: unknown };
    const { options } = ts.parseJsonConfigFileContent(config, ts.sys, path.dirname(baseConfig));
    const program = ts.createProgram([fixture], { ...options, noEmit: true });
    const source = program.getSourceFile(fixture);
    const found = ts.getPreEmitDiagnostics(program, source).map((diagnostic) => {
      const line = source === undefined || diagnostic.start === undefined ? 0 : source.getLineAndCharacterOfPosition(diagnostic.start).line + 1;
      return `${String(line)}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")}`;
    });
    const line = readFileSync(fixture, "utf8").split("\n").findIndex((text) => text.includes('"darft"')) + 1;
    expect(found).toEqual([`${String(line)}: Type '"darft"' is not assignable to type '"draft"'.`]);
  }, 60_000);
});
