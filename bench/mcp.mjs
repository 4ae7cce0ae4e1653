// Case 6, in a child process of its own: the MCP server (@returnlint/mcp) as a client meets it.
// Prints one JSON line: per round, the milliseconds from spawning the server to its first
// tools/list answer and, interleaved with them, one cold `returnlint check` of the same return;
// then validate_return round trips per second on one connection, after start.
//
// Usage: node bench/mcp.mjs ROOT ROUNDS SECONDS
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";

const [root, roundsArgument, secondsArgument] = process.argv.slice(2);
const REPO = fileURLToPath(new URL("..", import.meta.url));
const SERVER = path.join(REPO, "packages", "mcp", "dist", "bin.js");
const CLI = path.join(REPO, "apps", "cli", "dist", "returnlint.cjs");
// The SDK is @returnlint/mcp's dependency: its client comes from there.
const sdk = createRequire(path.join(REPO, "packages", "mcp", "package.json"));
const { Client } = await import(pathToFileURL(sdk.resolve("@modelcontextprotocol/sdk/client/index.js")).href);
const { StdioClientTransport } = await import(pathToFileURL(sdk.resolve("@modelcontextprotocol/sdk/client/stdio.js")).href);

const env = { PATH: process.env.PATH ?? "", NO_COLOR: "1" };
const text = readFileSync(path.join(root, "return.json"), "utf8");

async function connect() {
  const client = new Client({ name: "returnlint-bench", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [SERVER], cwd: root, env, stderr: "ignore" }));
  return client;
}

const startMs = [];
const checkMs = [];
for (let round = 0; round < Number(roundsArgument) + 2; round += 1) {
  const started = performance.now();
  const client = await connect();
  const { tools } = await client.listTools();
  const elapsed = performance.now() - started;
  await client.close();
  if (tools.length !== 4) throw new Error(`expected 4 tools, got ${String(tools.length)}`);
  const before = performance.now();
  const checked = spawnSync(process.execPath, [CLI, "check", "return.json", "--command", "research"], { cwd: root, env, stdio: "ignore" });
  const checkElapsed = performance.now() - before;
  if (checked.status !== 0) throw new Error(`returnlint check exited ${String(checked.status)}`);
  // Two warm-up rounds, not reported.
  if (round >= 2) {
    startMs.push(elapsed);
    checkMs.push(checkElapsed);
  }
}

const client = await connect();
const call = async () => {
  const result = await client.callTool({ name: "validate_return", arguments: { text, command: "research" } });
  if (result.structuredContent?.ok !== true) throw new Error(`validate_return: ${JSON.stringify(result.content)}`);
};
for (let warm = 0; warm < 50; warm += 1) await call();
const perSecond = [];
for (let round = 0; round < 3; round += 1) {
  const until = performance.now() + Number(secondsArgument) * 1000;
  const started = performance.now();
  let count = 0;
  while (performance.now() < until) {
    await call();
    count += 1;
  }
  perSecond.push(count / ((performance.now() - started) / 1000));
}
await client.close();
process.stdout.write(`${JSON.stringify({ startMs, checkMs, perSecond })}\n`);
