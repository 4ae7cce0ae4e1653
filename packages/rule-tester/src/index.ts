import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import { Ajv2020 } from "ajv/dist/2020.js";
import {
  compileContract,
  createFileView,
  parseReturn,
  placeholders,
  runRules,
  stripBom,
  type AnyRule,
  type Contract,
  type Expected,
  type FormatName,
  type Report,
  type Result,
  type Rule,
} from "@returnlint/core";

/** A file in a case's fixture tree: text content, or something that is not a regular file. */
export type FixtureEntry = string | { readonly symlink: string } | { readonly directory: true } | { readonly fifo: true };

export interface CaseBase {
  /** Shown as the test's title; defaults to the input. */
  readonly name?: string;
  /** The return: a value is serialised with JSON.stringify, a string is used as the raw text. */
  readonly input: unknown;
  readonly options?: Readonly<Record<string, unknown>>;
  readonly command?: string;
  readonly format?: FormatName;
  readonly sessionId?: string;
  readonly agent?: string;
  /** The rest of what the caller knew: `taskType`, `staleAfterSeconds`, a fixed `now`, … */
  readonly expected?: Omit<Expected, "sessionId" | "agent">;
  /** Paths relative to the case's temporary root. */
  readonly files?: Readonly<Record<string, FixtureEntry>>;
  /** A contract (JSON Schema with x-returnlint annotations) the return is checked under: the rule sees its claims and violations. */
  readonly contract?: Readonly<Record<string, unknown>>;
}

export type ValidCase = CaseBase;

/** A problem an invalid case expects; `MessageId` is the union of the rule's message ids. */
export interface ExpectedError<MessageId extends string = string> {
  readonly messageId: MessageId;
  readonly pointer?: string;
  /** Substring the filled message must contain. */
  readonly message?: string;
  /** Substring the filled detail lines must contain. */
  readonly detail?: string;
  /** Entries the finding's `data` must hold, each equal to the value given (other entries may be there too). */
  readonly data?: Readonly<Record<string, string | number>>;
  /** The filled `reask` line, whole: what the subagent is told to change. */
  readonly reask?: string;
}

export interface InvalidCase<MessageId extends string = string> extends CaseBase {
  readonly errors: readonly ExpectedError<MessageId>[];
}

export interface TestFunctions {
  readonly describe: (name: string, body: () => void) => void;
  readonly it: (name: string, body: () => void | Promise<void>) => void;
}

export class RuleTesterError extends Error {
  override readonly name = "RuleTesterError";
}

/**
 * Runs a rule over tables of cases (either table may be empty). Besides the
 * expectations, it fails a test on an invalid options schema, default options the
 * schema rejects, an unknown messageId, an unfilled placeholder (in text, detail,
 * recommendation or reask), an invalid case that reports nothing, a duplicate
 * case, and a rule whose two runs over the same input differ.
 */
export class RuleTester {
  private readonly test: TestFunctions;

  constructor(test?: TestFunctions) {
    const globals = globalThis as Partial<TestFunctions>;
    const describe = test?.describe ?? globals.describe;
    const it = test?.it ?? globals.it;
    if (describe === undefined || it === undefined) {
      throw new RuleTesterError("RuleTester needs describe and it: pass { describe, it } from your test runner.");
    }
    this.test = { describe, it };
  }

  /** A rule declared with `defineRule` knows its message ids: an expected error naming another one is a type error. */
  run<MessageId extends string>(rule: Rule<unknown, MessageId>, cases: { valid: readonly ValidCase[]; invalid: readonly InvalidCase<NoInfer<MessageId>>[] }): void {
    const { describe, it } = this.test;
    describe(rule.id, () => {
      it("has a valid options schema that accepts its default options", () => {
        checkMeta(rule);
      });
      const seen = new Set<string>();
      for (const [kind, list] of [["valid", cases.valid], ["invalid", cases.invalid]] as const) {
        // An empty table is allowed (a rule with no valid input, a first draft): a test runner fails an empty suite.
        if (list.length === 0) continue;
        describe(kind, () => {
          for (const testCase of list) {
            let key: string;
            let title: string;
            try {
              key = caseKey(testCase);
              title = testCase.name ?? (typeof testCase.input === "string" ? testCase.input : JSON.stringify(testCase.input));
            } catch (error) {
              // A value nested deeper than JSON.stringify can go: one failing case, not a crashed file.
              const reason = error instanceof Error ? error.message : String(error);
              it(testCase.name ?? `${kind} case that cannot be serialised`, () => {
                throw new RuleTesterError(`the case cannot be serialised with JSON.stringify (${reason}); give its input as a JSON string`);
              });
              continue;
            }
            const duplicate = seen.has(key);
            seen.add(key);
            it(title.slice(0, 120), async () => {
              if (duplicate) throw new RuleTesterError(`duplicate ${kind} case: ${title}`);
              await runCase(rule, testCase, "errors" in testCase ? testCase : undefined);
            });
          }
        });
      }
    });
  }
}

/** Everything that decides what a case runs, with object keys sorted: `{a, b}` and `{b, a}` are the same case. */
function caseKey(testCase: CaseBase): string {
  const { input, options, command, format, sessionId, agent, expected, files } = testCase;
  return JSON.stringify([input, options, command, format, sessionId, agent, expected, files], (_key, value: unknown) =>
    value !== null && typeof value === "object" && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : value,
  );
}

function checkMeta(rule: AnyRule): void {
  const defaults: unknown = rule.meta.defaultOptions;
  if (defaults === null || typeof defaults !== "object" || Array.isArray(defaults)) {
    throw new RuleTesterError(`${rule.id}: default options must be an object (options are merged over them); received ${defaults === null ? "null" : Array.isArray(defaults) ? "an array" : typeof defaults}`);
  }
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  let validate;
  try {
    validate = ajv.compile(rule.meta.schema);
  } catch (error) {
    throw new RuleTesterError(`${rule.id}: invalid options schema: ${(error as Error).message}`);
  }
  if (!validate(structuredClone(rule.meta.defaultOptions))) {
    throw new RuleTesterError(`${rule.id}: default options do not satisfy the schema: ${ajv.errorsText(validate.errors)}`);
  }
}

async function runCase(rule: AnyRule, testCase: CaseBase, invalid: InvalidCase | undefined): Promise<void> {
  const options = { ...(rule.meta.defaultOptions as Record<string, unknown>), ...testCase.options };
  if (testCase.options !== undefined) {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    const validate = ajv.compile(rule.meta.schema);
    if (!validate(options)) throw new RuleTesterError(`case options do not satisfy the schema: ${ajv.errorsText(validate.errors)}`);
  }
  const root = mkdtempSync(path.join(tmpdir(), "returnlint-rule-tester-"));
  try {
    writeFixtures(root, testCase.files ?? {});
    const first = await runOnce(rule, testCase, options, root);
    const second = await runOnce(rule, testCase, options, root);
    if (!isDeepStrictEqual(first.results, second.results)) {
      throw new RuleTesterError(`${rule.id} is not deterministic: two runs over the same input differ`);
    }
    for (const result of first.results) checkResult(rule, result);
    const problems = first.results.filter((result) => result.level === "fail" || result.level === "warn");
    if (invalid === undefined) {
      if (problems.length > 0) throw new RuleTesterError(`expected no problems, got:\n${list(problems)}`);
      return;
    }
    if (invalid.errors.length === 0) throw new RuleTesterError("an invalid case must list the errors it expects");
    if (problems.length === 0) throw new RuleTesterError("an invalid case reported nothing");
    if (problems.length !== invalid.errors.length) {
      throw new RuleTesterError(`expected ${String(invalid.errors.length)} problem(s), got ${String(problems.length)}:\n${list(problems)}`);
    }
    invalid.errors.forEach((expected, index) => {
      const actual = problems[index];
      if (actual === undefined) return;
      const mismatch =
        actual.messageId !== expected.messageId ||
        (expected.pointer !== undefined && actual.pointer !== expected.pointer) ||
        (expected.message !== undefined && !actual.message.includes(expected.message)) ||
        (expected.detail !== undefined && !(actual.detail ?? "").includes(expected.detail)) ||
        (expected.data !== undefined && !holdsData(actual, expected.data)) ||
        (expected.reask !== undefined && actual.reask !== expected.reask);
      if (mismatch) {
        throw new RuleTesterError(`problem ${String(index)}: expected ${JSON.stringify(expected)}, got:\n${list([actual])}`);
      }
    });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

function holdsData(result: Result, expected: Readonly<Record<string, string | number>>): boolean {
  const data = result.data ?? {};
  return Object.entries(expected).every(([key, value]) => Object.hasOwn(data, key) && data[key] === value);
}

async function runOnce(rule: AnyRule, testCase: CaseBase, options: unknown, root: string): Promise<Report> {
  const text = stripBom(typeof testCase.input === "string" ? testCase.input : JSON.stringify(testCase.input));
  const contract = testCase.contract === undefined ? undefined : await compiledContract(testCase.contract);
  return runRules({
    ...(contract === undefined ? {} : { contract }),
    text,
    parse: parseReturn(text),
    command: testCase.command ?? null,
    format: testCase.format ?? "v7",
    expected: {
      ...testCase.expected,
      ...(testCase.sessionId === undefined ? {} : { sessionId: testCase.sessionId }),
      ...(testCase.agent === undefined ? {} : { agent: testCase.agent }),
    },
    rules: [{ rule, severity: "error", options, source: "rule-tester" }],
    files: createFileView(root),
  });
}

/** The case's contract, compiled as a config's would be (its cache in a folder of the tester's own); a broken contract fails the case. */
async function compiledContract(schema: Readonly<Record<string, unknown>>): Promise<Contract> {
  contractCache ??= mkdtempSync(path.join(tmpdir(), "returnlint-rule-tester-contracts-"));
  const { contract, problems } = await compileContract(schema, "contract.json", contractCache);
  if (contract === undefined) throw new RuleTesterError(`the case's contract is invalid: ${problems.join("; ")}`);
  return contract;
}

let contractCache: string | undefined;

function checkResult(rule: AnyRule, result: Result): void {
  if (result.messageId === "ruleCrashed") throw new RuleTesterError(`${result.message}: ${result.detail ?? ""}`);
  const spec = rule.meta.messages[result.messageId];
  if (spec === undefined) throw new RuleTesterError(`unknown messageId "${result.messageId}"`);
  const filled = [result.message, result.detail, result.recommendation, result.reask].join("\n");
  for (const name of [spec.text, spec.detail ?? "", spec.recommendation ?? "", spec.reask ?? ""].flatMap(placeholders)) {
    if (filled.includes(`{${name}}`)) throw new RuleTesterError(`message "${result.messageId}" left placeholder {${name}} unfilled`);
  }
}

function writeFixtures(root: string, files: Readonly<Record<string, FixtureEntry>>): void {
  for (const [relative, entry] of Object.entries(files)) {
    const target = path.resolve(root, relative);
    if (path.isAbsolute(relative) || !target.startsWith(root + path.sep)) {
      throw new RuleTesterError(`fixture path ${JSON.stringify(relative)} must stay inside the case's root`);
    }
    mkdirSync(path.dirname(target), { recursive: true });
    if (typeof entry === "string") writeFileSync(target, entry);
    else if ("symlink" in entry) symlinkSync(entry.symlink, target);
    else if ("directory" in entry) mkdirSync(target, { recursive: true });
    else execFileSync("mkfifo", [target]);
  }
}

function list(results: readonly Result[]): string {
  return results
    .map((result) => `  ${result.level} ${result.messageId} ${result.pointer ?? ""} ${result.message} | ${result.detail ?? ""}${result.data === undefined ? "" : ` | data ${JSON.stringify(result.data)}`}${result.reask === undefined ? "" : ` | reask ${result.reask}`}`)
    .join("\n");
}
