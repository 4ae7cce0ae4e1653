import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { XMLParser } from "fast-xml-parser";
import { SyntaxValidator } from "fast-xml-validator";
import { describe, expect, it } from "vitest";
import { EXAMPLES, STACK_FRAME, metadata, project, returnlint } from "./helpers.js";
import { sarifErrors } from "./sarif-schema.js";

const docs = (ruleId: string) => `https://github.com/returnlint/returnlint/blob/main/packages/rule-${ruleId}/README.md`;


/** Undefined when the text is well-formed XML with a declaration; else what is wrong. */
function xmlProblem(xml: string): string | undefined {
  try {
    SyntaxValidator.validate(xml, { invalidCharSequence: { comment: true, tagValue: true, attrLt: true }, xmlDeclaraion: { optional: false } });
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

const phantom = path.join(EXAMPLES, "phantom-work", "return.json");

/** A v7 return that fails in several ways at once, and warns. */
/** What error-details wants of an unfinished return, so that the tests below see only what they are about. */
const PARTIAL_ERROR = { type: "timeout", message: "Timed out after 1 hour", recoverable: true, recommendation: "Resume the task" };

function brokenProject() {
  return project({
    "r.json": {
      status: "completed",
      summary: "x".repeat(450),
      artifacts: [
        { type: "report", path: "reports/gone.md", summary: "never written" },
        { type: "plan", path: "plans/empty.md", summary: "empty" },
      ],
      metadata: metadata("researcher", "sess_wrong"),
    },
    "plans/empty.md": "",
  });
}

function lineContaining(file: string, needle: string): number {
  return readFileSync(file, "utf8").split("\n").findIndex((line) => line.includes(needle)) + 1;
}

interface SarifLog {
  runs: {
    tool: { driver: { name: string; version: string; informationUri: string; rules: { id: string; shortDescription: { text: string }; helpUri?: string }[] } };
    results: {
      ruleId: string;
      ruleIndex: number;
      level: string;
      message: { text: string };
      locations: { physicalLocation?: { artifactLocation: { uri: string }; region: { startLine: number } }; logicalLocations?: { fullyQualifiedName: string }[] }[];
      properties: { pointer?: string; recommendation?: string; data?: Record<string, unknown> };
    }[];
  }[];
}

describe("--format sarif", () => {
  it("is valid SARIF 2.1.0 for passing, failing, non-JSON, piped and prose-wrapped returns", () => {
    const root = brokenProject();
    writeFileSync(path.join(root, "my return.md"), 'Done.\n\n```json\n{"status": "partial", "summary": "half", "artifacts": [], "metadata": {"session_id": "s", "agent_type": "a", "delegation_depth": 1, "delegation_path": ["a"]}}\n```\n');
    const runs = [
      returnlint(["check", "return.json", "--format", "sarif"], { cwd: path.join(EXAMPLES, "valid-v7") }),
      returnlint(["check", phantom, "--format", "sarif"]),
      returnlint(["check", path.join(EXAMPLES, "not-json", "return.txt"), "--format", "sarif"]),
      returnlint(["check", "-", "--format", "sarif"], { input: '{"status": 7}' }),
      returnlint(["check", "r.json", "--format", "sarif", "--session-id", "sess_1"], { cwd: root }),
      returnlint(["check", "my return.md", "--format", "sarif"], { cwd: root }),
    ];
    for (const run of runs) {
      expect(run.stderr).toBe("");
      const log = JSON.parse(run.stdout) as SarifLog;
      expect(sarifErrors(log)).toEqual([]);
    }
    expect(runs.map((run) => run.status)).toEqual([0, 1, 1, 1, 1, 0]);
    // The validator bites: a log with an unknown level is rejected.
    const log = JSON.parse(runs[1]?.stdout ?? "") as SarifLog;
    const result = log.runs[0]?.results[0];
    if (result !== undefined) result.level = "fatal";
    expect(sarifErrors(log).join("\n")).toContain("/runs/0/results/0/level");
  });

  it("carries each rule's id, description and docs URL, and locates results in the return file", () => {
    const root = brokenProject();
    const run = returnlint(["check", "r.json", "--format", "sarif", "--session-id", "sess_1"], { cwd: root });
    expect(run.status).toBe(1);
    const [sarifRun] = (JSON.parse(run.stdout) as SarifLog).runs;
    if (sarifRun === undefined) throw new Error("no run");
    const { driver } = sarifRun.tool;
    expect(driver).toMatchObject({ name: "returnlint", informationUri: "https://github.com/returnlint/returnlint" });
    expect(driver.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(driver.rules.map((rule) => rule.id)).toEqual(["json-structure", "required-fields", "status-enum", "session-id", "delegation", "artifacts", "completion-data", "error-details", "summary-length"]);
    for (const rule of driver.rules) {
      expect(rule.helpUri).toBe(docs(rule.id));
      expect(rule.shortDescription.text.length).toBeGreaterThan(10);
    }

    const byPointer = new Map(sarifRun.results.map((result) => [result.properties.pointer, result]));
    const missing = byPointer.get("/artifacts/0/path");
    expect(missing).toMatchObject({ ruleId: "artifacts", level: "error", properties: { recommendation: "Verify researcher writes artifacts to correct paths" } });
    expect(missing?.properties.data).toMatchObject({ index: 0, path: "reports/gone.md", kind: "file" });
    expect(missing?.message.text).toContain("Artifact does not exist: reports/gone.md\n");
    expect(missing?.message.text).toContain("Recommendation: Verify researcher writes artifacts to correct paths");
    expect(driver.rules[missing?.ruleIndex ?? -1]?.id).toBe("artifacts");
    expect(missing?.locations[0]).toEqual({
      physicalLocation: { artifactLocation: { uri: "r.json", uriBaseId: "%SRCROOT%" }, region: { startLine: lineContaining(path.join(root, "r.json"), "reports/gone.md") } },
      logicalLocations: [{ fullyQualifiedName: "/artifacts/0/path", kind: "value" }],
    });
    expect(byPointer.get("/metadata/session_id")?.locations[0]?.physicalLocation?.region.startLine).toBe(lineContaining(path.join(root, "r.json"), "sess_wrong"));
    expect(byPointer.get("/summary")).toMatchObject({ ruleId: "summary-length", level: "warning" });
    expect(sarifRun.results.map((result) => result.level).sort()).toEqual(["error", "error", "error", "warning"]);
  });

  it("describes custom rules from the config too", () => {
    const rule = `export default {
  id: "no-todo",
  meta: {
    description: "Summaries do not say TODO.",
    docs: "https://example.com/rules/no-todo",
    schema: { type: "object", additionalProperties: false },
    defaultOptions: {},
    messages: { todo: { text: "Summary says TODO", recommendation: "Finish the work" } },
  },
  check(context) {
    if (String(context.value.summary).includes("TODO")) context.report({ messageId: "todo", pointer: "/summary" });
  },
};
`;
    const root = project({
      "rules/no-todo.mjs": rule,
      "returnlint.config.json": { preset: "v7", rules: { "./rules/no-todo.mjs": "error" } },
      "r.json": { status: "partial", summary: "TODO later", artifacts: [], metadata: metadata("researcher"), errors: [PARTIAL_ERROR] },
    });
    const run = returnlint(["check", "r.json", "-f", "sarif"], { cwd: root });
    expect(run.stderr).toBe("");
    const [sarifRun] = (JSON.parse(run.stdout) as SarifLog).runs;
    expect(sarifRun?.tool.driver.rules).toContainEqual({ id: "no-todo", shortDescription: { text: "Summaries do not say TODO." }, helpUri: "https://example.com/rules/no-todo" });
    expect(sarifRun?.results).toEqual([expect.objectContaining({ ruleId: "no-todo", level: "error", message: { text: "Summary says TODO\nRecommendation: Finish the work" } })]);
  });
});

interface TestCase {
  "@_name": string;
  failure?: { "#text": string; "@_message": string; "@_type": string };
  skipped?: { "@_message": string };
  "system-out"?: string;
}

function junitCases(xml: string): TestCase[] {
  const parser = new XMLParser({ ignoreAttributes: false, isArray: (name) => name === "testcase" || name === "testsuite" });
  const document = parser.parse(xml) as { testsuites: { testsuite: { testcase: TestCase[] }[] } };
  return document.testsuites.testsuite.flatMap((suite) => suite.testcase);
}

describe("--format junit", () => {
  it("parses as XML, with one test case per rule and a failure per failing result", () => {
    const root = brokenProject();
    const run = returnlint(["check", "r.json", "--format", "junit", "--session-id", "sess_1"], { cwd: root });
    expect(run.status).toBe(1);
    expect(xmlProblem(run.stdout)).toBeUndefined();
    const cases = junitCases(run.stdout);
    expect(cases.map((testCase) => testCase["@_name"])).toEqual(["json-structure", "required-fields", "status-enum", "session-id", "delegation", "artifacts", "completion-data", "error-details", "summary-length"]);
    const artifacts = cases.find((testCase) => testCase["@_name"] === "artifacts");
    // Two failures of one rule: the parser keeps the first in `failure` only when there is one.
    expect(run.stdout.match(/<failure /g)).toHaveLength(3);
    expect(artifacts).toBeDefined();
    expect(run.stdout).toContain('<failure message="Artifact does not exist: reports/gone.md" type="notFound">');
    expect(run.stdout).toContain(`Docs: ${docs("artifacts")}</failure>`);
    expect(cases.find((testCase) => testCase["@_name"] === "summary-length")?.["system-out"]).toBe("[WARN] Summary exceeds recommended length: 450 characters");
    expect(cases.find((testCase) => testCase["@_name"] === "json-structure")?.["system-out"]).toBe("[PASS] Return is valid JSON");
    expect(run.stdout).toMatch(/<testsuites name="returnlint" tests="9" failures="3" errors="0" skipped="0">/);
  });

  it("marks the rules that did not run as skipped when the return is not JSON", () => {
    const run = returnlint(["check", path.join(EXAMPLES, "not-json", "return.txt"), "--format", "junit"]);
    expect(xmlProblem(run.stdout)).toBeUndefined();
    const cases = junitCases(run.stdout);
    expect(cases.find((testCase) => testCase["@_name"] === "json-structure")?.failure?.["@_type"]).toBe("noReturn");
    expect(cases.filter((testCase) => testCase.skipped !== undefined).map((testCase) => testCase["@_name"])).toEqual([
      "required-fields",
      "status-enum",
      "session-id",
      "delegation",
      "artifacts",
      "completion-data",
      "error-details",
      "summary-length",
    ]);
  });

  it("stays well-formed whatever the return contains", () => {
    const hostile = ["a<b>&c.md", 'q"u\'o]]>te.md', "ctl\u0001\u001f\u0000.md", "\uFFFE\uD800.md", "x".repeat(300)];
    const input = JSON.stringify({
      status: "completed<",
      summary: "]]> & <script>",
      artifacts: hostile.map((file) => ({ type: "report", path: file, summary: "s" })),
      metadata: metadata("<agent & co>"),
    });
    const run = returnlint(["check", "-", "--format", "junit", "--agent", "a&b<c>"], { input });
    expect(run.status).toBe(1);
    expect(xmlProblem(run.stdout)).toBeUndefined();
    expect(junitCases(run.stdout)).toHaveLength(9);
    expect(run.stdout).toContain("a&lt;b&gt;&amp;c.md");
    expect(xmlProblem(run.stdout.replace("a&lt;b&gt;&amp;c.md", "a<b>&c.md"))).toBeDefined();
    expect(run.stdout).toContain("\\u0001");
  });
});

describe("--format github", () => {
  it("prints one workflow command per problem, escaping data and properties", () => {
    const root = project({
      "ret,1:x.json": { status: "completed", summary: "x".repeat(450), artifacts: [{ type: "report", path: "100% done.md", summary: "s" }], metadata: metadata("researcher") },
    });
    const run = returnlint(["check", "ret,1:x.json", "--format", "github"], { cwd: root });
    expect(run.status).toBe(1);
    const lines = run.stdout.split("\n");
    expect(lines.at(-1)).toBe("");
    expect(lines.slice(0, -1)).toEqual([
      `::error file=ret%2C1%3Ax.json,line=${String(lineContaining(path.join(root, "ret,1:x.json"), "100% done.md"))},title=returnlint artifacts at /artifacts/0/path::Artifact does not exist: 100%25 done.md%0AError: Subagent claimed to create artifact but file does not exist%0ARecommendation: Verify researcher writes artifacts to correct paths`,
      `::warning file=ret%2C1%3Ax.json,line=3,title=returnlint summary-length at /summary::Summary exceeds recommended length: 450 characters%0AWarning: the summary should stay within 400 characters (about 100 tokens)%0ARecommendation: Shorten researcher subagent's summary to 2-5 sentences and put the details in an artifact`,
    ]);
  });

  it("keeps a hostile value on its own command line", () => {
    const input = JSON.stringify({ status: "done\r\n::error::forged", summary: "s", artifacts: [], metadata: metadata("r") });
    const run = returnlint(["check", "-", "--format", "github"], { input });
    expect(run.status).toBe(1);
    for (const line of run.stdout.trimEnd().split("\n")) expect(line).toMatch(/^::(error|warning) title=[^:]*::/);
    expect(run.stdout).not.toContain("\r");
  });

  it("prints nothing for a return without problems", () => {
    const run = returnlint(["check", "return.json", "--format", "github"], { cwd: path.join(EXAMPLES, "valid-v7") });
    expect(run.status).toBe(0);
    expect(run.stdout).toBe("");
  });
});

describe("--format reask", () => {
  it("tells a subagent what to fix about phantom work, and nothing else", () => {
    const run = returnlint(["check", phantom, "--format", "reask"]);
    expect(run.status).toBe(1);
    expect(run.stdout).toBe(
      '- /artifacts: status "completed" says the work is done but "artifacts" is empty; write the files and list each as {"type": …, "path": …, "summary": …}, or set status to "partial".\n',
    );
  });

  it("gives one imperative line per problem, with its JSON Pointer", () => {
    const root = brokenProject();
    const run = returnlint(["check", "r.json", "--format", "reask", "--session-id", "sess_1", "--command", "research"], { cwd: root });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe(
      [
        '- /metadata/session_id: the session id "sess_wrong" is not the one you were delegated; return the session id from your delegation context, unchanged.',
        '- /artifacts/0/path: file "reports/gone.md" does not exist; write it, or fix the path.',
        '- /artifacts/1/path: file "plans/empty.md" is empty; write its content.',
        "",
      ].join("\n"),
    );
  });

  it("never tells the subagent the expected session id, which it would copy", () => {
    const run = returnlint(["check", "r.json", "--format", "reask", "--session-id", "sess_1736700000_abc123"], { cwd: brokenProject() });
    expect(run.status).toBe(1);
    expect(run.stdout).toContain('- /metadata/session_id: the session id "sess_wrong" is not the one you were delegated');
    expect(run.stdout).not.toContain("sess_1736700000_abc123");
  });

  it("covers a missing field, a wrong status and a return that is not JSON", () => {
    const missing = returnlint(["check", path.join(EXAMPLES, "missing-field", "return.json"), "--format", "reask", "--command", "plan"]);
    expect(missing.stdout).toBe('- /status: "status" is missing; add it.\n');
    const status = returnlint(["check", "-", "--format", "reask", "--preset", "metadata-file", "--command", "plan"], {
      input: JSON.stringify({ status: "completed", artifacts: [], metadata: metadata("planner") }),
    });
    expect(status.stdout.split("\n")[0]).toBe(
      '- /status: "status" must be one of planned, partial, failed, blocked, in_progress for /plan; received "completed"; use "planned" ("completed" triggers Claude\'s stop behavior).',
    );
    const typo = returnlint(["check", "-", "--format", "reask"], { input: JSON.stringify({ status: "Completed", summary: "s", artifacts: [], metadata: metadata("r") }) });
    expect(typo.stdout.split("\n")[0]).toBe('- /status: "status" must be one of completed, partial, failed, blocked for /research; received "Completed"; set "status" to "completed".');
    const unknown = returnlint(["check", "-", "--format", "reask"], { input: JSON.stringify({ status: "zzzzzzzz", summary: "s", artifacts: [], metadata: metadata("r") }) });
    expect(unknown.stdout.split("\n")[0]).toBe('- /status: "status" must be one of completed, partial, failed, blocked for /research; received "zzzzzzzz"; set "status" to one of the allowed values.');
    const prose = returnlint(["check", path.join(EXAMPLES, "not-json", "return.txt"), "--format", "reask"]);
    expect(prose.stdout).toBe("- (the whole return): your reply contains no JSON object; end it with your JSON return, not prose.\n");
  });

  it("says in one line that a valid return is valid, and counts warnings past --max-warnings", () => {
    const valid = returnlint(["check", "return.json", "--format", "reask"], { cwd: path.join(EXAMPLES, "valid-v7") });
    expect(valid.stdout).toBe('The return is valid (status "completed"); nothing to fix.\n');
    const long = JSON.stringify({ status: "partial", summary: "x".repeat(500), artifacts: [], metadata: metadata("researcher"), errors: [PARTIAL_ERROR] });
    expect(returnlint(["check", "-", "--format", "reask"], { input: long }).stdout).toBe('The return is valid (status "partial"); nothing to fix.\n');
    const strict = returnlint(["check", "-", "--format", "reask", "--max-warnings", "0"], { input: long });
    expect(strict.status).toBe(1);
    expect(strict.stdout).toBe("- /summary: the summary is 500 characters, over the 400 recommended; shorten it to 2-5 sentences and put the details in an artifact.\n");
  });
});

describe("--format response", () => {
  it("gives the seeds' Error Response Format on a failure", () => {
    const root = brokenProject();
    const args = ["check", "r.json", "--session-id", "sess_1"];
    const run = returnlint([...args, "--format", "response"], { cwd: root });
    expect(run.status).toBe(1);
    const report = JSON.parse(returnlint([...args, "--format", "json"], { cwd: root }).stdout) as { errorCount: number; results: { level: string; message: string }[] };
    const response = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(Object.keys(response)).toEqual(["status", "summary", "artifacts", "errors"]);
    const first = report.results.find((result) => result.level === "fail");
    expect(response).toMatchObject({ status: "failed", summary: `Validation failed: ${first?.message ?? ""}`, artifacts: [] });
    const errors = response.errors as Record<string, unknown>[];
    expect(errors).toHaveLength(report.errorCount);
    for (const error of errors) {
      expect(Object.keys(error)).toEqual(["type", "message", "recoverable", "recommendation"]);
      expect(error).toMatchObject({ type: "validation", recoverable: true });
      expect([typeof error.message, typeof error.recommendation]).toEqual(["string", "string"]);
    }
    expect(errors).toContainEqual({
      type: "validation",
      message: "Artifact does not exist: reports/gone.md; Subagent claimed to create artifact but file does not exist",
      recoverable: true,
      recommendation: "Verify researcher writes artifacts to correct paths",
    });
  });

  it("relays the validated return's status and summary on a pass", () => {
    const valid = path.join(EXAMPLES, "valid-v7");
    const run = returnlint(["check", "return.json", "--format", "response"], { cwd: valid });
    expect(run.status).toBe(0);
    const original = JSON.parse(readFileSync(path.join(valid, "return.json"), "utf8")) as Record<string, unknown>;
    expect(JSON.parse(run.stdout)).toEqual({ status: original.status, summary: original.summary, artifacts: original.artifacts });
  });
});

describe("several outputs at once", () => {
  it("writes each -o file and prints only the formats without one", () => {
    const root = brokenProject();
    const alone = returnlint(["check", "r.json", "--format", "reask"], { cwd: root });
    const run = returnlint(["check", "r.json", "-f", "sarif", "-o", "out/returnlint.sarif", "--format", "junit", "--output", "junit.xml", "-f", "reask"], { cwd: root });
    expect(run.status).toBe(alone.status);
    expect(run.stdout).toBe(alone.stdout);
    expect(run.stderr).toBe("");
    expect(sarifErrors(JSON.parse(readFileSync(path.join(root, "out", "returnlint.sarif"), "utf8")) as unknown)).toEqual([]);
    expect(xmlProblem(readFileSync(path.join(root, "junit.xml"), "utf8"))).toBeUndefined();
    // Written through a temporary file and a rename: nothing else is left behind.
    expect(readdirSync(root).sort()).toEqual(["junit.xml", "out", "plans", "r.json"]);
    expect(readdirSync(path.join(root, "out"))).toEqual(["returnlint.sarif"]);
  });

  it("replaces an existing file, and prints nothing when every format has a file", () => {
    const root = brokenProject();
    writeFileSync(path.join(root, "report.json"), "old");
    const run = returnlint(["check", "r.json", "-f", "json", "-o", "report.json"], { cwd: root });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe("");
    expect(JSON.parse(readFileSync(path.join(root, "report.json"), "utf8"))).toMatchObject({ ok: false, errorCount: 2 });
  });

  it("refuses more files than formats, a file given twice, and a file it cannot write, with exit 2", () => {
    const root = brokenProject();
    const extra = returnlint(["check", "r.json", "-f", "json", "-o", "a.json", "-o", "b.json"], { cwd: root });
    expect(extra.status).toBe(2);
    expect(extra.stderr).toBe("returnlint: 2 --output files for 1 --format value: each --output FILE receives the --format at the same position.\n");
    const twice = returnlint(["check", "r.json", "-f", "json", "-o", "a.json", "-f", "sarif", "-o", "./a.json"], { cwd: root });
    expect(twice.status).toBe(2);
    expect(twice.stderr).toContain("--output ./a.json is given twice");
    const blocked = returnlint(["check", "r.json", "-f", "json", "-o", "r.json/report.json", "-f", "reask"], { cwd: root });
    expect(blocked.status).toBe(2);
    expect(blocked.stdout).toBe("");
    expect(blocked.stderr).toMatch(/^returnlint: Cannot write .*r\.json\/report\.json: .+\.\n$/);
    expect(blocked.stderr).not.toMatch(STACK_FRAME);
    const typo = returnlint(["check", "r.json", "-f", "json", "-f", "sarfi"], { cwd: root });
    expect(typo.status).toBe(2);
    expect(typo.stderr).toContain('Unknown format "sarfi" (did you mean "sarif"?)');
    expect(readdirSync(root).sort()).toEqual(["plans", "r.json"]);
  });

  it("documents the formats and -o in --help", () => {
    const help = returnlint(["check", "--help"]).stdout;
    expect(help).toContain("stylish (default), json, sarif, junit, github, reask or\n                       response");
    expect(help).toContain("-o, --output FILE");
  });

  it("gives exit 0, 1 or 2 and never a stack trace in any format for arbitrary bytes", { timeout: 60_000 }, () => {
    const inputs = [Buffer.from([0xff, 0xfe, 0x00, 0x7b]), Buffer.from("[".repeat(5000)), Buffer.from('{"artifacts": [{"path": {"nested": true}}], "status": "completed"}'), Buffer.from("null")];
    for (const input of inputs) {
      for (const format of ["sarif", "junit", "github", "reask", "response"]) {
        const run = returnlint(["check", "-", "--format", format], { input });
        expect([0, 1, 2]).toContain(run.status);
        expect(run.stderr + run.stdout).not.toMatch(STACK_FRAME);
        if (format === "sarif") expect(sarifErrors(JSON.parse(run.stdout) as unknown)).toEqual([]);
        if (format === "junit") expect(xmlProblem(run.stdout)).toBeUndefined();
        if (format === "response") expect(JSON.parse(run.stdout) as unknown).toMatchObject({ status: "failed", artifacts: [] });
      }
    }
  });
});

describe("one return or several", () => {
  const researched = (task: string) => ({
    status: "researched",
    artifacts: [{ type: "report", path: `specs/${task}/reports/research-001.md`, summary: "Report" }],
    metadata: metadata("lean-research-agent"),
  });
  const root = project({
    "specs/7_first/.return-meta.json": researched("7_first"),
    "specs/7_first/reports/research-001.md": "# Report\n",
    // Two folders for task 12: it cannot be read.
    "specs/12_a/.return-meta.json": researched("12_a"),
    "specs/012_b/.return-meta.json": researched("012_b"),
  });
  const check = (tasks: string, format: string) => returnlint(["check", "--task", tasks, "--format", format], { cwd: root });

  it("prints one return's document when one is asked for: a JSON object, no heading, no closing verdict", () => {
    expect(JSON.parse(check("7", "json").stdout)).toMatchObject({ ok: true, task: "7" });
    expect(JSON.parse(check("7", "response").stdout)).toMatchObject({ status: "researched" });
    expect(check("7", "reask").stdout).toBe('The return is valid (status "researched"); nothing to fix.\n');
    const stylish = check("7", "stylish");
    expect(stylish.status).toBe(0);
    expect(stylish.stdout.trimEnd().split("\n").at(-2)).toBe("[PASS] Return validation succeeded");
    expect(stylish.stdout).not.toContain("tasks passed validation");
  });

  it("prints the document for several when several are asked for, even when only one of them could be read", () => {
    const json = check("7,12", "json");
    expect(json.status).toBe(2);
    expect(json.stderr).toContain("returnlint: task 12: Two folders are task 12:");
    expect((JSON.parse(json.stdout) as { task: string }[]).map((report) => report.task)).toEqual(["7"]);
    expect((JSON.parse(check("7,12", "response").stdout) as { status: string }[]).map((one) => one.status)).toEqual(["researched"]);
    expect(check("7,12", "reask").stdout).toBe('Task 7 (specs/7_first/.return-meta.json):\nThe return is valid (status "researched"); nothing to fix.\n');
    expect(check("7,12", "stylish").stdout.trimEnd().split("\n").at(-1)).toBe("[PASS] All 1 tasks passed validation");
  });
});
