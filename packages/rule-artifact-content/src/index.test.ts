import { describe, expect, it } from "vitest";
import { RuleTester } from "@returnlint/rule-tester";
import rule, { headingsOf } from "./index.js";

const report = "specs/259_prove_completeness/reports/research-001.md";
const plan = "specs/259_prove_completeness/plans/implementation-001.md";
const summary = "specs/259_prove_completeness/summaries/implementation-summary-20260128.md";
const entry = (type: string, path: string) => ({ type, path, summary: `${type} for task 259` });
const done = (...artifacts: unknown[]) => ({ status: "completed", artifacts });
const body = "The canonical model construction covers every maximal consistent set; see the lemmas below.\n".repeat(3);

const fullReport = `# Research Report: Task 259\n\n## Key Findings\n\n${body}`;
const fullPlan = `# Implementation Plan\n\n## Implementation Phases\n\n### Phase 1: Lemmas [NOT STARTED]\n\n${body}`;
const fullSummary = `# Implementation Summary\n\n## Results\n\n${body}`;
const template = "# Research Report: Task {N}\n\n## Overview\n\nTODO\n";

new RuleTester({ describe, it }).run(rule, {
  valid: [
    { name: "a report with findings", input: done(entry("report", report)), files: { [report]: fullReport } },
    { name: "a plan with phases", input: done(entry("plan", plan)), files: { [plan]: fullPlan } },
    { name: "a summary with results", input: done(entry("summary", summary)), files: { [summary]: fullSummary } },
    {
      name: "setext headings count",
      input: done(entry("report", report)),
      files: { [report]: `Research Report\n===============\n\nFindings\n--------\n\n${body}` },
    },
    { name: "a type with no required sections needs only the size", input: done(entry("implementation", "src/a.ts")), files: { "src/a.ts": body } },
    { name: "a bare path needs only the size", input: done(report), files: { [report]: body } },
    { name: "partial returns are not checked", input: { status: "partial", artifacts: [entry("report", report)] } },
    { name: "headings are matched case-insensitively", input: done(entry("report", report)), files: { [report]: `# REPORT\n\n## FINDINGS\n\n${body}` } },
    {
      name: "the sections option replaces the defaults",
      input: done(entry("report", report)),
      files: { [report]: `# Report\n\n## Evidence\n\n## Recommendations\n\n${body}` },
      options: { sections: { report: ["^evidence$", "recommendations"] } },
    },
    { name: "minBytes 0 accepts a short file", input: done(entry("notes", "n.md")), files: { "n.md": "short" }, options: { minBytes: 0 } },
  ],
  invalid: [
    {
      name: "a template-sized report",
      input: done(entry("report", report)),
      files: { [report]: template },
      errors: [{ messageId: "tooSmall", pointer: "/artifacts/0", message: `Artifact is too small to be more than a template: ${report} (47 bytes, minimum 200)` }],
    },
    {
      name: "a long report without findings",
      input: done(entry("report", report)),
      files: { [report]: `# Research Report\n\n## Overview\n\n${body}` },
      errors: [
        {
          messageId: "missingSections",
          pointer: "/artifacts/0",
          message: `Artifact ${report} (report) is missing required sections: /findings/`,
          detail: 'Found headings: "Research Report", "Overview"',
        },
      ],
    },
    {
      name: "a plan without phases",
      input: done(entry("plan", plan)),
      files: { [plan]: `# Plan\n\n## Steps\n\n${body}` },
      errors: [{ messageId: "missingSections", data: { type: "plan", missing: "/phases?/" } }],
    },
    {
      name: "a summary without a result",
      input: done(entry("summary", summary)),
      files: { [summary]: `# Notes\n\n${body}` },
      errors: [{ messageId: "missingSections", data: { missing: "/results?|summary/" } }],
    },
    {
      name: "a heading inside a code fence is not a section",
      input: done(entry("report", report)),
      files: { [report]: `# Report\n\n\`\`\`markdown\n## Findings\n\`\`\`\n\n${body}` },
      errors: [{ messageId: "missingSections" }],
    },
    {
      name: "a section past maxBytes is not seen, and the message says where it looked",
      input: done(entry("report", report)),
      files: { [report]: `# Report\n\n${body}\n## Findings\n` },
      options: { maxBytes: 100 },
      errors: [{ messageId: "missingSections", data: { scope: " in the first 100 bytes", missing: "/findings/" } }],
    },
    { name: "a missing artifact cannot be more than a template", input: done(entry("report", report)), errors: [{ messageId: "unreadable", data: { reason: "the file cannot be inspected (notFound)" } }] },
    {
      name: "a pattern that is not a regular expression is reported",
      input: done(entry("report", report)),
      files: { [report]: fullReport },
      options: { sections: { report: ["findings", "(unclosed"] } },
      errors: [{ messageId: "badPattern", data: { type: "report", pattern: "(unclosed" } }],
    },
    {
      name: "every artifact is checked",
      input: done(entry("report", report), entry("plan", plan)),
      files: { [report]: "# x\n", [plan]: fullPlan.replace("Phases", "Steps").replace("Phase 1", "Step 1") },
      errors: [
        { messageId: "tooSmall", pointer: "/artifacts/0" },
        { messageId: "missingSections", pointer: "/artifacts/1" },
      ],
    },
  ],
});

describe("headingsOf", () => {
  it("reads ATX headings with closing hashes and setext headings, and skips fences", () => {
    expect(headingsOf("# One #\nText\nTwo\n---\n~~~\n# Not\n~~~\n  ### Three\n#NoSpace\n")).toEqual(["One", "Two", "Three"]);
  });
});
