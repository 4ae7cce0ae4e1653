import { tmpdir } from "node:os";
import { describe, expect, it } from "vitest";
import { createFileView } from "./files.js";
import { parseReturn } from "./json.js";
import { DEFAULT_RULE_TIMEOUT_MS, MAX_LISTED_PER_RETURN, MAX_LISTED_PER_RULE, RESULTS_OMITTED, runRules, type ConfiguredRule } from "./runner.js";
import type { AnyRule, RuleContext } from "./types.js";

type Check = (context: RuleContext<unknown>) => unknown;

function rule(id: string, check: Check): ConfiguredRule {
  const shaped = {
    id,
    meta: { description: id, docs: `https://example.com/${id}`, schema: {}, defaultOptions: {}, messages: { found: { text: "{what} found" }, fine: { text: "fine" } } },
    check,
  };
  return { rule: shaped as unknown as AnyRule, severity: "error", options: {}, source: `./rules/${id}.mjs` };
}

const healthy = rule("healthy", (context) => {
  context.report({ messageId: "found", data: { what: "something" }, pointer: "/status" });
  context.pass({ messageId: "fine" });
});

function run(rules: readonly ConfiguredRule[], ruleTimeoutMs?: number, listNotes?: boolean) {
  const text = '{"status": "completed"}';
  return runRules({
    text,
    parse: parseReturn(text),
    command: "research",
    format: "v7",
    expected: {},
    rules,
    files: createFileView(tmpdir()),
    ...(ruleTimeoutMs === undefined ? {} : { ruleTimeoutMs }),
    ...(listNotes === undefined ? {} : { listNotes }),
  });
}

/** The internal error a broken rule becomes, with the healthy rule's two results still there. */
async function brokenBeside(broken: ConfiguredRule, ruleTimeoutMs?: number) {
  const report = await run([broken, healthy], ruleTimeoutMs);
  expect(report.internalError).toBe(true);
  expect(report.results.filter((result) => result.ruleId === "healthy").map((result) => result.messageId)).toEqual(["found", "fine"]);
  const failures = report.results.filter((result) => result.ruleId === broken.rule.id);
  expect(failures).toHaveLength(1);
  return failures[0];
}

describe("runRules: a rule that breaks the contract", () => {
  it("runs healthy rules normally", async () => {
    const report = await run([healthy]);
    expect(report).toMatchObject({ ok: false, internalError: false, errorCount: 1, status: "completed" });
    expect(report.results[0]).toEqual({ ruleId: "healthy", level: "fail", messageId: "found", message: "something found", pointer: "/status", data: { what: "something" } });
    expect(report.results[1]).toEqual({ ruleId: "healthy", level: "pass", messageId: "fine", message: "fine" });
  });

  /* eslint-disable @typescript-eslint/only-throw-error -- rules that throw what is not an Error are the point */
  const crashes: readonly [string, Check, string][] = [
    ["throws synchronously", () => { throw new Error("boom"); }, "Error: boom"],
    ["rejects", () => Promise.reject(new Error("async boom")), "Error: async boom"],
    ["throws something that is not an Error", () => { throw { code: 7 }; }, 'Error: {"code":7}'],
    ["throws a string", () => { throw "plain"; }, "Error: plain"],
    [
      "throws a value that cannot be printed",
      () => {
        throw Object.defineProperty({}, "x", { enumerable: true, get: () => { throw new Error("getter"); } });
      },
      "Error: it threw a value that cannot be shown",
    ],
    ["reports an unknown messageId", (context) => { context.report({ messageId: "nope" }); }, 'Error: reported unknown messageId "nope"'],
    ["reports a messageId inherited from Object.prototype", (context) => { context.report({ messageId: "toString" }); }, 'Error: reported unknown messageId "toString"'],
    ["reports a string instead of a descriptor", (context) => { context.report("found" as never); }, 'Error: reported "found" instead of an object with a messageId'],
    ["reports data that is not an object", (context) => { context.report({ messageId: "found", data: 7 as never }); }, 'Error: reported "found" with data 7 instead of an object'],
    ["reports a pointer that is not a string", (context) => { context.report({ messageId: "found", pointer: ["status"] as never }); }, 'Error: reported "found" with pointer ["status"] instead of a JSON Pointer string'],
    [
      "swallows the error its bad report threw",
      (context) => {
        try {
          context.info({ messageId: "missing" });
        } catch {
          // A rule hiding its own mistake must not pass for a healthy one.
        }
      },
      'Error: reported unknown messageId "missing"',
    ],
    ["returns its findings instead of reporting them", () => [{ messageId: "found" }], 'Error: check returned an array [{"messageId":"found"}] instead of reporting through context.report'],
    ["returns a non-promise object", () => ({ then: 42 }), "Error: check returned an object {\"then\":42}"],
    ["resolves to a value", () => Promise.resolve(true), "Error: check returned boolean true"],
    [
      "returns a thenable whose then throws",
      () => ({
        then() {
          throw new Error("bad thenable");
        },
      }),
      "Error: bad thenable",
    ],
  ];
  /* eslint-enable @typescript-eslint/only-throw-error */
  it.each(crashes)("%s: an internal error naming the rule and its source", async (_name, check, detail) => {
    const failure = await brokenBeside(rule("broken", check));
    expect(failure).toMatchObject({ level: "fail", messageId: "ruleCrashed", message: "Rule broken crashed (from ./rules/broken.mjs)" });
    expect(failure?.detail).toContain(detail);
  });

  it("a rule that never settles times out, and its timer does not hold the run", async () => {
    const started = Date.now();
    const failure = await brokenBeside(rule("stuck", () => new Promise(() => undefined)), 150);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(failure).toMatchObject({
      level: "fail",
      messageId: "ruleTimedOut",
      message: "Rule stuck timed out after 150 ms (from ./rules/stuck.mjs)",
      detail: "Error: its check did not settle in time; its findings were not counted",
    });
  });

  it("a thenable that never calls back times out too", async () => {
    const failure = await brokenBeside(rule("lazy", () => ({ then: () => undefined })), 100);
    expect(failure?.messageId).toBe("ruleTimedOut");
  });

  it("reports made after the rule timed out are dropped, not thrown into the void", async () => {
    let late: (() => void) | undefined;
    const stuck = rule("late", (context) => {
      late = () => {
        context.report({ messageId: "nope" });
        context.report({ messageId: "found", data: { what: "late" } });
      };
      return new Promise(() => undefined);
    });
    const report = await run([stuck], 50);
    expect(() => late?.()).not.toThrow();
    expect(report.results.map((result) => result.messageId)).toEqual(["ruleTimedOut"]);
  });

  it("a slow rule within its limit is waited for; the limit defaults to 10 s", async () => {
    const slow = rule("slow", async (context) => {
      await new Promise((resolve) => setTimeout(resolve, 60));
      context.report({ messageId: "found", data: { what: "slowly" } });
    });
    const report = await run([slow], 5_000);
    expect(report.internalError).toBe(false);
    expect(report.results.map((result) => result.message)).toEqual(["slowly found"]);
    expect(DEFAULT_RULE_TIMEOUT_MS).toBe(10_000);
    // A limit that is not a positive number is the default; one past Node's longest timer is clamped, not fired at once.
    expect((await run([slow], Number.NaN)).internalError).toBe(false);
    expect((await run([slow], 2 ** 40)).internalError).toBe(false);
  });
});

describe("runRules: what a hostile return or rule cannot do to the report", () => {
  it("a rule reporting 200,000 results: every one is counted, the first 100 listed, the rest summed up in one line", async () => {
    const many = rule("many", (context) => {
      for (let index = 0; index < 200_000; index += 1) context.report({ messageId: "found", data: { what: String(index) } });
    });
    const report = await run([many]);
    expect(report).toMatchObject({ ok: false, errorCount: 200_000, omitted: 199_900 });
    expect(report.results).toHaveLength(MAX_LISTED_PER_RULE + 1);
    expect(report.results[99]?.message).toBe("99 found");
    expect(report.results[100]).toEqual({
      ruleId: "many",
      level: "fail",
      messageId: RESULTS_OMITTED,
      message: "… and 199900 more results of many, not listed: 199900 failures",
      detail:
        "Note: returnlint lists the first 100 problems and 100 passed checks of each rule (1000 of each per return); every result counts in the totals and the verdict",
      reask: "199900 more problems like the ones above are not listed; fix every entry of that kind, not only the ones listed",
      data: { rule: "many", omitted: 199_900, failures: 199_900, warnings: 0, passes: 0, notes: 0 },
    });
  });

  it("passes are listed apart from problems: a failure after a thousand passes is still listed", async () => {
    const mostlyFine = rule("mostly-fine", (context) => {
      for (let index = 0; index < 1000; index += 1) context.pass({ messageId: "fine" });
      context.report({ messageId: "found", data: { what: "the one problem" }, pointer: "/status" });
    });
    const report = await run([mostlyFine]);
    expect(report.errorCount).toBe(1);
    expect(report.results.filter((result) => result.level === "fail").map((result) => result.message)).toEqual(["the one problem found"]);
    expect(report.results.at(-1)).toMatchObject({ level: "info", messageId: RESULTS_OMITTED, message: "… and 900 more results of mostly-fine, not listed: 900 passed checks" });
  });

  it("the return lists at most 1000 problems of every rule together; later rules' findings are counted and summed up", async () => {
    const loud = Array.from({ length: 12 }, (_, index) =>
      rule(`loud-${String(index)}`, (context) => {
        for (let count = 0; count < 150; count += 1) context.report({ messageId: "found", data: { what: "x" }, level: "warn" });
      }),
    );
    const report = await run(loud);
    expect(report).toMatchObject({ ok: true, errorCount: 0, warningCount: 1800 });
    const listed = report.results.filter((result) => result.messageId !== RESULTS_OMITTED);
    expect(listed).toHaveLength(MAX_LISTED_PER_RETURN);
    const summaries = report.results.filter((result) => result.messageId === RESULTS_OMITTED);
    expect(summaries).toHaveLength(12);
    expect(summaries.at(-1)).toMatchObject({ ruleId: "loud-11", level: "warn", data: { warnings: 150 } });
    expect(report.omitted).toBe(800);
  });

  it("without notes listed (scan's table), passes and infos are counted, not listed nor summed up, and still held to the rule's meta", async () => {
    const noisy = rule("noisy", (context) => {
      for (let index = 0; index < 150; index += 1) context.pass({ messageId: "fine" });
      context.info({ messageId: "fine" });
      context.report({ messageId: "found", data: { what: "warned" }, level: "warn" });
      context.report({ messageId: "found", data: { what: "the problem" } });
    });
    const report = await run([noisy], undefined, false);
    expect(report).toMatchObject({ ok: false, errorCount: 1, warningCount: 1, internalError: false });
    expect(report.omitted).toBeUndefined();
    expect(report.results.map((result) => [result.level, result.message])).toEqual([
      ["warn", "warned found"],
      ["fail", "the problem found"],
    ]);
    const sloppy = rule("sloppy", (context) => {
      context.pass({ messageId: "neverDeclared" });
    });
    expect((await run([sloppy], undefined, false)).results).toMatchObject([{ ruleId: "sloppy", messageId: "ruleCrashed", detail: 'Error: reported unknown messageId "neverDeclared"' }]);
  });

  it("a report past the limits is still held to the rule's meta: an undeclared message id crashes the rule", async () => {
    const sloppy = rule("sloppy", (context) => {
      for (let index = 0; index < 150; index += 1) context.report({ messageId: "found", data: { what: "x" } });
      context.report({ messageId: "neverDeclared" });
    });
    const report = await run([sloppy]);
    expect(report.internalError).toBe(true);
    expect(report.results.at(-1)).toMatchObject({ messageId: "ruleCrashed", detail: 'Error: reported unknown messageId "neverDeclared"' });
  });

  it("what a message quotes is bounded: a megabyte of data becomes 200 characters and a length", async () => {
    const quoting = rule("quoting", (context) => {
      context.report({ messageId: "found", data: { what: "q".repeat(1024 * 1024) } });
    });
    const [result] = (await run([quoting])).results;
    expect(result?.message).toBe(`${"q".repeat(200)}… (1048576 characters) found`);
  });

  it("a cut never splits a surrogate pair", async () => {
    const emoji = rule("emoji", (context) => {
      context.report({ messageId: "found", data: { what: `${"a".repeat(199)}😀${"b".repeat(300)}` } });
    });
    const [result] = (await run([emoji])).results;
    expect(result?.message.startsWith(`${"a".repeat(199)}… (`)).toBe(true);
  });

  it("a result carries the data its rule reported: a copy, JSON-safe and bounded, without the names core adds", async () => {
    const reported: Record<string, unknown> = { what: "x".repeat(5000), count: 3, ratio: Number.NaN, flag: true, nested: { deep: [1, 2] }, gone: undefined, agent: "mine" };
    Object.defineProperty(reported, "__proto__", { value: "a key like any other", enumerable: true });
    for (let index = 0; index < 100; index += 1) reported[`extra${String(index)}`] = index;
    reported["k".repeat(300)] = "a name no template has";
    const hostile = rule("hostile", (context) => {
      context.report({ messageId: "found", data: reported as never });
      reported.what = "changed after the report";
    });
    const [result] = (await run([hostile])).results;
    const data = result?.data ?? {};
    expect(JSON.parse(JSON.stringify(data))).toEqual(data);
    expect(Object.keys(data)).toHaveLength(50);
    expect(data).toMatchObject({ what: `${"x".repeat(200)}… (5000 characters)`, count: 3, ratio: "NaN", flag: "true", nested: '{"deep":[1,2]}', agent: "mine" });
    expect(Object.hasOwn(data, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(data)).toBe(Object.prototype);
    expect(Object.hasOwn(data, "gone")).toBe(false);
    expect(Object.hasOwn(data, "subagent")).toBe(false);
    expect(result?.message).toBe(`${"x".repeat(200)}… (5000 characters) found`);
  });

  it("a crashed or timed-out rule's result says which rule, from where and why, as data", async () => {
    const crashed = await brokenBeside(rule("crashing", () => { throw new Error("boom"); }));
    expect(crashed?.data).toEqual({ rule: "crashing", source: "./rules/crashing.mjs", reason: "boom" });
    const slow = await brokenBeside(rule("slow", () => new Promise(() => undefined)), 50);
    expect(slow?.data).toEqual({ rule: "slow", source: "./rules/slow.mjs", timeoutMs: 50 });
  });

  it("the return's status and agent name are bounded in the report too", async () => {
    const text = JSON.stringify({ status: "s".repeat(10_000), metadata: { agent_type: "a".repeat(10_000) } });
    const report = await runRules({ text, parse: parseReturn(text), command: null, format: "v7", expected: {}, rules: [healthy], files: createFileView(tmpdir()) });
    expect(report.status).toBe(`${"s".repeat(200)}… (10000 characters)`);
    expect(report.agent).toBe(`${"a".repeat(200)}… (10000 characters)`);
  });

  it("a rule's time passing aborts context.signal, so its own waiting can stop", async () => {
    let aborted = false;
    const patient = rule("patient", (context) => {
      context.signal.addEventListener("abort", () => {
        aborted = true;
      });
      return new Promise(() => undefined);
    });
    const report = await run([patient], 50);
    expect(report.results.map((result) => result.messageId)).toEqual(["ruleTimedOut"]);
    expect(aborted).toBe(true);
  });
});
