import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const REPO = fileURLToPath(new URL("../..", import.meta.url));
/** Where the suite installs the hosts and tools, outside the workspace's own install (gitignored). */
export const HOSTS_DIR = path.join(REPO, ".hosts");
export const CLI = path.join(REPO, "apps", "cli");

/**
 * The real programs the suite drives, pinned: an unpinned install once resolved to an old
 * Claude Code. Each installs with npm into .hosts/NAME@VERSION and is reused while there.
 */
export const PINNED = {
  claude: { package: "@anthropic-ai/claude-code", version: "2.1.330", bin: "claude" },
  opencode: { package: "opencode-ai", version: "1.18.33", bin: "opencode" },
  codex: { package: "@openai/codex", version: "0.169.0", bin: "codex" },
  copilot: { package: "@github/copilot", version: "1.0.102", bin: "copilot" },
  gemini: { package: "@google/gemini-cli", version: "0.61.0", bin: "gemini" },
  // Verdaccio 6 asks for a `node-fetch@cjs` dist-tag the npm registry lacks: the override installs 2.7.0.
  verdaccio: { package: "verdaccio", version: "6.10.4", bin: "verdaccio", overrides: { "node-fetch": "2.7.0" } },
  publint: { package: "publint", version: "0.3.25", bin: "publint" },
  attw: { package: "@arethetypeswrong/cli", version: "0.18.5", bin: "attw" },
} as const;

export type Pinned = keyof typeof PINNED;

export function installDir(name: Pinned): string {
  const { package: name_, version } = PINNED[name];
  return path.join(HOSTS_DIR, `${name_.replace("/", "+")}@${version}`);
}

export function binOf(name: Pinned): string {
  return path.join(installDir(name), "node_modules", ".bin", PINNED[name].bin);
}

/** Whether the pinned version of a program is installed already (then it is reused). */
function installed(name: Pinned): boolean {
  const pinned = PINNED[name];
  const manifest = path.join(installDir(name), "node_modules", pinned.package, "package.json");
  return existsSync(manifest) && (JSON.parse(readFileSync(manifest, "utf8")) as { version?: string }).version === pinned.version && existsSync(binOf(name));
}

/** An empty install folder for a program, with the package.json that pins it. */
function prepareInstall(name: Pinned): string {
  const pinned = PINNED[name];
  const dir = installDir(name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, "package.json"),
    `${JSON.stringify({ name: `hosts-${name}`, private: true, dependencies: { [pinned.package]: pinned.version }, ...("overrides" in pinned ? { overrides: pinned.overrides } : {}) }, null, 2)}\n`,
  );
  return dir;
}

/**
 * Installs a pinned program unless that version is already there; gives its bin. npm runs in a
 * child of its own, so that the suite's setup can build and publish the workspace meanwhile (the
 * installs wait on the network and the disk, the build on the CPU).
 */
export async function ensureInstalled(name: Pinned): Promise<string> {
  if (installed(name)) return binOf(name);
  const ran = await run("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: prepareInstall(name), env: quietEnv(), timeoutMs: 600_000 });
  if (ran.status !== 0) throw new Error(`npm install ${PINNED[name].package}@${PINNED[name].version} failed (${ran.timedOut ? "timed out" : String(ran.status)}):\n${ran.stderr}`);
  return binOf(name);
}

/** The environment every child starts from: no colours, no update checks, no telemetry. */
export function quietEnv(extra: Record<string, string | undefined> = {}): Record<string, string> {
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0", npm_config_update_notifier: "false", ...extra };
  delete env.RETURNLINT_SESSION_ID;
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

export interface Finished {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
}

/**
 * Runs a program to its end, without blocking this process (the model server answers the
 * host from here). Bounded: past `timeoutMs` its process group is stopped, by its id.
 */
export function run(command: string, args: readonly string[], options: { cwd: string; env: Record<string, string>; timeoutMs: number; input?: string }): Promise<Finished> {
  return new Promise((resolve, reject) => {
    // PWD too: OpenCode takes its project directory from it, not from the process's cwd.
    const child = spawn(command, args, { cwd: options.cwd, env: { ...options.env, PWD: options.cwd }, stdio: ["pipe", "pipe", "pipe"], detached: true });
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      timedOut = true;
      stopGroup(child.pid);
    }, options.timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (status) => {
      clearTimeout(timer);
      // Whatever the program left running (a hook, a server) goes with it.
      stopGroup(child.pid);
      resolve({ status, stdout, stderr, timedOut });
    });
    // A program that exits without reading its input (publint, attw) closes the pipe first: not an error.
    child.stdin.on("error", () => undefined);
    child.stdin.end(options.input ?? "");
  });
}

function stopGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // Already gone.
  }
}

/** JSON lines of a host's output; other lines are left out. */
export function jsonLines(text: string): Record<string, unknown>[] {
  return text.split("\n").flatMap((line) => {
    if (!line.startsWith("{")) return [];
    try {
      return [JSON.parse(line) as Record<string, unknown>];
    } catch {
      return [];
    }
  });
}

const temporary: string[] = [];

/** A temporary folder, removed by `cleanUp()`. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), `returnlint-hosts-${prefix}-`));
  temporary.push(dir);
  return dir;
}

export function cleanUp(): void {
  for (const dir of temporary.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** Writes files under `root`: values are contents, objects are written as JSON. */
export function writeFiles(root: string, files: Readonly<Record<string, unknown>>): void {
  for (const [relative, content] of Object.entries(files)) {
    const target = path.join(root, relative);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, typeof content === "string" ? content : `${JSON.stringify(content, null, 2)}\n`);
  }
}

/**
 * Makes this checkout's built CLI the project's installed `returnlint`, as `npm install`
 * would lay it out, so that `npx --no-install returnlint` finds it without a registry.
 */
export function linkWorkspaceCli(root: string): void {
  mkdirSync(path.join(root, "node_modules", ".bin"), { recursive: true });
  symlinkSync(CLI, path.join(root, "node_modules", "returnlint"), "dir");
  symlinkSync(path.join("..", "returnlint", "dist", "returnlint.cjs"), path.join(root, "node_modules", ".bin", "returnlint"));
  if (!existsSync(path.join(root, "package.json"))) writeFiles(root, { "package.json": { name: "project", private: true, devDependencies: { returnlint: "*" } } });
}

export function readJson(file: string): Record<string, unknown> {
  return JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
}
