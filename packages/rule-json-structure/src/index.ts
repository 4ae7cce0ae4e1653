import { defineRule, docsUrl, jsonType, MAX_QUOTED_CHARS, METADATA_FILE, pointerOf, preview, SPECS_DIR, tokensOf } from "@returnlint/core";

const recommendation = "Fix {subagent} return format";

/** Step 1 of every validation document: the return must be one JSON object, and nothing else. */
export default defineRule(docsUrl)({
  id: "json-structure",
  meta: {
    description: "The return parses as one JSON object (not prose, not empty, nothing after it).",
    input: "text",
    schema: { type: "object", additionalProperties: false },
    defaultOptions: {},
    messages: {
      validJson: { text: "Return is valid JSON" },
      emptyInput: {
        text: "Invalid JSON return from {agent}",
        detail: "Error: Cannot parse return as JSON: the return is empty",
        recommendation,
        reask: "your reply is empty; end it with your JSON return (status, summary, artifacts, metadata)",
      },
      missingFile: {
        text: "Return metadata file does not exist: {file}",
        detail: "Error: Subagent finished without writing its return metadata file (or a postflight already consumed it)",
        recommendation: "Verify {agent} writes {file} (status, artifacts, metadata) before it stops",
        reask: "you wrote no return metadata file; write {file} (status, artifacts, metadata) before you stop",
      },
      unreadableFile: {
        text: "Return metadata file cannot be read: {file}",
        detail: "Error: {reason}",
        recommendation: "Verify {agent} writes {file} as a regular file in a real task folder",
        reask: "{reason} Write {file} as a regular file in a real task folder before you stop",
      },
      noReturn: {
        text: "Invalid JSON return from {agent}",
        detail: "Error: The subagent's final message contains no return: no JSON object was found in it",
        recommendation: "Fix {subagent} to end with its JSON return, not prose",
        reask: "your reply contains no JSON object; end it with your JSON return, not prose",
      },
      syntaxError: {
        text: "Invalid JSON return from {agent}",
        detail: "Error: Cannot parse return as JSON: {reason} at line {line}, column {column}",
        recommendation,
        reask: "the return is not valid JSON ({reason} at line {line}, column {column}); fix the JSON there and send the whole object again",
      },
      trailingText: {
        text: "Invalid JSON return from {agent}",
        detail: "Error: Cannot parse return as JSON: {reason} at line {line}, column {column}",
        recommendation: "Fix {subagent} to return a single JSON object and nothing after it",
        reask: "there is text after the JSON object ({reason} at line {line}, column {column}); end your reply with the object and nothing after it",
      },
      notAnObject: {
        text: "Invalid JSON return from {agent}",
        detail: "Error: The return must be a JSON object; received {type}",
        recommendation: "Fix {subagent} to return an object with status, summary, artifacts and metadata",
        reask: "the return is {value}, not an object; return one JSON object with status, summary, artifacts and metadata",
      },
      duplicateKey: {
        text: "Duplicate key in return: {field}",
        detail: 'Error: "{key}" appears {count} times in {where}; JSON.parse and jq keep only the last value, so the return is ambiguous',
        recommendation: "Fix {subagent} to write each key once per object",
        reask: "\"{key}\" appears {count} times in {where}; write each key once per object",
      },
      invalidUtf8: {
        text: "Return is not valid UTF-8",
        detail: "Error: The bytes at line {line}, column {column} are not UTF-8 text",
        recommendation: "Fix {subagent} to write its return as UTF-8 text",
        reask: "the bytes at line {line}, column {column} are not UTF-8; write your return as UTF-8 text",
      },
    },
  },
  check(context) {
    const { parse } = context;
    if (parse.invalidUtf8 !== undefined) context.report({ messageId: "invalidUtf8", data: { ...parse.invalidUtf8 } });
    if (!parse.ok) {
      const messageId = ({ empty: "emptyInput", noReturn: "noReturn", syntax: "syntaxError", trailing: "trailingText", missing: "missingFile", unreadable: "unreadableFile" } as const)[parse.kind];
      // A caller that reports a missing file without naming it still gets the layout's name for it.
      const file = parse.file ?? (parse.kind === "missing" ? `${SPECS_DIR}/{N}_{SLUG}/${METADATA_FILE}` : "");
      context.report({ messageId, data: { reason: parse.reason, line: parse.line, column: parse.column, file } });
      return;
    }
    // No empty list per return: most returns write no key twice.
    if (parse.duplicateKeys !== undefined) {
      for (const { pointer, key, count } of parse.duplicateKeys) {
        const field = [...tokensOf(pointer), key].join(".");
        const where = pointer === "" ? "the top-level object" : `the object at ${pointer}`;
        context.report({ messageId: "duplicateKey", data: { field, key, count, where }, pointer: pointerOf(...tokensOf(pointer), key) });
      }
    }
    const type = jsonType(parse.value);
    if (type !== "object") {
      // The return as the subagent wrote it: a string whole (as far as any message quotes), anything else in short.
      const value = preview(parse.value, type === "string" ? MAX_QUOTED_CHARS : 60);
      context.report({ messageId: "notAnObject", data: { type, value }, pointer: "" });
      return;
    }
    if (parse.invalidUtf8 === undefined && parse.duplicateKeys === undefined) context.pass({ messageId: "validJson" });
  },
});
