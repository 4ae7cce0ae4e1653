import { readFileSync } from "node:fs";
import { createFileView, parseReturn, runRules } from "@returnlint/core";
import { describe, expect, it } from "vitest";
import { RuleTester } from "@returnlint/rule-tester";
import rule from "./index.js";

const fixture = (name: string) => readFileSync(new URL(`../fixtures/${name}`, import.meta.url), "utf8");
const artifact = (path: string) => ({ type: "report", path, summary: "Research report" });
const completed = (...paths: string[]) => ({ status: "completed", summary: "Done.", artifacts: paths.map(artifact) });
const report = "specs/280_fix/reports/research-001.md";

new RuleTester({ describe, it }).run(rule, {
  valid: [
    { name: "a written report (front matter, code quoting a TODO, inline {{code}})", input: completed(report), files: { [report]: fixture("research-report.md") } },
    { name: "a contextual success status", input: { status: "researched", artifacts: [artifact("r.md")] }, command: "research", files: { "r.md": fixture("research-report.md") } },
    { name: "partial work may be a template", input: { status: "partial", artifacts: [artifact("t.md")] }, files: { "t.md": fixture("template-report.md") } },
    { name: "blocked work may be a template", input: { status: "blocked", artifacts: [artifact("t.md")] }, files: { "t.md": fixture("outline-only.md") } },
    { name: "a missing file is the artifacts rule's to report", input: completed("gone.md") },
    { name: "an empty file is the artifacts rule's to report", input: completed("empty.md"), files: { "empty.md": "" } },
    { name: "source files are not read by default", input: completed("src/a.ts"), files: { "src/a.ts": "// TODO: later\nexport {};\n" } },
    { name: "a lower-case todo in prose is not a marker", input: completed("n.md"), files: { "n.md": "# Notes\n\nThe todo list is done.\n" } },
    { name: "a heading whose subsections have content", input: completed("p.md"), files: { "p.md": "# Plan\n\n## Phase 1\n\nParse.\n" } },
    { name: "a plain text file without headings", input: completed("n.txt"), files: { "n.txt": "All three checks pass.\n" } },
    { name: "an artifact that is not an object is the artifacts rule's", input: { status: "completed", artifacts: [42, { type: "report" }] } },
    { name: "a bare path string is still read", input: { status: "completed", artifacts: ["n.md"] }, files: { "n.md": "Written.\n" } },
    {
      name: "past maxBytes, a section cut off is not called empty",
      input: completed("big.md"),
      options: { maxBytes: 20 },
      files: { "big.md": `# Big\n\n## Section\n\n${"Written content. ".repeat(20)}\n` },
    },
    {
      name: "a symlink out of the root is never read",
      input: completed("out.md"),
      files: { "out.md": { symlink: "/etc/hostname" } },
    },
  ],
  invalid: [
    {
      name: "a template report: to-do marker, template variable, bracketed placeholder",
      input: completed(report),
      files: { [report]: fixture("template-report.md") },
      errors: [
        {
          messageId: "placeholder",
          pointer: "/artifacts/0/path",
          message: `Artifact is an unfilled template: ${report} line 5 has a to-do marker "TODO"`,
          detail: 'placeholder text at line 5 "TODO", line 9 "{{findings}}", line 13 "[Insert recommendations here]"',
        },
      ],
    },
    {
      name: "an outline with headings only (a comment is not content)",
      input: completed("plan.md"),
      files: { "plan.md": fixture("outline-only.md") },
      errors: [{ messageId: "onlyHeadings", pointer: "/artifacts/0/path", message: "Artifact is only headings: plan.md (4 headings, no text under any of them)" }],
    },
    {
      name: "headings with nothing under them, in an otherwise written plan",
      input: completed("plan.md"),
      files: { "plan.md": fixture("empty-section.md") },
      errors: [
        {
          messageId: "emptySection",
          message: 'Artifact has a heading with nothing under it: plan.md line 7 "## Phase 2: rules"',
          detail: '1 of 4 sections are empty: line 7 "## Phase 2: rules"',
        },
      ],
    },
    {
      name: "a trailing heading with nothing under it",
      input: completed("r.md"),
      files: { "r.md": "# Report\n\nWritten.\n\n## Next steps\n" },
      errors: [{ messageId: "emptySection", message: 'line 5 "## Next steps"' }],
    },
    { name: "filler text", input: completed("s.md"), files: { "s.md": fixture("lorem.md") }, errors: [{ messageId: "placeholder", message: 'line 3 has filler text "Lorem ipsum"' }] },
    { name: "whitespace only", input: completed("b.md"), files: { "b.md": fixture("blank.md") }, errors: [{ messageId: "noContent", message: "Artifact has no content: b.md" }] },
    {
      name: "instructions in a comment over several lines are not content",
      input: completed("plan.md"),
      files: { "plan.md": "# Plan\n\n<!--\nDescribe the phases here.\n-->\n\n## Phase 1 <!-- name it -->\n" },
      errors: [{ messageId: "onlyHeadings", message: "plan.md (2 headings" }],
    },
    {
      name: "empty list items and a rule are not content",
      input: completed("c.md"),
      files: { "c.md": "# Checklist\n\n- [ ]\n- \n1.\n\n---\n" },
      errors: [{ messageId: "onlyHeadings" }],
    },
    {
      name: "every artifact is read, each finding points at its own path",
      input: completed("ok.md", "todo.md", "tbd.md"),
      files: { "ok.md": "Written.\n", "todo.md": "Written, FIXME later.\n", "tbd.md": "# Risks\n\nTBD\n" },
      errors: [
        { messageId: "placeholder", pointer: "/artifacts/1/path", message: 'todo.md line 1 has a to-do marker "FIXME"' },
        { messageId: "placeholder", pointer: "/artifacts/2/path", message: 'tbd.md line 3 has a to-do marker "TBD"' },
      ],
    },
    {
      name: "a bare path string points at the entry",
      input: { status: "implemented", artifacts: ["n.md"] },
      command: "implement",
      files: { "n.md": "# Done\n\nTODO\n" },
      errors: [{ messageId: "placeholder", pointer: "/artifacts/0" }],
    },
    {
      name: "placeholder and empty section in one artifact",
      input: completed("r.md"),
      files: { "r.md": "# Report\n\n## Summary\n\nTBD\n\n## Findings\n\n## Sources\n\nThe seeds.\n" },
      errors: [
        { messageId: "placeholder", message: "line 5" },
        { messageId: "emptySection", message: 'line 7 "## Findings"', detail: "1 of 4 sections are empty" },
      ],
    },
    {
      name: "extra patterns from the options",
      input: completed("r.md"),
      options: { patterns: ["<[A-Z_]+>"] },
      files: { "r.md": "# Report\n\nOwner: <OWNER_NAME>\n" },
      errors: [{ messageId: "placeholder", message: 'line 3 has a match of patterns[0] /<[A-Z_]+>/ "<OWNER_NAME>"' }],
    },
    {
      name: "extensions: [] reads every artifact",
      input: completed("src/a.ts"),
      options: { extensions: [] },
      files: { "src/a.ts": "// TODO: later\nexport {};\n" },
      errors: [{ messageId: "placeholder", message: "src/a.ts line 1" }],
    },
    {
      name: "past maxBytes, placeholders in what was read still count",
      input: completed("big.md"),
      options: { maxBytes: 32 },
      files: { "big.md": `# Big\n\nTODO: fill in\n\n${"Written content. ".repeat(20)}\n` },
      errors: [{ messageId: "placeholder", message: "big.md line 3" }],
    },
  ],
});

describe("options the schema cannot judge", () => {
  it("an invalid regular expression in patterns stops the run with the option's path", async () => {
    const text = JSON.stringify(completed("r.md"));
    const report = await runRules({
      text,
      parse: parseReturn(text),
      command: null,
      format: "v7",
      expected: {},
      rules: [{ rule, severity: "error", options: { ...rule.meta.defaultOptions, patterns: ["(unclosed"] }, source: "returnlint-rule-no-placeholder-artifacts" }],
      files: createFileView(process.cwd()),
    });
    expect(report.internalError).toBe(true);
    expect(report.results[0]?.detail).toContain("options.patterns[0] is not a valid regular expression");
  });
});
