import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseReturn } from "./json.js";
import { findDuplicateKeys } from "./json/duplicate-keys.js";
import { preview } from "./json/render.js";
import { decodeUtf8 } from "./json/utf8.js";

const DEPTH = 100_000;

describe("decodeUtf8", () => {
  it("decodes valid UTF-8 and drops a leading byte-order mark", () => {
    expect(decodeUtf8(Buffer.from("résumé 报告 😀"))).toBe("résumé 报告 😀");
    expect(decodeUtf8(Buffer.from("\uFEFF{}"))).toBe("{}");
  });

  it("turns each byte that is not UTF-8 into a lone surrogate, keeping the text around it", () => {
    // é in Latin-1, a stray continuation byte, a truncated 3-byte sequence, an overlong "/", an encoded surrogate.
    const bytes = Buffer.concat([Buffer.from("caf"), Buffer.from([0xe9]), Buffer.from(" é "), Buffer.from([0x80, 0xe2, 0x82, 0x20, 0xc0, 0xaf, 0xed, 0xa0, 0x80])]);
    expect(decodeUtf8(bytes)).toBe("caf\udce9 é \udc80\udce2\udc82 \udcc0\udcaf\udced\udca0\udc80");
  });

  it("keeps a byte-order mark's absence and presence consistent when the rest is not UTF-8", () => {
    expect(decodeUtf8(Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0xff, 0x7d]))).toBe("{\udcff}");
  });

  it("round-trips every valid string and never loses a byte of an invalid one", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), (text) => {
        expect(decodeUtf8(Buffer.from(text))).toBe(text.startsWith("\uFEFF") ? text.slice(1) : text);
      }),
    );
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        const text = decodeUtf8(bytes);
        // Re-encoding each escaped byte as itself gives the input back.
        const back = Buffer.concat(
          Array.from(text, (char) => {
            const code = char.charCodeAt(0);
            return char.length === 1 && code >= 0xdc80 && code <= 0xdcff ? Buffer.from([code - 0xdc00]) : Buffer.from(char);
          }),
        );
        const withoutBom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
        expect(back.equals(Buffer.from(withoutBom))).toBe(true);
      }),
    );
  });
});

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

describe("findDuplicateKeys", () => {
  const cases: readonly [string, string, readonly { pointer: string; key: string; count: number }[]][] = [
    ["no duplicates", '{"a": 1, "b": {"a": 2}, "c": [{"a": 3}, {"a": 4}]}', []],
    ["at the top", '{"status":"failed","summary":"x","status":"completed"}', [{ pointer: "", key: "status", count: 2 }]],
    ["three times counts once, with the count", '{"a":1,"a":2,"a":3}', [{ pointer: "", key: "a", count: 3 }]],
    ["in a nested object", '{"metadata": {"session_id": "a", "session_id": "b"}}', [{ pointer: "/metadata", key: "session_id", count: 2 }]],
    ["in an array's object", '{"artifacts": [{"path": "a"}, {"path": "b", "path": "c"}]}', [{ pointer: "/artifacts/1", key: "path", count: 2 }]],
    ["keys spelled with escapes are the same key", '{"st\\u0061tus": 1, "status": 2}', [{ pointer: "", key: "status", count: 2 }]],
    ["quotes, braces and commas inside strings are not structure", '{"a": "}{,\\"a\\":", "b": ["{", "a"], "a\\\\": 1}', []],
    ["a key with / and ~ is escaped in the pointer", '{"a/b~c": {"x": 1, "x": 2}}', [{ pointer: "/a~1b~0c", key: "x", count: 2 }]],
    ["the empty key", '{"": 1, "": 2}', [{ pointer: "", key: "", count: 2 }]],
    ["__proto__ is a key like any other", '{"__proto__": 1, "__proto__": 2}', [{ pointer: "", key: "__proto__", count: 2 }]],
    ["values equal to keys are not keys", '{"a": "a", "b": "a"}', []],
    ["a top-level array", '[{"a":1,"a":1}, 2, {"a": 3}]', [{ pointer: "/0", key: "a", count: 2 }]],
    [
      "each object is counted on its own, even at the same pointer",
      '{"a": {"x": 1, "x": 2}, "a": {"x": 1, "x": 2, "x": 3}}',
      [{ pointer: "/a", key: "x", count: 2 }, { pointer: "", key: "a", count: 2 }, { pointer: "/a", key: "x", count: 3 }],
    ],
  ];
  it.each(cases)("%s", (_name, text, expected) => {
    expect(JSON.parse(text)).toBeDefined();
    expect(findDuplicateKeys(text)).toEqual(expected);
  });

  it("stops listing after 50", () => {
    const text = `{${Array.from({ length: 120 }, (_, index) => `"k${String(index)}":{"x":1,"x":2}`).join(",")}}`;
    expect(findDuplicateKeys(text)).toHaveLength(50);
  });

  it("agrees with a count made on the tree the text was written from", () => {
    // Objects are lists of entries, so that keys may repeat; JSON.stringify could not write them.
    const tree = fc.letrec<{ node: Node }>((tie) => ({
      node: fc.oneof(
        { depthSize: "small" },
        fc.jsonValue({ maxDepth: 0 }).map((leaf): Node => ({ kind: "leaf", text: JSON.stringify(leaf) })),
        fc.array(tie("node"), { maxLength: 4 }).map((items): Node => ({ kind: "array", items })),
        fc.array(fc.tuple(fc.constantFrom("a", "a", "b", 'q"', "\\", "~/", "{"), tie("node")), { maxLength: 5 }).map((entries): Node => ({ kind: "object", entries })),
      ),
    })).node;
    fc.assert(
      fc.property(tree, (node) => {
        const text = write(node);
        expect(() => JSON.parse(text) as unknown).not.toThrow();
        const expected: string[] = [];
        collectDuplicates(node, [], expected);
        const actual = findDuplicateKeys(text).map(({ pointer, key, count }) => `${pointer} ${key} ${String(count)}`);
        expect(actual.sort()).toEqual(expected.sort());
      }),
      { numRuns: 300 },
    );
  });
});

describe("preview", () => {
  it("writes what JSON.stringify writes, cut at the limit", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.integer({ min: 2, max: 200 }), (value, max) => {
        const full = JSON.stringify(value);
        expect(preview(value, 1_000_000)).toBe(full);
        expect(preview(value, max)).toBe(full.length > max ? `${full.slice(0, max - 1)}…` : full);
      }),
    );
    expect(preview({ a: undefined, b: [undefined, () => 1], c: new Date(0), d: Number.NaN })).toBe('{"b":[null,null],"c":"1970-01-01T00:00:00.000Z","d":null}');
    expect(preview(undefined)).toBe("undefined");
  });

  it("does not overflow the stack on 100,000 levels, and stops early on huge values", () => {
    const deep = JSON.parse(`${"[".repeat(DEPTH)}${"]".repeat(DEPTH)}`) as unknown;
    expect(preview(deep, 10)).toBe("[[[[[[[[[…");
    const wide = Array.from({ length: 1_000_000 }, (_, index) => index);
    expect(preview(wide, 12)).toBe("[0,1,2,3,4,…");
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(preview(cyclic, 20)).toBe('{"self":{"self":{"s…');
  });
});

type Node =
  | { readonly kind: "leaf"; readonly text: string }
  | { readonly kind: "array"; readonly items: readonly Node[] }
  | { readonly kind: "object"; readonly entries: readonly (readonly [string, Node])[] };

function write(node: Node): string {
  if (node.kind === "leaf") return node.text;
  if (node.kind === "array") return `[${node.items.map(write).join(",")}]`;
  return `{${node.entries.map(([key, value]) => `${JSON.stringify(key)}:${write(value)}`).join(",")}}`;
}

/** The reference: count each object's keys on the tree, recursively (the trees here are shallow). */
function collectDuplicates(node: Node, tokens: readonly (string | number)[], out: string[]): void {
  if (node.kind === "array") node.items.forEach((item, index) => { collectDuplicates(item, [...tokens, index], out); });
  if (node.kind !== "object") return;
  const counts = new Map<string, number>();
  for (const [key] of node.entries) counts.set(key, (counts.get(key) ?? 0) + 1);
  const pointer = tokens.map((token) => `/${String(token).replace(/~/g, "~0").replace(/\//g, "~1")}`).join("");
  for (const [key, count] of counts) if (count > 1) out.push(`${pointer} ${key} ${String(count)}`);
  // A repeated key's later values sit at the same pointer, as JSON.parse would keep them.
  for (const [key, value] of node.entries) collectDuplicates(value, [...tokens, key], out);
}
