import { describe, expect, it } from "vitest";
import { TopLevelId } from "./request-id.js";

/** The id found in `line`, fed in pieces of `size` bytes as a pipe would deliver them. */
function idOf(line: string, size = 7): unknown {
  const scanner = new TopLevelId();
  const bytes = Buffer.from(line);
  for (let start = 0; start < bytes.length; start += size) scanner.feed(bytes.subarray(start, start + size));
  return scanner.id;
}

describe("TopLevelId: the id of a request too large to parse", () => {
  it.each([
    ["the SDK's order, id last", '{"method":"tools/call","params":{"name":"x","arguments":{"text":"…"}},"jsonrpc":"2.0","id":41}', 41],
    ["id first", '{"jsonrpc":"2.0","id":"abc","method":"m"}', "abc"],
    ["a negative number", '{"id": -3 , "method":"m"}', -3],
    ["an id inside the arguments is not the request's", '{"params":{"arguments":{"id":5}},"id":6}', 6],
    ["an id inside a string is not one", '{"params":{"text":"\\"id\\":5"},"id":7}', 7],
    ["a key that only ends in id", '{"xid":1,"id":8}', 8],
    ["an id in an array", '{"params":[{"id":1}],"id":9}', 9],
  ])("%s", (_, line, id) => {
    expect(idOf(line)).toBe(id);
    expect(idOf(line, 1)).toBe(id);
  });

  it.each([
    ["an object id", '{"id":{"a":1},"method":"m"}'],
    ["null", '{"id":null,"method":"m"}'],
    ["a fraction", '{"id":1.5,"method":"m"}'],
    ["an id longer than 200 characters", `{"id":"${"a".repeat(201)}"}`],
    ["no id", '{"method":"m"}'],
    ["a batch", '[{"id":1}]'],
  ])("no id for %s", (_, line) => {
    expect(idOf(line)).toBeUndefined();
  });
});
