import { spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { installDir, quietEnv, readJson, REPO } from "./hosts.js";

/** A Verdaccio on 127.0.0.1 with its storage in a temp folder, proxying the registry this machine uses. */
export interface Registry {
  readonly url: string;
  readonly pid: number;
  readonly storage: string;
}

export function upstreamRegistry(): string {
  const run = spawnSync("npm", ["config", "get", "registry"], { encoding: "utf8", env: quietEnv(), timeout: 30_000 });
  const url = run.stdout.trim();
  return url.startsWith("http") ? url : "https://registry.npmjs.org/";
}

export async function startRegistry(): Promise<Registry> {
  const storage = mkdtempSync(path.join(tmpdir(), "returnlint-hosts-registry-"));
  const child = spawn(process.execPath, [path.join(REPO, "test", "hosts", "verdaccio-server.mjs"), installDir("verdaccio"), storage, upstreamRegistry()], {
    env: quietEnv(),
    stdio: ["ignore", "pipe", "pipe"],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`Verdaccio did not start within 60 s:\n${output}`));
    }, 60_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /\{"port":(\d+)\}/.exec(output);
      if (match !== null) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    };
    child.stdout.on("data", read);
    child.stderr.on("data", read);
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`Verdaccio exited (${String(code)}) before listening:\n${output}`));
    });
  });
  if (child.pid === undefined) throw new Error("Verdaccio has no pid");
  return { url: `http://127.0.0.1:${String(port)}/`, pid: child.pid, storage };
}

export function stopRegistry(registry: Registry): void {
  try {
    process.kill(registry.pid, "SIGKILL");
  } catch {
    // Already gone.
  }
  rmSync(registry.storage, { recursive: true, force: true });
}

/** The npm settings a client of the registry uses: the registry, and a dummy token to publish with. */
export function npmrc(registry: string): string {
  const host = registry.replace(/^https?:/, "");
  return `registry=${registry}\n${host}:_authToken=dummy-token-for-the-loopback-registry\n`;
}

const SKIP = new Set(["node_modules", ".git", ".turbo", ".hosts", ".returnlint", "coverage", ".work"]);

/**
 * Publishes the workspace the way a release does (`changeset version`, then `changeset
 * publish`), on a copy: the worktree's versions and .changeset files stay as they are.
 * Returns the published packages with their versions.
 */
export function publishWorkspace(registry: string): Record<string, string> {
  const copy = mkdtempSync(path.join(tmpdir(), "returnlint-hosts-release-"));
  try {
    cpSync(REPO, copy, { recursive: true, filter: (source) => !SKIP.has(path.basename(source)) });
    writeFileSync(path.join(copy, ".npmrc"), npmrc(registry));
    const changeset = path.join(REPO, "node_modules", ".bin", "changeset");
    const env = quietEnv({ npm_config_registry: registry, npm_config_git_checks: "false", npm_config_userconfig: path.join(copy, ".npmrc"), TURBO_TELEMETRY_DISABLED: "1" });
    // The release path: version the packages, link the workspace again (pnpm publish resolves
    // workspace:^ from what is installed), build (the CLI carries its version), then publish
    // what the registry does not have yet (`pnpm release`, without the git tags of a real one).
    const steps: [string, string[]][] = [
      [changeset, ["version"]],
      ["pnpm", ["install", "--offline", "--no-frozen-lockfile", "--reporter=silent"]],
      ["pnpm", ["run", "build", "--output-logs=errors-only"]],
      [changeset, ["publish", "--no-git-tag"]],
    ];
    for (const [command, args] of steps) {
      const run = spawnSync(command, args, { cwd: copy, env, encoding: "utf8", timeout: 300_000 });
      if (run.status !== 0) throw new Error(`${path.basename(command)} ${args.join(" ")} failed (${String(run.status ?? run.signal)}):\n${run.stdout}\n${run.stderr}`);
    }
    const versions: Record<string, string> = {};
    for (const group of ["packages", "apps", "examples"]) {
      for (const name of readdirSync(path.join(copy, group))) {
        const file = path.join(copy, group, name, "package.json");
        if (!existsSync(file)) continue;
        const manifest = readJson(file);
        if (manifest.private !== true) versions[String(manifest.name)] = String(manifest.version);
      }
    }
    return versions;
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

/** A clean project folder whose npm talks to the loopback registry only, with a cache of its own. */
export function npmProject(root: string, registry: string): Record<string, string> {
  mkdirSync(root, { recursive: true });
  writeFileSync(path.join(root, ".npmrc"), npmrc(registry));
  return quietEnv({ npm_config_registry: registry, npm_config_cache: path.join(root, ".npm-cache"), npm_config_userconfig: path.join(root, ".npmrc") });
}
