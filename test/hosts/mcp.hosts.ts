import { mkdirSync, readFileSync, symlinkSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { agentFile, runClaude } from "./claude.js";
import { jsonSnippet, snippet } from "./docs.js";
import { cleanUp, linkWorkspaceCli, REPO, tempDir, writeFiles } from "./hosts.js";
import { startModelServer, type ModelServer } from "./model-server.js";
import { PARENT_PROMPT, REPORT, RESEARCHER_PROMPT, selfCheckThenReturn, VALIDATE_RETURN } from "./scenarios.js";

// The real Claude Code starts returnlint's MCP server from the docs' .mcp.json, and the
// scripted subagent checks its own return with it before it returns.

let server: ModelServer;
let home: string;
const registry = inject("registry");

beforeAll(async () => {
  server = await startModelServer();
  home = tempDir("claude-mcp-home");
});

afterAll(async () => {
  await server.close();
  cleanUp();
});

/** A project with the docs' .mcp.json and settings, the subagent told to self-check, and returnlint with @returnlint/mcp installed. */
function project(): string {
  const root = tempDir("claude-mcp");
  const prompt = `${RESEARCHER_PROMPT}\n\n${snippet("mcp-subagent-prompt", "docs/mcp.md")}`;
  writeFiles(root, {
    ".mcp.json": jsonSnippet("mcp-json", "docs/mcp.md"),
    ".claude/settings.local.json": jsonSnippet("mcp-claude-settings", "docs/mcp.md"),
    ".claude/agents/lean-research-agent.md": agentFile("lean-research-agent", prompt, `Read, Write, ${VALIDATE_RETURN}`),
  });
  linkWorkspaceCli(root);
  // As npm lays out @returnlint/mcp: the package, and its bin.
  mkdirSync(path.join(root, "node_modules", "@returnlint"), { recursive: true });
  symlinkSync(path.join(REPO, "packages", "mcp"), path.join(root, "node_modules", "@returnlint", "mcp"), "dir");
  symlinkSync(path.join("..", "@returnlint", "mcp", "dist", "bin.js"), path.join(root, "node_modules", ".bin", "returnlint-mcp"));
  return root;
}

describe("Claude Code 2.1.330 with returnlint's MCP server", () => {
  it("the subagent calls validate_return, is told the report is missing, writes it, checks again, and returns once it passes", async () => {
    const root = project();
    server.play(selfCheckThenReturn(root));
    const run = await runClaude(root, PARENT_PROMPT, { server, home, registry });
    expect(run.status, run.stderr).toBe(0);

    const subagent = server.of("lean-research-agent");
    expect(subagent.map((request) => request.turn)).toEqual([
      "subagent checks its return",
      "subagent writes the report validate_return said is missing",
      "subagent checks again",
      "subagent returns",
    ]);
    // Claude Code offered the server's tools to the subagent.
    expect(subagent[0]?.tools).toContain(VALIDATE_RETURN);
    // The first answer, as the subagent read it: the report, failing on the missing file, at its pointer.
    const first = JSON.parse(subagent[1]?.input ?? "") as { ok: boolean; results: { level: string; message: string; pointer?: string }[] };
    expect(first.ok).toBe(false);
    expect(first.results.filter((result) => result.level === "fail")).toEqual([expect.objectContaining({ message: `Artifact does not exist: ${REPORT}`, pointer: "/artifacts/0/path" })]);
    // The second, after the report was written: the same return passes.
    expect(JSON.parse(subagent[3]?.input ?? "")).toMatchObject({ ok: true, errorCount: 0, status: "completed", command: "research" });
    expect(readFileSync(path.join(root, REPORT), "utf8")).toContain("Checked before returning.");
    expect(server.of("main").map((request) => request.turn)).toContain("parent reads the result");
  });
});
