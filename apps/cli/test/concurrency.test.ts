import { spawn, type ChildProcess } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildSync } from "esbuild";
import { beforeAll, describe, expect, it } from "vitest";
import { subagentStop, finalMessage } from "./claude-payloads.js";
import { BIN, project } from "./helpers.js";

const WRITERS = 30;
let work = "";
let atomicModule = "";

/** apps/cli/src/atomic.ts (and core's SafeDir) as one ES module a plain `node` child can import. */
beforeAll(() => {
  // Killed writers leave their temporary files (64 MiB each) behind: they go with the folder, after the file's tests.
  work = project();
  atomicModule = path.join(work, "atomic.mjs");
  buildSync({
    stdin: {
      contents: 'export { withLock, writeOutput } from "./atomic.ts";\nexport { SafeDir } from "@returnlint/core";\n',
      resolveDir: fileURLToPath(new URL("../src/", import.meta.url)),
      loader: "ts",
    },
    bundle: true,
    platform: "node",
    format: "esm",
    outfile: atomicModule,
    logLevel: "silent",
  });
});

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code, signal) => {
      resolve(signal === null ? code : -1);
    });
  });
}

/** Runs the CLI with `input` on standard input, asynchronously, so that many run at once. */
function runCli(args: readonly string[], options: { cwd: string; input: string }): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: options.cwd, env: { ...process.env, NO_COLOR: "1" } });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end(options.input);
  return exited(child).then((code) => ({ code, stdout, stderr }));
}

/** Content that shows whether it is whole: one letter, `size` times, and a last line that names both. */
const content = (letter: string, size: number) => `${letter.repeat(size)}\nend ${letter} ${String(size)}\n`;
const LAST_LINE = /\nend ([A-Za-z]) (\d+)\n$/;

/** The version `text` is, or a failure if it is torn or truncated. */
function expectWhole(text: string): string {
  const match = LAST_LINE.exec(text.slice(-40));
  expect(match, `a truncated file of ${String(text.length)} characters`).not.toBeNull();
  const [, letter = "", size = "0"] = match ?? [];
  expect(text === content(letter, Number(size)), `a torn file of ${String(text.length)} characters`).toBe(true);
  return letter;
}

describe("writeOutput and withLock under many processes", { timeout: 60_000 }, () => {
  it(`${String(WRITERS)} processes replacing one file: every read sees one whole version, and the last is whole`, async () => {
    const file = path.join(work, "shared.txt");
    writeFileSync(file, content("a", 10));
    const script = `import { writeOutput } from ${JSON.stringify(atomicModule)};
const [letter, size] = process.argv.slice(1);
for (let round = 0; round < 10; round += 1) writeOutput(${JSON.stringify(file)}, \`\${letter.repeat(Number(size))}\\nend \${letter} \${size}\\n\`);`;
    const writers = Array.from({ length: WRITERS }, (_, index) => {
      const letter = String.fromCharCode(index < 26 ? 65 + index : 97 + index - 26);
      return exited(spawn(process.execPath, ["--input-type=module", "-e", script, letter, String(50_000 + index * 20_000)], { stdio: "ignore" }));
    });
    let reads = 0;
    const state = { done: false };
    const all = Promise.all(writers).finally(() => {
      state.done = true;
    });
    while (!state.done) {
      expectWhole(readFileSync(file, "utf8"));
      reads += 1;
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(await all).toEqual(Array.from({ length: WRITERS }, () => 0));
    expectWhole(readFileSync(file, "utf8"));
    expect(reads).toBeGreaterThan(0);
    expect(readdirSync(work).filter((name) => name.endsWith(".tmp"))).toEqual([]);
  });

  it("a writer killed with SIGKILL in the middle of a long write leaves the old content or the new, never a part", async () => {
    const file = path.join(work, "killed.txt");
    const size = 64 * 1024 * 1024;
    for (const [round, delay] of [60, 120, 250, 400].entries()) {
      writeFileSync(file, content("o", 1000));
      const letter = String.fromCharCode(65 + round);
      const script = `import { writeOutput } from ${JSON.stringify(atomicModule)};
const big = ${JSON.stringify(letter)}.repeat(${String(size)}) + ${JSON.stringify(`\nend ${letter} ${String(size)}\n`)};
process.stdout.write("ready\\n");
for (;;) writeOutput(${JSON.stringify(file)}, big);`;
      const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "ignore"] });
      await new Promise<void>((resolve) => child.stdout.once("data", () => {
        resolve();
      }));
      await new Promise((resolve) => setTimeout(resolve, delay));
      child.kill("SIGKILL");
      expect(await exited(child)).toBe(-1);
      expect(["o", letter]).toContain(expectWhole(readFileSync(file, "utf8")));
    }
  });

  it(`withLock: ${String(WRITERS)} processes appending to one JSON list lose no entry`, async () => {
    const file = path.join(work, "list.json");
    writeFileSync(file, "[]\n");
    const script = `import { readFileSync } from "node:fs";
import { SafeDir, withLock, writeOutput } from ${JSON.stringify(atomicModule)};
const file = ${JSON.stringify(file)};
const dir = SafeDir.open(${JSON.stringify(work)});
await withLock(dir, "list.json.lock", async () => {
  const list = JSON.parse(readFileSync(file, "utf8"));
  await new Promise((resolve) => setTimeout(resolve, 2));
  writeOutput(file, JSON.stringify([...list, process.argv[1]]));
});`;
    const codes = await Promise.all(Array.from({ length: WRITERS }, (_, index) => exited(spawn(process.execPath, ["--input-type=module", "-e", script, String(index)], { stdio: "ignore" }))));
    expect(codes.every((code) => code === 0)).toBe(true);
    const list = JSON.parse(readFileSync(file, "utf8")) as string[];
    expect(list.map(Number).sort((a, b) => a - b)).toEqual(Array.from({ length: WRITERS }, (_, index) => index));
  });
});

describe("the CLI's own writers, many at once", { timeout: 60_000 }, () => {
  it(`${String(WRITERS)} \`check --log-errors\` at once: errors.json holds every failure and stays valid JSON`, async () => {
    const root = project({});
    const failing = (index: number) => JSON.stringify({ status: "completed", summary: `Run ${String(index)}.`, artifacts: [], metadata: { session_id: `sess_${String(index)}`, agent_type: "researcher", delegation_depth: 1, delegation_path: ["orchestrator", "research", "researcher"] } });
    const runs = await Promise.all(
      Array.from({ length: WRITERS }, (_, index) => runCli(["check", "-", "--log-errors", "specs/errors.json", "-o", "report.json", "-f", "json", "--session-id", `sess_${String(index)}`], { cwd: root, input: failing(index) })),
    );
    expect(runs.map((run) => run.code)).toEqual(Array.from({ length: WRITERS }, () => 1));
    const log = JSON.parse(readFileSync(path.join(root, "specs", "errors.json"), "utf8")) as { errors: { session_id: string }[] };
    expect(log.errors.map((entry) => entry.session_id).sort()).toEqual(Array.from({ length: WRITERS }, (_, index) => `sess_${String(index)}`).sort());
    // -o: the last writer's whole report, not a mix.
    expect((JSON.parse(readFileSync(path.join(root, "report.json"), "utf8")) as { ok: boolean }).ok).toBe(false);
    expect(readdirSync(path.join(root, "specs")).filter((name) => name !== "errors.json")).toEqual([]);
  });

  it(`${String(WRITERS)} hooks for parallel subagents at once: one ledger entry and one verdict each`, async () => {
    const root = project({});
    const runs = await Promise.all(
      Array.from({ length: WRITERS }, (_, index) =>
        runCli(["hook", "claude"], { cwd: root, input: JSON.stringify(subagentStop({ cwd: root, agentId: `agent${String(index)}`, message: finalMessage([`specs/259_x/reports/missing-${String(index)}.md`]) })) }),
      ),
    );
    for (const run of runs) {
      expect(run.code).toBe(0);
      expect((JSON.parse(run.stdout) as { decision: string }).decision).toBe("block");
    }
    const ledger = JSON.parse(readFileSync(path.join(root, ".returnlint", "ledger.json"), "utf8")) as { entries: Record<string, { attempts: number }> };
    expect(Object.keys(ledger.entries)).toHaveLength(WRITERS);
    expect(Object.values(ledger.entries).every((entry) => entry.attempts === 1)).toBe(true);
    const verdicts = readdirSync(path.join(root, ".returnlint", "verdicts"));
    expect(verdicts).toHaveLength(WRITERS);
    for (const name of verdicts) expect(JSON.parse(readFileSync(path.join(root, ".returnlint", "verdicts", name), "utf8"))).toMatchObject({ ok: false, decision: "block" });
  });
});
