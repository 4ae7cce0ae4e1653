import { execFileSync, spawn, spawnSync, type StdioOptions } from "node:child_process";
import { chmodSync, statSync, utimesSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { BIN, STACK_FRAME, metadata, project } from "../helpers.js";

export { BIN, STACK_FRAME, metadata };
/** Writes files below `root` (objects as JSON). */
export { writeFiles as write } from "@returnlint/testing";

/**
 * The adversarial suite (issue 15): one case per reproduction of an attack on
 * returnlint's promises. Each case runs the built CLI (or core) as an attacker would
 * meet it, on trees made here; nothing outside those trees is touched: devices and
 * /dev/stdout are stood in for by nodes and links made in the tree.
 */

export interface Ran {
  readonly status: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
}

export interface RunOptions {
  readonly cwd: string;
  readonly input?: string | Buffer;
  readonly env?: Readonly<Record<string, string>>;
  /** A hang is a failure, never a stuck suite: the child is killed after this. */
  readonly timeout?: number;
  readonly stdio?: StdioOptions;
  /** Run as uid/gid 65534 (setpriv), for cases where permissions matter. */
  readonly nobody?: boolean;
}

function environment(extra: Readonly<Record<string, string>> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1", ...extra };
  delete env.RETURNLINT_SESSION_ID;
  delete env.NODE_OPTIONS;
  return env;
}

function command(args: readonly string[], nobody: boolean | undefined): [string, string[]] {
  const node = [BIN, ...args];
  return nobody === true ? ["setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", process.execPath, ...node]] : [process.execPath, node];
}

/** Runs the built CLI, synchronously. */
export function run(args: readonly string[], options: RunOptions): Ran {
  const [file, argv] = command(args, options.nobody);
  const started = Date.now();
  const result = spawnSync(file, argv, {
    cwd: options.cwd,
    input: options.input ?? "",
    env: environment(options.env),
    encoding: "utf8",
    timeout: options.timeout ?? 20_000,
    maxBuffer: 256 * 1024 * 1024,
    ...(options.stdio === undefined ? {} : { stdio: options.stdio }),
  });
  return { status: result.status, signal: result.signal, stdout: result.stdout, stderr: result.stderr, ms: Date.now() - started };
}

/** Runs the built CLI in the background, so that many run at once. */
export function runAsync(args: readonly string[], options: RunOptions): Promise<Ran> {
  const [file, argv] = command(args, options.nobody);
  const started = Date.now();
  const child = spawn(file, argv, { cwd: options.cwd, env: environment(options.env) });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.on("error", () => undefined);
  child.stdin.end(options.input ?? "");
  const timer = setTimeout(() => child.kill("SIGKILL"), options.timeout ?? 60_000);
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (status, signal) => {
      clearTimeout(timer);
      resolve({ status, signal, stdout, stderr, ms: Date.now() - started });
    });
  });
}

/** A temporary folder, removed after the file's tests (read-only folders left in it too); open to uid 65534 when `open`. */
export function scratch(open = false): string {
  const dir = project();
  if (open) chmodSync(dir, 0o777);
  return dir;
}

const OLD = new Date("2001-01-01T00:00:00Z");

/** Sets a file's access time far in the past: a later read moves it (relatime), which proves the read. */
export function markUnread(file: string): void {
  utimesSync(file, OLD, statSync(file).mtime);
}

export function wasRead(file: string): boolean {
  return statSync(file).atime.getTime() !== OLD.getTime();
}

/** A v7 return that passes when `paths` exist in the root. */
export function v7Return(paths: readonly string[], extra: Readonly<Record<string, unknown>> = {}): Record<string, unknown> {
  return {
    status: "completed",
    summary: "Done.",
    artifacts: paths.map((item) => ({ type: "report", path: item, summary: "Report" })),
    metadata: metadata("researcher"),
    ...extra,
  };
}

/** A metadata-file return (`.return-meta.json`) that passes when `paths` exist. */
export function metadataReturn(paths: readonly string[], session = "sess_1"): Record<string, unknown> {
  return {
    status: "researched",
    artifacts: paths.map((item) => ({ type: "report", path: item, summary: "Report" })),
    metadata: metadata("researcher", session),
  };
}

/** A local custom rule module whose check is `body`. */
export function ruleModule(id: string, body: string, prelude = ""): string {
  return `${prelude}
export default {
  id: ${JSON.stringify(id)},
  meta: { description: "${id}", docs: "https://example.com/${id}", schema: { type: "object" }, defaultOptions: {}, messages: { found: { text: "${id} found it" } } },
  ${body}
};\n`;
}

function probe(file: string, args: readonly string[]): boolean {
  try {
    execFileSync(file, args, { stdio: "ignore", timeout: 10_000 });
    return true;
  } catch {
    return false;
  }
}

/** Whether this run can drop to uid 65534 (root with setpriv). */
export const CAN_SETPRIV = process.getuid?.() === 0 && probe("setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", "true"]);
export const SETPRIV_REASON = "needs root and setpriv to run as uid 65534";

/** Whether device nodes can be made here (root, and a file system that allows them). */
export const CAN_MKNOD = probe("mknod", [path.join(scratch(), "null"), "c", "1", "3"]);

/** Whether a private mount namespace can be made (for a read-only file system of our own). */
export const CAN_UNSHARE = probe("unshare", ["-m", "--propagation", "private", "true"]);

export function mknod(file: string, major: number, minor: number): void {
  execFileSync("mknod", [file, "c", String(major), String(minor)]);
}

export function mkfifo(file: string): void {
  execFileSync("mkfifo", [file]);
}

/** The JSON report of `--format json`, or a failure naming what was printed instead. */
export function report(ran: Ran): { ok: boolean; errorCount: number; results: { ruleId: string; level: string; messageId: string; message: string; detail?: string }[] } {
  try {
    return JSON.parse(ran.stdout) as ReturnType<typeof report>;
  } catch {
    throw new Error(`not a JSON report (exit ${String(ran.status)}): ${ran.stdout.slice(0, 300)} | ${ran.stderr.slice(0, 300)}`);
  }
}

export const failures = (ran: Ran): string[] => report(ran).results.filter((result) => result.level === "fail").map((result) => result.messageId);

/** A node script as a separate process, until `stop()`: a file with its arguments, or code (`-e`). */
export function background(script: string, args: readonly string[] = []): { stop(): Promise<void> } {
  const argv = script.endsWith(".mjs") ? [script, ...args] : ["--input-type=module", "-e", script, ...args];
  const child = spawn(process.execPath, argv, { stdio: "ignore" });
  return {
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) {
          resolve();
          return;
        }
        child.once("close", () => {
          resolve();
        });
        child.kill("SIGKILL");
      }),
  };
}

/** Flips a folder between the real folder it is and a symlink to another, as fast as it can, until stopped. */
export const SWAPPER = fileURLToPath(new URL("../../../../bench/swapper.mjs", import.meta.url));
