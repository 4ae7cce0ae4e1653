import { tmpdir } from "node:os";
import { describe, expect, it } from "vitest";
import { createFileView, runRules, type ParseOutcome } from "@returnlint/core";
import { RuleTester } from "@returnlint/rule-tester";
import rule from "./index.js";

new RuleTester({ describe, it }).run(rule, {
  valid: [
    { input: { status: "completed" } },
    { name: "an empty object is still an object", input: "{}" },
    { name: "a byte-order mark is tolerated", input: "\uFEFF{\"status\":\"partial\"}" },
    { name: "whitespace around the object", input: "\n  {\"a\": 1}\n\n" },
    { name: "the same key in different objects is not a duplicate", input: '{"path": "a", "artifacts": [{"path": "b"}, {"path": "c"}]}' },
    { name: "U+FFFD is valid text", input: '{"summary": "caf\uFFFD"}' },
    { name: "an escaped NUL inside a string is valid JSON", input: '{"summary": "a\\u0000b"}' },
  ],
  invalid: [
    { name: "empty input", input: "", errors: [{ messageId: "emptyInput", reask: "your reply is empty; end it with your JSON return (status, summary, artifacts, metadata)" }] },
    { name: "whitespace only", input: " \n\t ", errors: [{ messageId: "emptyInput" }] },
    {
      name: "the research report's plain-text return (task 279)",
      input: "Research completed successfully. Found validation logic in validation-rules.md.",
      agent: "researcher",
      errors: [{ messageId: "noReturn", message: "Invalid JSON return from researcher", reask: "your reply contains no JSON object; end it with your JSON return, not prose" }],
    },
    {
      name: "a syntax error names line and column",
      input: '{\n  "status": "completed",\n  "summary": oops\n}',
      errors: [{ messageId: "syntaxError", data: { reason: "expected a JSON value, found 'o'", line: 3, column: 14 } }],
    },
    {
      name: "a trailing comma: the subagent is told where parsing stopped",
      input: '{"status": "completed",,}',
      errors: [{ messageId: "syntaxError", reask: "the return is not valid JSON (expected a property name in double quotes, found ',' at line 1, column 24); fix the JSON there and send the whole object again" }],
    },
    { name: "a trailing comma", input: '{"status": "completed",}', errors: [{ messageId: "syntaxError" }] },
    { name: "a doc example with ellipses", input: '{"artifacts": [...]}', errors: [{ messageId: "syntaxError" }] },
    { name: "an unterminated object", input: '{"status": "completed"', errors: [{ messageId: "syntaxError" }] },
    {
      name: "text after the object",
      input: '{"status": "completed"}\nDone!',
      errors: [
        {
          messageId: "trailingText",
          data: { reason: "unexpected 'D' after the JSON value", line: 2, column: 1 },
          reask: "there is text after the JSON object (unexpected 'D' after the JSON value at line 2, column 1); end your reply with the object and nothing after it",
        },
      ],
    },
    { name: "two objects", input: '{"a":1}{"b":2}', errors: [{ messageId: "trailingText" }] },
    {
      name: "an array",
      input: "[1, 2]",
      errors: [{ messageId: "notAnObject", pointer: "", data: { type: "array" }, reask: "the return is [1,2], not an object; return one JSON object with status, summary, artifacts and metadata" }],
    },
    { name: "a string", input: '"completed"', errors: [{ messageId: "notAnObject", data: { type: "string", value: '"completed"' }, reask: 'the return is "completed", not an object; return one JSON object with status, summary, artifacts and metadata' }] },
    { name: "a number", input: "42", errors: [{ messageId: "notAnObject" }] },
    { name: "null", input: "null", errors: [{ messageId: "notAnObject" }] },
    {
      name: "a duplicate status: failed, then completed",
      input: '{"status": "failed", "summary": "x", "status": "completed"}',
      errors: [{ messageId: "duplicateKey", pointer: "/status", message: "Duplicate key in return: status", data: { key: "status", count: 2, where: "the top-level object" } }],
    },
    {
      name: "duplicate keys at any depth, each reported once with its count",
      input: '{"metadata": {"session_id": "a", "session_id": "b", "session_id": "c"}, "artifacts": [{"path": "x", "path": "y"}]}',
      errors: [
        { messageId: "duplicateKey", pointer: "/metadata/session_id", data: { field: "metadata.session_id", key: "session_id", count: 3, where: "the object at /metadata" } },
        { messageId: "duplicateKey", pointer: "/artifacts/0/path", data: { field: "artifacts.0.path", key: "path", count: 2 } },
      ],
    },
    {
      name: "a duplicate inside an array return is reported beside notAnObject",
      input: '[{"a": 1, "a": 2}]',
      errors: [{ messageId: "duplicateKey", pointer: "/0/a" }, { messageId: "notAnObject" }],
    },
    {
      name: "bytes that were not UTF-8 (decoded to lone surrogates)",
      input: '{"status": "completed", "summary": "caf\udce9"}',
      errors: [{ messageId: "invalidUtf8", data: { line: 1, column: 40 } }],
    },
    {
      name: "bytes that were not UTF-8 where the JSON also breaks",
      input: "\udcff\udcfe{",
      errors: [{ messageId: "invalidUtf8", data: { line: 1, column: 1 } }, { messageId: "syntaxError" }],
    },
    { name: "a NUL byte outside a string", input: '{"status": "completed"}\u0000', errors: [{ messageId: "trailingText", detail: "control character U+0000" }] },
    { name: "a raw NUL byte inside a string", input: '{"status": "compl\u0000eted"}', errors: [{ messageId: "syntaxError", detail: "unescaped control character" }] },
    { name: "100,000 levels of nesting", input: `${"[".repeat(100_000)}${"]".repeat(100_000)}`, errors: [{ messageId: "notAnObject" }] },
  ],
});

describe("a metadata file that is not there", () => {
  const run = (parse: ParseOutcome) =>
    runRules({ text: "", parse, command: "research", format: "metadata-file", expected: {}, rules: [{ rule, severity: "error", options: {}, source: "test" }], files: createFileView(tmpdir()) });

  it("tells the subagent to write it, by name, with status, artifacts and metadata, before it stops", async () => {
    const report = await run({ ok: false, kind: "missing", file: "specs/7_x/.return-meta.json", reason: "no return metadata file at specs/7_x/.return-meta.json", line: 1, column: 1 });
    expect(report.results).toEqual([
      expect.objectContaining({
        messageId: "missingFile",
        level: "fail",
        message: "Return metadata file does not exist: specs/7_x/.return-meta.json",
        recommendation: "Verify the subagent writes specs/7_x/.return-meta.json (status, artifacts, metadata) before it stops",
        reask: "you wrote no return metadata file; write specs/7_x/.return-meta.json (status, artifacts, metadata) before you stop",
      }),
    ]);
  });

  it("names the layout's file when the caller did not say which", async () => {
    const report = await run({ ok: false, kind: "missing", reason: "no return metadata file", line: 1, column: 1 });
    expect(report.results[0]?.reask).toBe("you wrote no return metadata file; write specs/{N}_{SLUG}/.return-meta.json (status, artifacts, metadata) before you stop");
  });
});
