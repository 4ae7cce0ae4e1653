import { describe, it } from "vitest";
import { RuleTester } from "@returnlint/rule-tester";
import rule from "./index.js";

new RuleTester({ describe, it }).run(rule, {
  valid: [
    { input: { status: "completed" } },
    { name: "an empty object is still an object", input: "{}" },
    { name: "a byte-order mark is tolerated", input: "\uFEFF{\"status\":\"partial\"}" },
    { name: "whitespace around the object", input: "\n  {\"a\": 1}\n\n" },
  ],
  invalid: [
    { name: "empty input", input: "", errors: [{ messageId: "emptyInput" }] },
    { name: "whitespace only", input: " \n\t ", errors: [{ messageId: "emptyInput" }] },
    {
      name: "the seed's plain-text return (task 279)",
      input: "Research completed successfully. Found validation logic in validation-rules.md.",
      agent: "researcher",
      errors: [{ messageId: "noReturn", message: "Invalid JSON return from researcher" }],
    },
    {
      name: "a syntax error names line and column",
      input: '{\n  "status": "completed",\n  "summary": oops\n}',
      errors: [{ messageId: "syntaxError", detail: "expected a JSON value, found 'o' at line 3, column 14" }],
    },
    { name: "a trailing comma", input: '{"status": "completed",}', errors: [{ messageId: "syntaxError" }] },
    { name: "a doc example with ellipses", input: '{"artifacts": [...]}', errors: [{ messageId: "syntaxError" }] },
    { name: "an unterminated object", input: '{"status": "completed"', errors: [{ messageId: "syntaxError" }] },
    {
      name: "text after the object",
      input: '{"status": "completed"}\nDone!',
      errors: [{ messageId: "trailingText", detail: "unexpected 'D' after the JSON value at line 2, column 1" }],
    },
    { name: "two objects", input: '{"a":1}{"b":2}', errors: [{ messageId: "trailingText" }] },
    { name: "an array", input: "[1, 2]", errors: [{ messageId: "notAnObject", pointer: "" }] },
    { name: "a string", input: '"completed"', errors: [{ messageId: "notAnObject" }] },
    { name: "a number", input: "42", errors: [{ messageId: "notAnObject" }] },
    { name: "null", input: "null", errors: [{ messageId: "notAnObject" }] },
  ],
});
