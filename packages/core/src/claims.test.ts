import { describe, expect, it } from "vitest";
import { claimsOf, FORMAT_CLAIMS, type ClaimMap } from "./claims.js";

const contract = (artifacts: string[], rest: Partial<ClaimMap> = {}): ClaimMap => ({ artifacts, commands: [], tests: [], ...rest });

describe("claimsOf", () => {
  it("reads a format's artifacts as the artifacts rule names them: bare paths and objects' path, in the return's order", () => {
    const value = { status: "completed", artifacts: [{ type: "report", path: "a.md" }, "b.md", 42, { summary: "no path" }, { path: "c.md" }] };
    const claims = claimsOf(value, FORMAT_CLAIMS, false);
    expect([...claims.artifacts]).toEqual([
      { path: "a.md", pointer: "/artifacts/0/path", entry: "/artifacts/0", index: 0, type: "report" },
      { path: "b.md", pointer: "/artifacts/1", entry: "/artifacts/1", index: 1 },
      { path: "c.md", pointer: "/artifacts/4/path", entry: "/artifacts/4", index: 4 },
    ]);
    expect(claims).toMatchObject({ artifactCount: 3, artifactList: "/artifacts", status: "completed", counted: undefined, fromContract: false });
    expect(claims.entries).toHaveLength(5);
  });

  it("has no list when the return holds none, and an empty list when it holds an empty one", () => {
    expect(claimsOf({ status: "completed" }, FORMAT_CLAIMS, false).artifactList).toBeUndefined();
    expect(claimsOf({ status: "completed", artifacts: "a.md" }, FORMAT_CLAIMS, false).artifactList).toBeUndefined();
    expect(claimsOf({ status: "completed", artifacts: [] }, FORMAT_CLAIMS, false)).toMatchObject({ artifactCount: 0, artifactList: "/artifacts" });
  });

  it("follows a contract's templates through lists and maps, and counts the claims by its success status", () => {
    const map = contract(["/proof/paths/*", "/report", "/outputs/*/file"], { success: { pointer: "/state/status", values: ["done"] }, sessionId: "/session" });
    const value = { state: { status: "done" }, report: "r.md", proof: { type: "file", paths: ["a.md", 3, "b.md"] }, outputs: { x: { file: "x.md", type: "log" } } };
    const claims = claimsOf(value, map, true);
    expect([...claims.artifacts].map(({ path, pointer }) => [path, pointer])).toEqual([
      ["r.md", "/report"],
      ["a.md", "/proof/paths/0"],
      ["b.md", "/proof/paths/2"],
      ["x.md", "/outputs/x/file"],
    ]);
    expect(claims).toMatchObject({ artifactList: "/proof/paths", status: "done", counted: true, sessionId: "/session", fromContract: true });
    expect(claimsOf({ ...value, state: { status: "failed" } }, map, true).counted).toBe(false);
    // Without a success annotation a contract's claims always count.
    expect(claimsOf(value, contract(["/report"]), true).counted).toBe(true);
  });

  it("gives the same paths at each reading, kept or walked again", () => {
    for (const count of [2, 65]) {
      const claims = claimsOf({ status: "completed", artifacts: Array.from({ length: count }, (_, index) => `${String(index)}.md`) }, FORMAT_CLAIMS, false);
      expect([...claims.artifacts]).toEqual([...claims.artifacts]);
      expect([...claims.artifacts]).toHaveLength(claims.artifactCount);
    }
  });

  it("reads a format's list as the walk of the same templates does, whatever its entries are", () => {
    // The same map in another object: the templates walked, not the formats' list read.
    const walked: ClaimMap = { ...FORMAT_CLAIMS };
    const returns: unknown[] = [
      { status: "completed", artifacts: [{ type: "report", path: "a.md", summary: "s" }, { path: "b.md", type: 3 }, "c.md", null, 7, ["d.md"], { path: ["e.md"] }, { path: { x: "f.md" } }, { type: "plan" }] },
      JSON.parse('{"artifacts": [{"__proto__": "x", "path": "g.md", "path": "h.md"}, {"__proto__": {"path": "i.md"}}]}'),
      { artifacts: { first: "a.md", second: { path: "b.md" } } },
      { artifacts: Array.from({ length: 70 }, (_, index) => ({ path: `${String(index)}.md` })) },
      { artifacts: [] },
      { artifacts: "a.md" },
      ["a.md"],
      "a.md",
      null,
    ];
    for (const value of returns) {
      const read = claimsOf(value, FORMAT_CLAIMS, false);
      const expected = claimsOf(value, walked, false);
      expect([...read.artifacts]).toEqual([...expected.artifacts]);
      expect({ count: read.artifactCount, list: read.artifactList, entries: read.entries, status: read.status }).toEqual({
        count: expected.artifactCount,
        list: expected.artifactList,
        entries: expected.entries,
        status: expected.status,
      });
    }
  });

  it("escapes keys in the pointers it makes", () => {
    expect([...claimsOf({ "a/b": { "~x": "p.md" } }, contract(["/*/*"]), true).artifacts][0]?.pointer).toBe("/a~1b/~0x");
  });
});
