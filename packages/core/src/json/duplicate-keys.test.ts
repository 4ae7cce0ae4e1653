import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { findDuplicateKeys, mayHaveDuplicateKeys } from "./duplicate-keys.js";

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
    const tree = treeOf(["a", "a", "b", 'q"', "\\", "~/", "{"]);
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

describe("mayHaveDuplicateKeys", () => {
  it.each([
    ["no key twice; a colon inside a string after no quote is no key end", '{"a": 1, "b": {"a": "x: y"}}', false],
    ["a key twice", '{"a": 1, "a": 2}', true],
    ["JSON whitespace between a key and its colon", '{"a" \r\n\t : 1, "a"\n:2}', true],
    ["a colon after a quote inside a string counts, never less", '{"a": "x\\":"}', true],
  ] as const)("%s", (_name, text, expected) => {
    expect(mayHaveDuplicateKeys(text, JSON.parse(text))).toBe(expected);
  });

  it("is true whenever a key is written twice, whatever whitespace sits around the colons", () => {
    const tree = treeOf(["a", "a", "b", 'q":', "\\", ":"]);
    fc.assert(
      fc.property(tree, fc.constantFrom("", " ", "\n", "\t \r\n"), (node, space) => {
        const text = write(node, space);
        const value: unknown = JSON.parse(text);
        if (findDuplicateKeys(text).length > 0) expect(mayHaveDuplicateKeys(text, value)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

type Node =
  | { readonly kind: "leaf"; readonly text: string }
  | { readonly kind: "array"; readonly items: readonly Node[] }
  | { readonly kind: "object"; readonly entries: readonly (readonly [string, Node])[] };

/** Small JSON trees whose objects use these keys. Objects are lists of entries, so that keys may repeat; JSON.stringify could not write them. */
function treeOf(keys: readonly string[]): fc.Arbitrary<Node> {
  return fc.letrec<{ node: Node }>((tie) => ({
    node: fc.oneof(
      { depthSize: "small" },
      fc.jsonValue({ maxDepth: 0 }).map((leaf): Node => ({ kind: "leaf", text: JSON.stringify(leaf) })),
      fc.array(tie("node"), { maxLength: 4 }).map((items): Node => ({ kind: "array", items })),
      fc.array(fc.tuple(fc.constantFrom(...keys), tie("node")), { maxLength: 5 }).map((entries): Node => ({ kind: "object", entries })),
    ),
  })).node;
}

/** The tree as JSON text, with `space` on both sides of every colon. */
function write(node: Node, space = ""): string {
  if (node.kind === "leaf") return node.text;
  if (node.kind === "array") return `[${node.items.map((item) => write(item, space)).join(",")}]`;
  return `{${node.entries.map(([key, value]) => `${JSON.stringify(key)}${space}:${space}${write(value, space)}`).join(",")}}`;
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
