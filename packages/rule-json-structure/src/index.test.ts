import { describe, it } from "vitest";
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
    { name: "empty input", input: "", errors: [{ messageId: "emptyInput" }] },
    { name: "whitespace only", input: " \n\t ", errors: [{ messageId: "emptyInput" }] },
    {
      name: "the research report's plain-text return (task 279)",
      input: "Research completed successfully. Found validation logic in validation-rules.md.",
      agent: "researcher",
      errors: [{ messageId: "noReturn", message: "Invalid JSON return from researcher" }],
    },
    {
      name: "a syntax error names line and column",
      input: '{\n  "status": "completed",\n  "summary": oops\n}',
      errors: [{ messageId: "syntaxError", data: { reason: "expected a JSON value, found 'o'", line: 3, column: 14 } }],
    },
    { name: "a trailing comma", input: '{"status": "completed",}', errors: [{ messageId: "syntaxError" }] },
    { name: "a doc example with ellipses", input: '{"artifacts": [...]}', errors: [{ messageId: "syntaxError" }] },
    { name: "an unterminated object", input: '{"status": "completed"', errors: [{ messageId: "syntaxError" }] },
    {
      name: "text after the object",
      input: '{"status": "completed"}\nDone!',
      errors: [{ messageId: "trailingText", data: { reason: "unexpected 'D' after the JSON value", line: 2, column: 1 } }],
    },
    { name: "two objects", input: '{"a":1}{"b":2}', errors: [{ messageId: "trailingText" }] },
    { name: "an array", input: "[1, 2]", errors: [{ messageId: "notAnObject", pointer: "", data: { type: "array" } }] },
    { name: "a string", input: '"completed"', errors: [{ messageId: "notAnObject", data: { type: "string" } }] },
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
