import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { preview } from "./render.js";

const DEPTH = 100_000;

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
