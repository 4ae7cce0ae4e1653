import { NON_SUCCESS_STATUSES, defineRule, docsUrl, isObject, pointerOf, receivedValue as received } from "@returnlint/core";

/** The fields every entry of `errors[]` carries (return-metadata-file.md, orchestration-validation.md). */
const FIELDS = [
  { name: "type", expected: "a non-empty string (validation, execution, timeout, …)", holds: (value: unknown) => typeof value === "string" && value.trim() !== "" },
  { name: "message", expected: "a non-empty string", holds: (value: unknown) => typeof value === "string" && value.trim() !== "" },
  { name: "recoverable", expected: "a boolean (true when a retry may succeed)", holds: (value: unknown) => typeof value === "boolean" },
  { name: "recommendation", expected: "a non-empty string", holds: (value: unknown) => typeof value === "string" && value.trim() !== "" },
] as const;

const SHAPE = '{ "type": "execution", "message": "…", "recoverable": true, "recommendation": "…" }';

/** An unfinished return says what went wrong, whether a retry may help, and what to do next. */
export default defineRule(docsUrl)({
  id: "error-details",
  meta: {
    description: "A partial, failed or blocked return explains itself in errors[]: type, message, recoverable and recommendation for each entry.",
    schema: { type: "object", additionalProperties: false },
    defaultOptions: {},
    messages: {
      documented: { text: "Errors documented: {count} for status {status}" },
      missingErrors: {
        text: "Missing errors for status {status}",
        detail: "Error: a {status} return must say what went wrong in errors[], each entry shaped {shape}",
        recommendation: "Fix {subagent} to list in errors[] what stopped it, whether a retry may succeed, and how to proceed",
        reask: "a {status} return must say what went wrong; add errors[] with entries shaped {shape}",
      },
      notAnArray: {
        text: "errors is not an array: received {received}",
        detail: "Error: errors must be an array of entries shaped {shape}",
        recommendation: "Fix {subagent} to return errors as an array of objects",
        reask: "errors is {received}, not an array; make it an array of entries shaped {shape}",
      },
      emptyErrors: {
        text: "No errors listed for status {status}",
        detail: "Error: a {status} return must list at least one error explaining why the work is unfinished",
        recommendation: "Fix {subagent} to list in errors[] what stopped it, whether a retry may succeed, and how to proceed",
        reask: "errors[] is empty for status {status}; list what stopped you, whether a retry may succeed, and how to proceed",
      },
      entryNotAnObject: {
        text: "errors[{index}] is not an object: received {received}",
        detail: "Error: each error must be an object shaped {shape}",
        recommendation: "Fix {subagent} to return each error as an object with type, message, recoverable and recommendation",
        reask: "errors[{index}] is {received}, not an object; make it {shape}",
      },
      missingField: {
        text: "errors[{index}] is missing {field}",
        detail: "Error: {field} must be {expected}",
        recommendation: "Fix {subagent} to give every error a {field}",
        reask: "errors[{index}] has no {field}; add it as {expected}",
      },
      invalidField: {
        text: "errors[{index}].{field} is invalid: received {received}",
        detail: "Error: {field} must be {expected}",
        recommendation: "Fix {subagent} to write errors[{index}].{field} as {expected}",
        reask: "errors[{index}].{field} is {received}; make it {expected}",
      },
    },
  },
  check(context) {
    const { status, errors } = context.value;
    if (typeof status !== "string" || !(NON_SUCCESS_STATUSES as readonly string[]).includes(status)) return;
    if (errors === undefined || errors === null) {
      context.report({ messageId: "missingErrors", data: { status, shape: SHAPE }, pointer: "/errors" });
      return;
    }
    if (!Array.isArray(errors)) {
      context.report({ messageId: "notAnArray", data: { received: received(errors), shape: SHAPE }, pointer: "/errors" });
      return;
    }
    if (errors.length === 0) {
      context.report({ messageId: "emptyErrors", data: { status }, pointer: "/errors" });
      return;
    }
    let problems = 0;
    errors.forEach((entry: unknown, index) => {
      if (!isObject(entry)) {
        problems += 1;
        context.report({ messageId: "entryNotAnObject", data: { index, received: received(entry), shape: SHAPE }, pointer: pointerOf("errors", index) });
        return;
      }
      for (const { name, expected, holds } of FIELDS) {
        const value = entry[name];
        if (holds(value)) continue;
        problems += 1;
        const missing = value === undefined;
        context.report({
          messageId: missing ? "missingField" : "invalidField",
          data: { index, field: name, expected, ...(missing ? {} : { received: received(value) }) },
          pointer: pointerOf("errors", index, name),
        });
      }
    });
    if (problems === 0) context.pass({ messageId: "documented", data: { count: errors.length, status } });
  },
});
