import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { snippet } from "./docs.js";
import { HOSTS_DIR, quietEnv, REPO, run } from "./hosts.js";

/**
 * The frameworks the adapters plug into, pinned, installed with npm beside the hosts (gitignored
 * .hosts/), outside the workspace's own install; with them the `node` package of Node 22, whose
 * binary runs the releases that need Node ≥ 22 (`ai` 7, `@mastra/core` 1.71).
 */
export const FRAMEWORKS = {
  "@anthropic-ai/claude-agent-sdk": "0.3.332",
  "@openai/agents": "0.20.0",
  ai: "7.0.173",
  "@ai-sdk/openai-compatible": "3.0.92",
  "@mastra/core": "1.71.0",
  zod: "4.6.7",
  node: "22.23.3",
} as const;

/** The adapters, by the name each driver and snippet imports. */
const ADAPTERS = ["claude-agent-sdk", "openai-agents", "ai-sdk", "mastra"] as const;
export type Framework = (typeof ADAPTERS)[number];

/** The frameworks whose pinned release needs Node ≥ 22. */
const NODE_22: ReadonlySet<Framework> = new Set(["ai-sdk", "mastra"]);

const DRIVERS = fileURLToPath(new URL("frameworks/", import.meta.url));
export const FRAMEWORKS_DIR = path.join(HOSTS_DIR, `frameworks@${Object.values(FRAMEWORKS).join("-")}`);

/**
 * Installs the pinned frameworks unless they are there already; links the workspace's adapters
 * into their node_modules and copies the drivers beside them, with each framework's snippet of
 * docs/frameworks.md as `NAME.snippet.mjs` (what the drivers import): the docs' code is what runs.
 */
export function ensureFrameworks(): string {
  const installed = Object.entries(FRAMEWORKS).every(([name, version]) => {
    const manifest = path.join(FRAMEWORKS_DIR, "node_modules", name, "package.json");
    return existsSync(manifest) && (JSON.parse(readFileSync(manifest, "utf8")) as { version?: string }).version === version;
  });
  if (!installed) {
    rmSync(FRAMEWORKS_DIR, { recursive: true, force: true });
    mkdirSync(FRAMEWORKS_DIR, { recursive: true });
    writeFileSync(path.join(FRAMEWORKS_DIR, "package.json"), `${JSON.stringify({ name: "hosts-frameworks", private: true, type: "module", dependencies: FRAMEWORKS }, null, 2)}\n`);
    const install = spawnSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: FRAMEWORKS_DIR, encoding: "utf8", timeout: 600_000, env: quietEnv() });
    if (install.status !== 0) throw new Error(`npm install of the frameworks failed (${String(install.status ?? install.signal)}):\n${install.stderr}`);
  }
  mkdirSync(path.join(FRAMEWORKS_DIR, "node_modules", "@returnlint"), { recursive: true });
  for (const adapter of ADAPTERS) {
    const link = path.join(FRAMEWORKS_DIR, "node_modules", "@returnlint", adapter);
    rmSync(link, { recursive: true, force: true });
    symlinkSync(path.join(REPO, "packages", adapter), link);
    writeFileSync(path.join(FRAMEWORKS_DIR, `${adapter}.snippet.mjs`), `${snippet(adapter, "docs/frameworks.md")}\n`);
  }
  for (const driver of readdirSync(DRIVERS)) copyFileSync(path.join(DRIVERS, driver), path.join(FRAMEWORKS_DIR, driver));
  return FRAMEWORKS_DIR;
}

/** The Node that runs a framework's driver: this one, or the `node` package's Node 22 for the releases that need it. */
export function nodeFor(framework: Framework): string {
  if (!NODE_22.has(framework)) return process.execPath;
  const bin = path.join(FRAMEWORKS_DIR, "node_modules", "node", "bin", "node");
  const version = spawnSync(bin, ["--version"], { encoding: "utf8" }).stdout.trim();
  if (!version.startsWith("v22.")) throw new Error(`${framework} needs Node 22; the node package's binary says ${JSON.stringify(version)}`);
  return bin;
}

/** What a driver reports: the verdicts its adapter handed the application, and what the orchestrator answered. */
export interface DriverResult {
  readonly node: string;
  readonly verdicts: readonly { decision: string; attempt: number; reader: string; reason?: string; report?: { phantom: boolean; errorCount: number } }[];
  readonly final: unknown;
}

/** Runs one framework's driver in `project` against the scripted model at `modelUrl`. */
export async function runDriver(framework: Framework, project: string, modelUrl: string, env: Record<string, string> = {}): Promise<DriverResult> {
  const finished = await run(nodeFor(framework), [path.join(FRAMEWORKS_DIR, `${framework}.mjs`)], { cwd: project, env: quietEnv({ MODEL_URL: modelUrl, ...env }), timeoutMs: 150_000 });
  const last = finished.stdout.trim().split("\n").at(-1) ?? "";
  if (finished.status !== 0 || !last.startsWith("{")) throw new Error(`${framework}.mjs exited ${String(finished.status)}${finished.timedOut ? " (timed out)" : ""}:\n${finished.stdout.slice(-3000)}\n${finished.stderr.slice(-3000)}`);
  return JSON.parse(last) as DriverResult;
}
