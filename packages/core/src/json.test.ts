import { afterEach, describe, expect, it, vi } from "vitest";
import { meantAsJson, parseReturn } from "./json.js";

const DEPTH = 100_000;

describe("parseReturn's notes", () => {
  it("says where the first byte that was not UTF-8 is, parsed or not", () => {
    expect(parseReturn('{"summary": "caf\udce9"}')).toEqual({ ok: true, value: { summary: "caf\udce9" }, invalidUtf8: { line: 1, column: 17 } });
    expect(parseReturn("\n\udcff{")).toMatchObject({ ok: false, kind: "syntax", invalidUtf8: { line: 2, column: 1 } });
    expect(parseReturn('{"emoji": "😀", "replacement": "\uFFFD"}')).not.toHaveProperty("invalidUtf8");
  });

  it("lists duplicate keys only when there are some", () => {
    expect(parseReturn('{"status": "completed"}')).toEqual({ ok: true, value: { status: "completed" } });
    expect(parseReturn('{"status": "failed", "status": "completed"}')).toEqual({
      ok: true,
      value: { status: "completed" },
      duplicateKeys: [{ pointer: "", key: "status", count: 2 }],
    });
  });

  it("handles 100,000 levels of nesting without recursion", () => {
    const arrays = parseReturn(`${"[".repeat(DEPTH)}${"]".repeat(DEPTH)}`);
    expect(arrays.ok).toBe(true);
    const objects = parseReturn(`${'{"a":'.repeat(DEPTH)}{"k":1,"k":2}${"}".repeat(DEPTH)}`);
    expect(objects.ok && objects.duplicateKeys?.[0]?.pointer.length).toBe(DEPTH * 2);
    const broken = parseReturn(`${"[".repeat(DEPTH)}}`);
    expect(broken).toMatchObject({ ok: false, kind: "syntax", line: 1, column: DEPTH + 1 });
  });
});

describe("prose is not a syntax error", () => {
  it.each([
    ["a bullet list", "- Researched the lemmas\n- Wrote specs/412_x/reports/research-001.md"],
    ["a numbered list", "1. Research done\n2. Next: /plan 412"],
    ["a sentence that starts like a literal", "the plan is written to specs/{N}_{SLUG}/plans/"],
    ["a sentence that starts like a number", "3 files written"],
  ])("%s holds no return", (_name, text) => {
    expect(parseReturn(text)).toMatchObject({ ok: false, kind: "noReturn", reason: "no JSON object was found in the message" });
  });

  it.each([
    ["an object cut short", '{"status": "completed",', "syntax"],
    ["an array cut short", "[1, 2", "syntax"],
    ["an object with text after it", '{"status": "completed"} and that is all', "trailing"],
  ])("%s is broken JSON, said where", (_name, text, kind) => {
    expect(parseReturn(text)).toMatchObject({ ok: false, kind });
  });

  it("a scalar alone is JSON (a return that is not an object, for json-structure to say so); broken, a syntax error", () => {
    expect(parseReturn("42")).toEqual({ ok: true, value: 42 });
    const broken = parseReturn("-1.2.3");
    expect(broken.ok).toBe(false);
    expect(broken).not.toMatchObject({ kind: "noReturn" });
  });
});

describe("prose is told from its first characters, never by a failed JSON.parse", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  // Texts at the edges of what JSON.parse accepts: JSON's own whitespace, scalars, a BOM, near misses.
  const EDGES = [
    "true", " false\n", "null\r\n", "\t-0.5e+3 ", "0", "\"quoted\"", "{}", "[]", " [1, 2]\n",
    "true love", "nullable", "- item", "-", "1. done", "1e", "\uFEFF{}", "\u00A0{}", "'single'", "",
    "{", "Research complete.\n\n```json\n{}\n```", "4 files", "0x10", "Infinity", "NaN",
  ];

  it.each(EDGES)("%j: whatever JSON.parse accepts is meant as JSON, and parses the same", (text) => {
    let parses: boolean;
    try {
      JSON.parse(text);
      parses = true;
    } catch {
      parses = false;
    }
    if (parses) expect(meantAsJson(text)).toBe(true);
    expect(parseReturn(text).ok).toBe(parses);
  });

  it("a prose message is found to hold no return without a call of JSON.parse, and said at the same place", () => {
    const parse = vi.spyOn(JSON, "parse");
    expect(parseReturn("Research complete.\n- wrote the report")).toEqual({ ok: false, kind: "noReturn", reason: "no JSON object was found in the message", line: 1, column: 1 });
    expect(parseReturn("  \n  3 files written")).toMatchObject({ kind: "noReturn", line: 2, column: 5 });
    expect(parse).not.toHaveBeenCalled();
    expect(parseReturn('{"status": "completed"}').ok).toBe(true);
    expect(parse).toHaveBeenCalledTimes(1);
  });
});
