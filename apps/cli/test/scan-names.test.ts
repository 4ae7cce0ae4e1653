import path from "node:path";
import { relativeInside } from "@returnlint/core";
import { describe, expect, it } from "vitest";
import { relativeBelow } from "../src/scan/names.js";

describe("scan: a walked file's path below the cwd and the root", () => {
  const files = ["/p/specs/1_x/.return-meta.json", "/p/specs/archive/2_y/.return-meta.json", "/p/specs/..notes/.return-meta.json"];
  it.each([
    ["the walked folder below the base", "/p", "/p/specs"],
    ["the walked folder is the base", "/p/specs", "/p/specs"],
    ["the base below the walked folder", "/p/specs/1_x", "/p/specs"],
    ["the walked folder elsewhere", "/q", "/p/specs"],
    ["the file system's root", "/", "/p/specs"],
    ["walking the file system's root", "/p", "/"],
  ])("gives what relativeInside gives: %s", (_name, base, dir) => {
    const below = relativeBelow(base, dir);
    for (const file of files) expect(below(file)).toBe(relativeInside(base, file));
    expect(below(path.join(dir, "x.json"))).toBe(relativeInside(base, path.join(dir, "x.json")));
  });

  it("a path the walk did not give (the folder itself, a sibling that shares its prefix) is answered by relativeInside", () => {
    const below = relativeBelow("/p", "/p/specs");
    expect(below("/p/specs")).toBe("specs");
    expect(below("/p/specs-old/1_x/.return-meta.json")).toBe("specs-old/1_x/.return-meta.json");
    expect(below("/q/specs/1_x/.return-meta.json")).toBeUndefined();
  });
});
