import { describe, expect, it } from "vitest";
import { findDuplicateKeys } from "./duplicate-keys.js";
import { offsetOfPointer } from "./locate.js";
import { locateJsonError } from "./syntax-error.js";
import { JsonTokenizer, type JsonToken } from "./tokenizer.js";

const DEPTH = 100_000;

/** Every token with the text it covers, up to and including `end` or `error`. */
function tokens(text: string): string[] {
  const tokenizer = new JsonTokenizer(text);
  const seen: string[] = [];
  for (;;) {
    const token: JsonToken = tokenizer.next();
    seen.push(token === "error" ? `error@${String(tokenizer.start)} ${tokenizer.reason}` : `${token} ${text.slice(tokenizer.start, tokenizer.end)}`);
    if (token === "end" || token === "error") return seen;
  }
}

describe("JsonTokenizer", () => {
  it("gives containers, keys and scalars in text order, then end", () => {
    expect(tokens(' {"a": [1, -2.5e3, "x\\"y"], "b": {}, "c": [true, false, null]}\n')).toEqual([
      "{ {",
      'key "a"',
      "[ [",
      "scalar 1",
      "scalar -2.5e3",
      'scalar "x\\"y"',
      "] ]",
      'key "b"',
      "{ {",
      "} }",
      'key "c"',
      "[ [",
      "scalar true",
      "scalar false",
      "scalar null",
      "] ]",
      "} }",
      "end ",
    ]);
  });

  it("reads a scalar alone as the whole value", () => {
    expect(tokens('"only"')).toEqual(['scalar "only"', "end "]);
    expect(tokens("0")).toEqual(["scalar 0", "end "]);
  });

  it("keeps answering end, or the same error, once the walk is over", () => {
    const done = new JsonTokenizer("[]");
    expect([done.next(), done.next(), done.next(), done.next()]).toEqual(["[", "]", "end", "end"]);
    const broken = new JsonTokenizer("[1,]");
    expect([broken.next(), broken.next(), broken.next(), broken.next()]).toEqual(["[", "scalar", "error", "error"]);
    expect(broken.start).toBe(3);
  });

  it("counts the open containers", () => {
    const tokenizer = new JsonTokenizer('[{"a": [1]}]');
    const depths: number[] = [];
    for (let token = tokenizer.next(); token !== "end"; token = tokenizer.next()) depths.push(tokenizer.depth);
    expect(depths).toEqual([1, 2, 2, 3, 3, 2, 1, 0]);
  });

  it("walks 100,000 levels of nesting without recursion", () => {
    const tokenizer = new JsonTokenizer(`${"[".repeat(DEPTH)}${"]".repeat(DEPTH)}`);
    let count = 0;
    let deepest = 0;
    let token = tokenizer.next();
    for (; token !== "end" && token !== "error"; token = tokenizer.next()) {
      count += 1;
      deepest = Math.max(deepest, tokenizer.depth);
    }
    expect({ token, count, deepest }).toEqual({ token: "end", count: DEPTH * 2, deepest: DEPTH });
  });
});

describe("locateJsonError", () => {
  const cases: readonly [string, string, number, string, boolean][] = [
    ["the end comes too soon", '{"a": [1, 2', 11, "unexpected end of input", false],
    ["nothing at all", "   ", 3, "unexpected end of input", false],
    ["a trailing comma in an array", "[1, 2,]", 6, "expected a JSON value, found ']'", false],
    ["a trailing comma in an object", '{"a": 1,}', 8, "expected a property name in double quotes, found '}'", false],
    ["a missing colon", '{"a" 1}', 5, "expected ':' after a property name, found '1'", false],
    ["a missing comma", '{"a": 1 "b": 2}', 8, "expected ',' or '}', found '\"'", false],
    ["the wrong closer", "[1}", 2, "expected ',' or ']', found '}'", false],
    ["single quotes", "{'a': 1}", 1, "expected a property name in double quotes, found a single quote (JSON strings use double quotes)", false],
    ["a comment", '{"a": 1 // note\n}', 8, "expected ',' or '}', found a comment (JSON has no comments)", false],
    ["a control character outside strings", "[\u0001]", 1, "expected a JSON value, found control character U+0001", false],
    ["a control character in a string", '["a\nb"]', 1, "unescaped control character in a string", false],
    ["a bad escape", '["\\x"]', 1, "invalid escape in a string", false],
    ["a bad \\u escape", '["\\u12g4"]', 1, "invalid \\u escape in a string", false],
    ["an unterminated string", '{"a": "b', 6, "unterminated string", false],
    ["a lone minus", "[-]", 1, "invalid number", false],
    ["a word that is not a literal", "[nul]", 1, "expected a JSON value, found 'n'", false],
    ["text after the value", '{"a": 1} done', 9, "unexpected 'd' after the JSON value", true],
    ["a second value", "[] []", 3, "unexpected '[' after the JSON value", true],
    ["a leading zero ends the number", "01", 1, "unexpected '1' after the JSON value", true],
    ["an emoji is named whole", "[😀]", 1, "expected a JSON value, found '😀'", false],
  ];
  it.each(cases)("%s", (_name, text, offset, reason, trailing) => {
    expect(locateJsonError(text)).toEqual({ offset, reason, trailing });
  });

  it("finds no error in JSON, and says so at its end", () => {
    expect(locateJsonError(' {"a": [1, {"b": null}]} \n')).toEqual({ offset: 26, reason: "no error found", trailing: false });
  });

  it("finds the error under 100,000 levels of nesting", () => {
    expect(locateJsonError(`${"[".repeat(DEPTH)}}`)).toEqual({ offset: DEPTH, reason: "expected a JSON value, found '}'", trailing: false });
  });
});

describe("offsetOfPointer", () => {
  const text = '{\n  "a": [10, {"b~/c": 2}],\n  "d": "x",\n  "d": "y"\n}';
  const cases: readonly [string, string, string][] = [
    ["the root", "", "{"],
    ["a member", "/a", "[10"],
    ["an element", "/a/0", "10"],
    ["an escaped key", "/a/1/b~0~1c", "2}"],
    ["a key written twice: the first", "/d", '"x"'],
    ["a missing member: its container", "/a/1/nope", '{"b~/c"'],
    ["an index past the end: the array", "/a/2", "[10"],
    ["an index that is not one: the array", "/a/01", "[10"],
    ["below a scalar: the scalar", "/a/0/x", "10"],
    ["a missing top-level field: the root", "/missing/deeper", "{"],
  ];
  it.each(cases)("%s", (_name, pointer, startsWith) => {
    expect(text.slice(offsetOfPointer(text, pointer))).toMatch(new RegExp(`^${startsWith.replace(/[[{}]/g, "\\$&")}`));
  });

  it("skips over siblings however deep they are", () => {
    const deep = `{"skip": ${"[".repeat(DEPTH)}${"]".repeat(DEPTH)}, "here": 1}`;
    expect(offsetOfPointer(deep, "/here")).toBe(deep.length - 2);
  });

  it("finds a value 100,000 levels down", () => {
    const deep = `${'{"a":'.repeat(DEPTH)}7${"}".repeat(DEPTH)}`;
    expect(offsetOfPointer(deep, "/a".repeat(DEPTH))).toBe(DEPTH * 5);
  });
});

describe("findDuplicateKeys on the tokenizer", () => {
  it("finds a key written twice 100,000 levels down", () => {
    const deep = `${"[".repeat(DEPTH)}{"k":1,"k":2}${"]".repeat(DEPTH)}`;
    expect(findDuplicateKeys(deep)).toEqual([{ pointer: "/0".repeat(DEPTH), key: "k", count: 2 }]);
  });
});
