// `returnlint mcp` from a clone of returnlint starts the server the clone has (packages/mcp), and
// elsewhere says what to run instead of naming a package to install from the registry.
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BIN, project, REPO, STACK_FRAME } from "./helpers.js";

const initialize = `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "test", version: "1" } } })}\n`;

function mcp(cwd: string, bin = BIN) {
  // Without the NODE_PATH that pnpm gives the tests (the workspace's hoisted packages): a user's environment.
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: "1" };
  delete env.NODE_PATH;
  const run = spawnSync(process.execPath, [bin, "mcp"], { cwd, input: initialize, encoding: "utf8", timeout: 30_000, env });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe("returnlint mcp", { timeout: 60_000 }, () => {
  it("from the clone, starts the clone's server: it answers initialize as returnlint, and exits 0 when the client closes", () => {
    const run = mcp(REPO);
    expect(run.stderr).toBe("");
    expect(JSON.parse(run.stdout.split("\n")[0] ?? "")).toMatchObject({ id: 1, result: { serverInfo: { name: "returnlint" } } });
    expect(run.status).toBe(0);
  });

  it("from a project outside the clone, the clone's bin still finds the server it was built with", () => {
    expect(mcp(project({})).status).toBe(0);
  });

  it("where no server can be found, says what to run: exit 2, a sentence, no stack trace", () => {
    // The vendored copy, in a project of its own: no node_modules, no clone around it.
    const root = project({});
    const copy = path.join(root, ".claude", "hooks", "returnlint.cjs");
    mkdirSync(path.dirname(copy), { recursive: true });
    copyFileSync(path.join(REPO, "apps", "cli", "dist", "returnlint-vendored.cjs"), copy);
    copyFileSync(path.join(REPO, "apps", "cli", "dist", "returnlint-vendored.pack"), path.join(path.dirname(copy), "returnlint.pack"));
    const run = mcp(root, copy);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("returnlint mcp runs the server of the @returnlint/mcp package, which is not installed here.");
    expect(run.stderr).toContain("docs/install.md");
    expect(run.stderr).not.toMatch(STACK_FRAME);
  });
});
