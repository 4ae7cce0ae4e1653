import type { Result } from "@returnlint/core";
import type { Formatter, FormatterInput } from "@returnlint/api";
import { warningsFail } from "@returnlint/api";
import { attributes, escapeXml } from "./xml.js";

const TAG = { pass: "[PASS]", info: "[INFO]", warn: "[WARN]", fail: "[FAIL]" } as const;

function details(result: Result, docs: string): string {
  return [
    result.message,
    result.detail,
    result.recommendation === undefined ? undefined : `Recommendation: ${result.recommendation}`,
    result.pointer === undefined ? undefined : `At: ${result.pointer === "" ? "(the whole return)" : result.pointer}`,
    docs === "" ? undefined : `Docs: ${docs}`,
  ]
    .filter((line) => line !== undefined)
    .join("\n");
}

export interface Suite {
  readonly lines: readonly string[];
  readonly tests: number;
  readonly failures: number;
  readonly errors: number;
  readonly skipped: number;
}

/**
 * JUnit XML for CI test reports: one document, one test suite per return, one test
 * case per configured rule, a <failure> per failing result, <skipped/> for a rule
 * that did not run, and the rule's other lines of the transcript in <system-out>.
 */
export const junit: Formatter = (inputs) => junitDocument(inputs.map(suiteOf));

export function junitDocument(suites: readonly Suite[]): string {
  const sum = (key: "tests" | "failures" | "errors" | "skipped") => suites.reduce((total, suite) => total + suite[key], 0);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attributes({ name: "returnlint", tests: sum("tests"), failures: sum("failures"), errors: sum("errors"), skipped: sum("skipped") })}>`,
    ...suites.flatMap((suite) => suite.lines),
    "</testsuites>",
    "",
  ].join("\n");
}

function suiteOf(input: FormatterInput): Suite {
  const { report, source } = input;
  const ids = [...input.rules.map((rule) => rule.id), ...report.results.map((result) => result.ruleId)];
  const countsWarnings = warningsFail(input);
  let failures = 0;
  let errors = 0;
  let skipped = 0;
  const cases = [...new Set(ids)].map((id) => {
    const rule = input.rules.find((candidate) => candidate.id === id);
    const results = report.results.filter((result) => result.ruleId === id);
    const head = `    <testcase${attributes({ name: id, classname: source, file: source })}`;
    if (rule !== undefined && !rule.ran) {
      skipped += 1;
      return `${head}>\n      <skipped${attributes({ message: "not run: the return is not a JSON object" })}/>\n    </testcase>`;
    }
    const body: string[] = [];
    const transcript: string[] = [];
    for (const result of results) {
      const failed = result.level === "fail" || (countsWarnings && result.level === "warn");
      if (!failed) {
        transcript.push(`${TAG[result.level]} ${result.message}`);
        continue;
      }
      // A rule that crashed is an error of the run, not a verdict on the return.
      const crashed = result.messageId === "ruleCrashed" && report.internalError;
      if (crashed) errors += 1;
      else failures += 1;
      const element = crashed ? "error" : "failure";
      body.push(`      <${element}${attributes({ message: result.message, type: result.messageId })}>${escapeXml(details(result, rule?.docs ?? ""))}</${element}>`);
    }
    if (transcript.length > 0 && !input.quiet) body.push(`      <system-out>${escapeXml(transcript.join("\n"))}</system-out>`);
    return body.length === 0 ? `${head}/>` : `${head}>\n${body.join("\n")}\n    </testcase>`;
  });
  return junitSuite(source, { tests: cases.length, failures, errors, skipped }, properties(input), cases);
}

function properties({ report, task }: FormatterInput): Record<string, string> {
  return {
    command: report.command ?? "",
    format: report.format,
    preset: report.preset,
    status: report.status ?? "",
    agent: report.agent,
    ...(task === undefined ? {} : { task }),
  };
}

/** A <testsuite> of `cases` (each a <testcase> already written, indented by four), its counts and properties. */
export function junitSuite(name: string, counts: Omit<Suite, "lines">, properties: Readonly<Record<string, string>>, cases: readonly string[]): Suite {
  return {
    ...counts,
    lines: [
      `  <testsuite${attributes({ name, ...counts })}>`,
      ...(Object.keys(properties).length === 0
        ? []
        : ["    <properties>", ...Object.entries(properties).map(([name, value]) => `      <property${attributes({ name, value })}/>`), "    </properties>"]),
      ...cases,
      "  </testsuite>",
    ],
  };
}
