import { spawn } from "node:child_process";
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmdirSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { subagentStop, finalMessage } from "../claude-payloads.js";
import { BIN, background, CAN_MKNOD, CAN_SETPRIV, CAN_UNSHARE, SETPRIV_REASON, STACK_FRAME, markUnread, mkfifo, mknod, run, runAsync, scratch, v7Return, wasRead, write } from "./harness.js";

// Issue 15, "Writes and deletes outside the root, and data loss": reproductions 1, 4 and 6,
// and the write errors that are the environment's (EROFS, EACCES), not returnlint's.

const failing = v7Return([]);

describe("1. -o never renames over what is not a regular file", { timeout: 60_000 }, () => {
  function project(): string {
    const root = scratch();
    write(root, { "r.json": failing });
    return root;
  }

  it.runIf(CAN_MKNOD)("a device (a null device made here, standing in for /dev/null) is written in place and stays a device", () => {
    const root = project();
    mknod(path.join(root, "null"), 1, 3);
    const ran = run(["check", "r.json", "-f", "json", "-o", "null"], { cwd: root });
    expect(ran.status).toBe(1);
    expect(ran.stderr).toBe("");
    expect(lstatSync(path.join(root, "null")).isCharacterDevice()).toBe(true);
    expect(readdirSync(root).sort()).toEqual(["null", "r.json"]);
  });

  it.runIf(CAN_MKNOD)("a full device (standing in for /dev/full) is a sentence about space, and stays a device", () => {
    const root = project();
    mknod(path.join(root, "full"), 1, 7);
    const ran = run(["check", "r.json", "-f", "json", "-o", "full"], { cwd: root });
    expect(ran.status).toBe(2);
    expect(ran.stderr).toBe(`returnlint: Cannot write ${path.join(root, "full")}: no space left on the device (ENOSPC).\n`);
    expect(lstatSync(path.join(root, "full")).isCharacterDevice()).toBe(true);
  });

  it("a symlink to this process's standard output (what /dev/stdout is) prints the report there and stays a link", () => {
    const root = project();
    symlinkSync("/proc/self/fd/1", path.join(root, "stdout"));
    const ran = run(["check", "r.json", "-f", "json", "-o", "stdout"], { cwd: root });
    expect(ran.status).toBe(1);
    expect(JSON.parse(ran.stdout)).toMatchObject({ ok: false });
    expect(lstatSync(path.join(root, "stdout")).isSymbolicLink()).toBe(true);
    expect(readlinkSync(path.join(root, "stdout"))).toBe("/proc/self/fd/1");
  });

  it("a symlink to a regular file: the file gets the report, the link stays a link", () => {
    const root = project();
    write(root, { "reports/real.json": "old\n" });
    symlinkSync("reports/real.json", path.join(root, "report.json"));
    const ran = run(["check", "r.json", "-f", "json", "-o", "report.json"], { cwd: root });
    expect(ran.status).toBe(1);
    expect(lstatSync(path.join(root, "report.json")).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(path.join(root, "reports/real.json"), "utf8"))).toMatchObject({ ok: false });
  });

  it("a FIFO with a reader gets the report in place and stays a FIFO", async () => {
    const root = project();
    const fifo = path.join(root, "pipe");
    mkfifo(fifo);
    const reader = spawn("cat", [fifo]);
    let read = "";
    reader.stdout.on("data", (chunk: Buffer) => (read += chunk.toString()));
    const closed = new Promise((resolve) => reader.on("close", resolve));
    // The reader opens the FIFO first; a writer without one would be refused (next case).
    await new Promise((resolve) => setTimeout(resolve, 300));
    const ran = await runAsync(["check", "r.json", "-f", "json", "-o", "pipe"], { cwd: root, timeout: 15_000 });
    await closed;
    expect(ran.status).toBe(1);
    expect(JSON.parse(read)).toMatchObject({ ok: false });
    expect(lstatSync(fifo).isFIFO()).toBe(true);
  });

  it("a FIFO nobody reads is refused at once with a sentence, never waited on, and stays a FIFO", () => {
    const root = project();
    mkfifo(path.join(root, "pipe"));
    const ran = run(["check", "r.json", "-f", "json", "-o", "pipe"], { cwd: root, timeout: 10_000 });
    expect(ran.signal).toBeNull();
    expect(ran.status).toBe(2);
    expect(ran.stderr).toMatch(/^returnlint: Cannot write .*pipe: nothing is at the other end \(a FIFO nobody reads, or a socket\) \(ENXIO\)\.\n$/);
    expect(lstatSync(path.join(root, "pipe")).isFIFO()).toBe(true);
  });

  it("a regular file is replaced whole and keeps its permissions", () => {
    const root = project();
    write(root, { "report.json": "old\n" });
    chmodSync(path.join(root, "report.json"), 0o640);
    expect(run(["check", "r.json", "-f", "json", "-o", "report.json"], { cwd: root }).status).toBe(1);
    expect(statSync(path.join(root, "report.json")).mode & 0o777).toBe(0o640);
    expect(readdirSync(root).filter((name) => name.endsWith(".tmp"))).toEqual([]);
  });

  it("-o under a path whose parent is a regular file: a sentence naming the file, not EEXIST (issue 16, item 15)", () => {
    const root = project();
    const ran = run(["check", "r.json", "-f", "json", "-o", "r.json/x/report.json"], { cwd: root });
    expect(ran.status).toBe(2);
    expect(ran.stderr).toBe(`returnlint: Cannot write ${path.join(root, "r.json/x/report.json")}: ${path.join(root, "r.json")} is a file, not a directory.\n`);
  });
});

describe("4. the Claude hook never writes or reads through a symlink a subagent planted in .returnlint/", { timeout: 60_000 }, () => {
  /** A project whose subagent returns phantom work (so the hook blocks and records), and a folder outside it. */
  function planted(plant: (state: string, outside: string) => void): { root: string; outside: string; ran: ReturnType<typeof run> } {
    const base = scratch();
    const root = path.join(base, "project");
    const outside = path.join(base, "outside");
    mkdirSync(path.join(root, ".returnlint"), { recursive: true });
    mkdirSync(outside);
    plant(path.join(root, ".returnlint"), outside);
    const payload = subagentStop({ cwd: root, agentId: "a1", message: finalMessage(["specs/1_x/reports/missing.md"]) });
    const ran = run(["hook", "claude"], { cwd: root, input: JSON.stringify(payload), timeout: 30_000 });
    expect(ran.signal).toBeNull();
    expect(ran.status).toBe(0);
    expect(ran.stdout + ran.stderr).not.toMatch(STACK_FRAME);
    return { root, outside, ran };
  }

  it(".returnlint itself is a symlink to a folder outside: nothing is written there; the hook says why and lets the stop through", () => {
    const { outside, ran } = planted((state, out) => {
      rmdirSync(state);
      symlinkSync(out, state);
    });
    expect(readdirSync(outside)).toEqual([]);
    expect(ran.stderr).toContain(".returnlint is a symbolic link");
  });

  it(".returnlint/verdicts is a symlink to a folder outside: no verdict lands there", () => {
    const { outside, ran } = planted((state, out) => {
      symlinkSync(out, path.join(state, "verdicts"));
    });
    expect(readdirSync(outside)).toEqual([]);
    expect(ran.stderr).toContain("verdicts is a symbolic link");
  });

  it(".returnlint/.gitignore is a dangling symlink: the file it names outside is never created", () => {
    const { outside, ran } = planted((state, out) => {
      symlinkSync(path.join(out, "planted"), path.join(state, ".gitignore"));
    });
    expect(existsSync(path.join(outside, "planted"))).toBe(false);
    expect((JSON.parse(ran.stdout) as { decision: string }).decision).toBe("block");
  });

  it(".returnlint/ledger.json is a symlink to a file outside: that file is neither read nor changed", () => {
    const { root, outside } = planted((state, out) => {
      writeFileSync(path.join(out, "ledger.json"), '{"version":1,"entries":{}}\n');
      markUnread(path.join(out, "ledger.json"));
      symlinkSync(path.join(out, "ledger.json"), path.join(state, "ledger.json"));
    });
    // Looked at before this test reads it itself.
    expect(wasRead(path.join(outside, "ledger.json"))).toBe(false);
    expect(readFileSync(path.join(outside, "ledger.json"), "utf8")).toBe('{"version":1,"entries":{}}\n');
    // The planted link was replaced by the hook's own ledger, inside the project.
    expect(lstatSync(path.join(root, ".returnlint", "ledger.json")).isFile()).toBe(true);
  });

  it("a verdict file that is a symlink to a file outside is replaced, never written through", () => {
    const { root, outside } = planted((state, out) => {
      writeFileSync(path.join(out, "victim"), "keep\n");
      mkdirSync(path.join(state, "verdicts"));
      symlinkSync(path.join(out, "victim"), path.join(state, "verdicts", "lean-research-agent--a1.json"));
    });
    expect(readFileSync(path.join(outside, "victim"), "utf8")).toBe("keep\n");
    expect(lstatSync(path.join(root, ".returnlint", "verdicts", "lean-research-agent--a1.json")).isFile()).toBe(true);
  });
});

describe("6. --log-errors never loses an entry, at any count a machine can start", { timeout: 180_000 }, () => {
  it("150 parallel writers: 150 entries, each process exits 1", async () => {
    const root = scratch();
    const writers = 150;
    const runs = await Promise.all(
      Array.from({ length: writers }, (_, index) =>
        runAsync(["check", "-", "--log-errors", "specs/errors.json", "--session-id", `sess_${String(index)}`, "--quiet"], {
          cwd: root,
          input: JSON.stringify(v7Return([], { metadata: { session_id: `sess_${String(index)}`, agent_type: "researcher", delegation_depth: 1, delegation_path: ["orchestrator", "researcher"] } })),
          timeout: 170_000,
        }),
      ),
    );
    const codes = runs.map((ran) => ran.status);
    expect(runs.filter((ran) => ran.stderr !== "").map((ran) => ran.stderr)).toEqual([]);
    expect(codes).toEqual(Array.from({ length: writers }, () => 1));
    const log = JSON.parse(readFileSync(path.join(root, "specs", "errors.json"), "utf8")) as { errors: { session_id: string }[] };
    expect(log.errors.map((entry) => entry.session_id).sort()).toEqual(Array.from({ length: writers }, (_, index) => `sess_${String(index)}`).sort());
    expect(readdirSync(path.join(root, "specs"))).toEqual(["errors.json"]);
  });
});

describe("6b. the lock waits as long as it changes hands (the mechanism that lost entries)", { timeout: 60_000 }, () => {
  it("another process takes and gives back the lock for 12 s: writers queued behind it all log their entry", async () => {
    const root = scratch();
    mkdirSync(path.join(root, "specs"));
    // Holds specs/errors.json.lock 50 ms at a time, a new lock each time, for 12 s: longer than one lock wait.
    const hog = background(
      `import { closeSync, openSync, unlinkSync } from "node:fs";
const lock = process.argv[1];
const pause = new Int32Array(new SharedArrayBuffer(4));
for (const end = Date.now() + 12_000; Date.now() < end; ) {
  try { closeSync(openSync(lock, "wx")); } catch { continue; }
  Atomics.wait(pause, 0, 0, 50);
  unlinkSync(lock);
}`,
      [path.join(root, "specs", "errors.json.lock")],
    );
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      const writers = 8;
      const runs = await Promise.all(
        Array.from({ length: writers }, (_, index) =>
          runAsync(["check", "-", "--log-errors", "specs/errors.json", "--quiet", "--session-id", `sess_${String(index)}`], {
            cwd: root,
            input: JSON.stringify(v7Return([], { metadata: { session_id: `sess_${String(index)}`, agent_type: "researcher", delegation_depth: 1, delegation_path: ["orchestrator", "researcher"] } })),
            timeout: 50_000,
          }),
        ),
      );
      expect(runs.map((ran) => ran.stderr)).toEqual(Array.from({ length: writers }, () => ""));
      expect(runs.map((ran) => ran.status)).toEqual(Array.from({ length: writers }, () => 1));
      const log = JSON.parse(readFileSync(path.join(root, "specs", "errors.json"), "utf8")) as { errors: unknown[] };
      expect(log.errors).toHaveLength(writers);
    } finally {
      await hog.stop();
    }
  });
});

describe("write errors from the environment are sentences, not internal errors", { timeout: 60_000 }, () => {
  it.runIf(CAN_SETPRIV)("EACCES on the lock (the log's folder is not writable for this user): a sentence, exit 2", () => {
    const root = scratch(true);
    write(root, { "r.json": failing, "logs/errors.json": '{"errors":[]}\n' });
    chmodSync(path.join(root, "logs"), 0o755);
    chmodSync(path.join(root, "r.json"), 0o644);
    const ran = run(["check", "r.json", "--log-errors", "logs/errors.json", "--quiet"], { cwd: root, nobody: true });
    expect(ran.status).toBe(2);
    expect(ran.stderr).toBe(`returnlint: Cannot create the lock ${path.join(root, "logs", "errors.json.lock")}: permission denied (EACCES).\n`);
  });
  it.skipIf(CAN_SETPRIV)(`EACCES on the lock: skipped (${SETPRIV_REASON})`, () => undefined);

  it.runIf(CAN_UNSHARE)("EROFS (the log on a read-only file system of its own): a sentence, exit 2", () => {
    const root = scratch();
    write(root, { "r.json": failing });
    const readOnly = path.join(root, "ro");
    mkdirSync(readOnly);
    const script = `mount -t tmpfs -o ro,size=1m none "${readOnly}" && exec "${process.execPath}" "$@"`;
    const child = spawnSync(
      "unshare",
      ["-m", "--propagation", "private", "sh", "-c", script, "sh", BIN, "check", "r.json", "--log-errors", "ro/errors.json", "--quiet"],
      { cwd: root, encoding: "utf8", timeout: 20_000, env: { ...process.env, NO_COLOR: "1" } },
    );
    expect(child.status).toBe(2);
    expect(child.stderr).toBe(`returnlint: Cannot create the lock ${path.join(readOnly, "errors.json.lock")}: the file system is read-only (EROFS).\n`);
  });
});
