import { mkdirSync } from "node:fs";
import path from "node:path";
import { afterAll, expect, inject, it } from "vitest";
import { binOf, cleanUp, run, tempDir, writeFiles } from "./hosts.js";
import { npmProject } from "./registry.js";

// Every package of the release (global-setup.ts publishes it to the loopback registry), as npm
// packs it from there, through the two packaging linters: publint and arethetypeswrong. A file of
// its own, so that it runs beside registry.hosts.ts: this is CPU (attw builds TypeScript programs),
// the host conversations there mostly wait on their hosts.

const registry = inject("registry");
const published = inject("published");
const NODE_BIN = path.dirname(process.execPath);

afterAll(() => {
  cleanUp();
});

it("passes publint and arethetypeswrong (ESM-only profile) for every published package", { timeout: 600_000 }, async () => {
  const root = tempDir("packaging");
  writeFiles(root, { "package.json": { name: "packaging", version: "1.0.0", private: true, type: "module" } });
  const env = { ...npmProject(root, registry), PATH: [NODE_BIN, "/usr/bin", "/bin"].join(path.delimiter) };
  const lint = async (name: string, version: string) => {
    const folder = path.join(root, name.replace("/", "+"));
    mkdirSync(folder, { recursive: true });
    const packed = await run("npm", ["pack", `${name}@${version}`, "--loglevel=error"], { cwd: folder, env, timeoutMs: 120_000 });
    expect(packed.status, packed.stderr).toBe(0);
    const tarball = path.join(folder, packed.stdout.trim().split("\n").at(-1) ?? "");
    const attw = await run(binOf("attw"), [tarball, "--profile", "esm-only", "--format", "ascii"], { cwd: folder, env, timeoutMs: 120_000 });
    expect(attw.status, `${name}: ${attw.stdout}`).toBe(0);
    expect((await run("tar", ["xzf", tarball], { cwd: folder, env, timeoutMs: 60_000 })).status).toBe(0);
    const publint = await run(binOf("publint"), [path.join(folder, "package")], { cwd: folder, env, timeoutMs: 120_000 });
    expect(publint.status, `${name}: ${publint.stdout}`).toBe(0);
    expect(publint.stdout, name).toContain("All good!");
  };
  const queue = Object.entries(published);
  expect(queue.length).toBeGreaterThan(20);
  // Two at a time, one per core: attw is CPU-bound.
  await Promise.all(
    Array.from({ length: 2 }, async () => {
      for (let next = queue.shift(); next !== undefined; next = queue.shift()) await lint(...next);
    }),
  );
});
