import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { HOSTS_DIR, quietEnv, run } from "./hosts.js";

/**
 * The SDKs that take a JSON Schema as a subagent's structured output, pinned, installed with npm
 * beside the hosts (gitignored .hosts/), outside the workspace's own install: what `returnlint
 * schema` prints is handed to each of them by the drivers in structured-output/.
 */
export const CONSUMERS = {
  "@anthropic-ai/claude-agent-sdk": "0.3.332",
  "@anthropic-ai/sdk": "1.14.0",
  "@modelcontextprotocol/sdk": "1.32.2",
  "@openai/agents": "0.20.0",
  ai: "7.0.173",
  "@ai-sdk/openai-compatible": "3.0.92",
  zod: "4.6.7",
} as const;

const DRIVERS = fileURLToPath(new URL("structured-output/", import.meta.url));
const DIR = path.join(HOSTS_DIR, `structured-output@${Object.values(CONSUMERS).join("-")}`);

/** Installs the pinned SDKs unless they are there already, with the drivers beside them (so that their imports resolve there). */
export function ensureConsumers(): string {
  const installed = Object.entries(CONSUMERS).every(([name, version]) => {
    const manifest = path.join(DIR, "node_modules", name, "package.json");
    return existsSync(manifest) && (JSON.parse(readFileSync(manifest, "utf8")) as { version?: string }).version === version;
  });
  if (!installed) {
    rmSync(DIR, { recursive: true, force: true });
    mkdirSync(DIR, { recursive: true });
    writeFileSync(path.join(DIR, "package.json"), `${JSON.stringify({ name: "hosts-structured-output", private: true, type: "module", dependencies: CONSUMERS }, null, 2)}\n`);
    const install = spawnSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: DIR, encoding: "utf8", timeout: 300_000, env: quietEnv() });
    if (install.status !== 0) throw new Error(`npm install of the structured-output SDKs failed (${String(install.status ?? install.signal)}):\n${install.stderr}`);
  }
  for (const driver of readdirSync(DRIVERS)) copyFileSync(path.join(DRIVERS, driver), path.join(DIR, driver));
  return DIR;
}

/** Runs one driver with the schema file and the answer the scripted model gives; what it printed, parsed. */
export async function runDriver(driver: string, schemaFile: string, answer: unknown, env: Record<string, string> = {}): Promise<Record<string, unknown>> {
  const finished = await run(process.execPath, [path.join(DIR, driver)], { cwd: DIR, env: quietEnv({ SCHEMA_FILE: schemaFile, ANSWER: JSON.stringify(answer), ...env }), timeoutMs: 150_000 });
  const last = finished.stdout.trim().split("\n").at(-1) ?? "";
  if (finished.status !== 0 || !last.startsWith("{")) throw new Error(`${driver} exited ${String(finished.status)}${finished.timedOut ? " (timed out)" : ""}:\n${finished.stdout.slice(-2000)}\n${finished.stderr.slice(-2000)}`);
  return JSON.parse(last) as Record<string, unknown>;
}
