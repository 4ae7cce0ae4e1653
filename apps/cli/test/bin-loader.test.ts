// The bin (src/loader.cjs, built as dist/returnlint.cjs) compiles dist/cli.cjs with its V8 code
// cache. These run copies of the built dist/ that a user's install could end up as: a cache that
// is missing (V8 then compiles from source), a bundle that is missing or damaged.
import { spawnSync } from "node:child_process";
import { cpSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { EXAMPLES, STACK_FRAME, project } from "./helpers.js";

const DIST = fileURLToPath(new URL("../dist/", import.meta.url));

/** A copy of dist/, changed by `change` (given the copy's folder). */
function distCopy(change: (dist: string) => void): string {
  const dist = path.join(project(), "dist");
  cpSync(DIST, dist, { recursive: true });
  change(dist);
  return dist;
}

function checkExample(dist: string) {
  const example = path.join(EXAMPLES, "valid-v7");
  const { metadata } = JSON.parse(readFileSync(path.join(example, "return.json"), "utf8")) as { metadata: { session_id: string } };
  return spawnSync(process.execPath, [path.join(dist, "returnlint.cjs"), "check", "return.json", "--session-id", metadata.session_id, "--format", "json"], {
    cwd: example,
    env: { ...process.env, NO_COLOR: "1" },
    encoding: "utf8",
    timeout: 20_000,
  });
}

describe("the bin's loader", () => {
  it("ships the bundle wrapped as the script it compiles, the hashbang made a comment", () => {
    const loader = readFileSync(path.join(DIST, "returnlint.cjs"), "utf8");
    const wrapper = /const WRAPPER=("[^"\n]*");/.exec(loader)?.[1];
    expect(wrapper).toBeDefined();
    const bundle = readFileSync(path.join(DIST, "cli.cjs"), "utf8");
    expect(bundle.startsWith(`${JSON.parse(wrapper ?? "null") as string}//`)).toBe(true);
    expect(bundle.endsWith("\n});")).toBe(true);
  });

  it("checks a return as usual when the code cache is missing (V8 compiles the bundle from source)", () => {
    const run = checkExample(
      distCopy((dist) => {
        for (const cache of ["cli.cjs.cache", "cli.cjs.check.cache"]) rmSync(path.join(dist, cache));
      }),
    );
    expect(run.stderr).toBe("");
    expect((JSON.parse(run.stdout) as { ok: boolean }).ok).toBe(true);
    expect(run.status).toBe(0);
  });

  it("checks a return as usual when the code cache is from elsewhere (V8 rejects it)", () => {
    const run = checkExample(
      distCopy((dist) => {
        writeFileSync(path.join(dist, "cli.cjs.check.cache"), Buffer.alloc(4096, 7));
      }),
    );
    expect(run.stderr).toBe("");
    expect((JSON.parse(run.stdout) as { ok: boolean }).ok).toBe(true);
    expect(run.status).toBe(0);
  });

  it("says in one sentence that the install is broken when the bundle is missing: exit 2, no stack trace", () => {
    const dist = distCopy((copy) => {
      rmSync(path.join(copy, "cli.cjs"));
    });
    const run = checkExample(dist);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe(`returnlint: cannot load its bundle (ENOENT: no such file or directory, open '${path.join(dist, "cli.cjs")}'); reinstall returnlint\n`);
    expect(run.status).toBe(2);
  });

  it("says so too when the bundle is damaged", () => {
    const run = checkExample(
      distCopy((dist) => {
        writeFileSync(path.join(dist, "cli.cjs"), "module.exports = (;\n");
      }),
    );
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/^returnlint: cannot load its bundle \(.+\); reinstall returnlint\n$/);
    expect(run.stderr).not.toMatch(STACK_FRAME);
    expect(run.status).toBe(2);
  });
});
