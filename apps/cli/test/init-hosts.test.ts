import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { fileURLToPath } from "node:url";
import { project, returnlint, STACK_FRAME } from "./helpers.js";
import { agentMarkdown } from "@returnlint/testing";

const REPO = fileURLToPath(new URL("../../..", import.meta.url));

const settingsOf = (root: string) => JSON.parse(readFileSync(path.join(root, ".claude", "settings.json"), "utf8")) as { hooks: Record<string, { matcher?: string; hooks: { command: string }[] }[]> };
// A project without returnlint in node_modules: init writes the vendored copy and runs it with node (init-vendor.test.ts runs it).
const HOOK = { type: "command", command: 'node "${CLAUDE_PROJECT_DIR:-.}"/.claude/hooks/returnlint.cjs hook claude', timeout: 30 };
const WROTE_COPY = "Wrote .claude/hooks/returnlint.cjs, returnlint 0.1.0's loader, which the hook runs.\nWrote .claude/hooks/returnlint.pack, returnlint 0.1.0 packed, which its loader unpacks.\n";
const NEXT = "Next: commit .claude/hooks/returnlint.cjs and returnlint.pack with .claude/settings.json: the hook runs it with node, nothing to install";

describe("returnlint init claude", () => {
  it("adds the hook next to the other hooks, with a matcher of the agents returnlint checks", () => {
    const root = project({
      ".claude/agents/lean-research-agent.md": agentMarkdown("lean-research-agent"),
      ".claude/agents/planner.md": agentMarkdown("planner"),
      ".claude/agents/code-reviewer.md": agentMarkdown("code-reviewer", "prose"),
      ".claude/settings.json": { model: "opus", hooks: { Stop: [{ hooks: [{ type: "command", command: "echo done" }] }], SubagentStop: [{ matcher: "x", hooks: [{ type: "command", command: "lint-x" }] }] } },
      "returnlint.config.json": { agents: { "proof-writer": "implement" } },
    });
    const run = returnlint(["init", "claude"], { cwd: root });
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe(
      `${WROTE_COPY}Added the returnlint SubagentStop hook to .claude/settings.json (matcher "lean-research-agent|planner|proof-writer").\n${NEXT}\n` +
        'Also: "returnlint init claude --mcp" adds the MCP server, so that a subagent can check its own return before it stops (docs/mcp.md).\n',
    );
    expect(run.status).toBe(0);
    expect(settingsOf(root)).toEqual({
      model: "opus",
      hooks: {
        Stop: [{ hooks: [{ type: "command", command: "echo done" }] }],
        SubagentStop: [{ matcher: "x", hooks: [{ type: "command", command: "lint-x" }] }, { matcher: "lean-research-agent|planner|proof-writer", hooks: [HOOK] }],
      },
    });
  });

  it("says which agents it leaves alone although their definitions ask for a return: their names map to no command", () => {
    const root = project({
      ".claude/agents/meta-builder-agent.md": agentMarkdown("meta-builder-agent", "json"),
      ".claude/agents/spawn-agent.md": agentMarkdown("spawn-agent", "metadata-file"),
      ".claude/agents/code-reviewer-agent.md": agentMarkdown("code-reviewer-agent", "prose"),
      ".claude/agents/planner.md": agentMarkdown("planner", "metadata-file"),
    });
    const run = returnlint(["init", "claude"], { cwd: root });
    expect(run.status).toBe(0);
    expect(run.stderr).toBe(
      'returnlint: the hook leaves 2 agents (meta-builder-agent, spawn-agent) alone: their definitions ask for a return, but their names map to no command (research, plan, revise, implement); map each to the command whose rules their returns follow in the config\'s "agents" map to check them.\n',
    );
    expect(settingsOf(root).hooks.SubagentStop?.[0]?.matcher).toBe("planner");
    const doctor = returnlint(["doctor", "--host", "claude"], { cwd: root });
    expect(doctor.stdout).toContain("  ! the hook leaves 2 agents (meta-builder-agent, spawn-agent) alone: ");
  });

  it("says which agents' prose the hook lets through: their definitions ask for a line of their own; the hook still runs for them", () => {
    const root = project({
      ".claude/agents/research-specialist.md": agentMarkdown("research-specialist", "prose"),
      ".claude/agents/plan-architect.md": agentMarkdown("plan-architect", "prose"),
      ".claude/agents/planner.md": agentMarkdown("planner", "metadata-file"),
    });
    const run = returnlint(["init", "claude"], { cwd: root });
    expect(run.status).toBe(0);
    expect(run.stderr).toBe(
      'returnlint: the hook lets the prose of 2 agents through (plan-architect, research-specialist): their definitions ask for no return returnlint checks (no JSON return with a "status", no return file such as .return-meta.json), so it checks only a return they give anyway; name one in the config\'s "agents" map to hold it to a return.\n',
    );
    expect(settingsOf(root).hooks.SubagentStop?.[0]?.matcher).toBe("plan-architect|planner|research-specialist");
    const doctor = returnlint(["doctor", "--host", "claude"], { cwd: root });
    expect(doctor.stdout).toContain("  ! the hook lets the prose of 2 agents through (plan-architect, research-specialist): ");
  });

  it("leaves out of the matcher, and says so, the definitions Claude Code does not load: frontmatter with no name", () => {
    const root = project({
      ".claude/agents/research-specialist.md": "---\ndescription: Researches a topic\nmodel: sonnet\n---\n# Research Specialist\n",
      ".claude/agents/README.md": "# Our agents\n",
      ".claude/agents/planner.md": agentMarkdown("planner"),
    });
    const run = returnlint(["init", "claude"], { cwd: root });
    expect(run.status).toBe(0);
    expect(run.stderr).toBe(
      'returnlint: Claude Code loads no agent from .claude/agents/research-specialist.md: its frontmatter has no "name:" (Claude Code needs a name and a description), so it runs it only through general-purpose, whose stops the hook leaves alone; the hook\'s matcher leaves it out.\n',
    );
    expect(settingsOf(root).hooks.SubagentStop?.[0]?.matcher).toBe("planner");
    expect(returnlint(["doctor", "--host", "claude"], { cwd: root }).stdout).toContain('  ! Claude Code loads no agent from .claude/agents/research-specialist.md: its frontmatter has no "name:"');
  });

  it("is idempotent, and updates only the matcher when the agents change", () => {
    const root = project({ ".claude/agents/planner.md": agentMarkdown("planner") });
    expect(returnlint(["init", "claude"], { cwd: root }).status).toBe(0);
    const written = statSync(path.join(root, ".claude", "settings.json")).mtimeMs;
    expect(returnlint(["init", "claude"], { cwd: root }).stdout).toBe(".claude/settings.json already runs returnlint; nothing to change.\n");
    expect(statSync(path.join(root, ".claude", "settings.json")).mtimeMs).toBe(written);

    // A new agent: the same entry, a new matcher.
    const withMore = project({
      ".claude/agents/planner.md": agentMarkdown("planner"),
      ".claude/agents/implementer.md": agentMarkdown("implementer"),
      ".claude/settings.json": settingsOf(root),
      ".claude/hooks/returnlint.cjs": readFileSync(path.join(root, ".claude", "hooks", "returnlint.cjs"), "utf8"),
    });
    expect(returnlint(["init", "claude"], { cwd: withMore }).stdout).toContain('Updated the returnlint hook\'s matcher in .claude/settings.json (matcher "implementer|planner")');
    expect(settingsOf(withMore).hooks.SubagentStop).toEqual([{ matcher: "implementer|planner", hooks: [HOOK] }]);
  });

  it("--mcp adds the MCP server as docs/mcp.md shows it, next to what is there, and is idempotent", () => {
    const docs = readFileSync(path.join(REPO, "docs", "mcp.md"), "utf8");
    const block = (name: string) => JSON.parse(new RegExp(`<!-- hosts-suite: ${name} -->\\n\`\`\`json\\n([\\s\\S]*?)\\n\`\`\``).exec(docs)?.[1] ?? "null") as Record<string, unknown>;
    const root = project({
      ".mcp.json": { mcpServers: { other: { command: "other-server" } } },
      ".claude/settings.local.json": { permissions: { allow: ["Bash(ls)"] } },
    });
    const run = returnlint(["init", "claude", "--mcp"], { cwd: root });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(
      WROTE_COPY +
        "Added the returnlint SubagentStop hook to .claude/settings.json (no matcher: every subagent, the name rule decides).\n" +
        "Added the returnlint MCP server to .mcp.json.\n" +
        '.claude/settings.local.json: the returnlint MCP server enabled and its tools ("mcp__returnlint") allowed.\n'.replace(/^/, "Updated ") +
        `${NEXT}; the MCP server needs @returnlint/mcp in node_modules (docs/install.md)\n`,
    );
    const read = (file: string) => JSON.parse(readFileSync(path.join(root, file), "utf8")) as Record<string, unknown>;
    expect(read(".mcp.json")).toEqual({ mcpServers: { other: { command: "other-server" }, ...(block("mcp-json").mcpServers as object) } });
    expect(read(".claude/settings.local.json")).toEqual({ permissions: { allow: ["Bash(ls)", "mcp__returnlint"] }, enabledMcpjsonServers: ["returnlint"] });
    // In a fresh project, exactly the docs' files.
    const fresh = project({});
    expect(returnlint(["init", "claude", "--mcp"], { cwd: fresh }).status).toBe(0);
    expect(JSON.parse(readFileSync(path.join(fresh, ".mcp.json"), "utf8"))).toEqual(block("mcp-json"));
    expect(JSON.parse(readFileSync(path.join(fresh, ".claude", "settings.local.json"), "utf8"))).toEqual(block("mcp-claude-settings"));
    expect(returnlint(["init", "claude", "--mcp"], { cwd: fresh }).stdout).toBe(".claude/settings.json already runs returnlint, and the MCP server is set up; nothing to change.\n");
    const opencode = returnlint(["init", "opencode", "--mcp"], { cwd: fresh });
    expect(opencode.status).toBe(2);
    expect(opencode.stderr).toBe('returnlint: --mcp is for returnlint init claude; docs/mcp.md shows OpenCode\'s "mcp" entry.\n');
  });

  it("--dry-run prints the file it would write and writes nothing", () => {
    const root = project({ ".claude/agents/planner.md": agentMarkdown("planner") });
    const run = returnlint(["init", "claude", "--dry-run"], { cwd: root });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("Would write .claude/hooks/returnlint.cjs, returnlint 0.1.0's loader, which the hook runs (--dry-run: nothing written).");
    expect(run.stdout).toContain('Would add the returnlint SubagentStop hook to .claude/settings.json (matcher "planner") (--dry-run: nothing written). .claude/settings.json would read:\n{\n  "hooks": {');
    expect(existsSync(path.join(root, ".claude"))).toBe(true);
    expect(existsSync(path.join(root, ".claude", "settings.json"))).toBe(false);
    expect(existsSync(path.join(root, ".claude", "hooks"))).toBe(false);
  });

  it("anchors a regular expression for names Claude Code would not read as names, and leaves the matcher out with no agents", () => {
    const root = project({ "returnlint.config.json": { agents: { "team:researcher": "research", planner: "plan" } } });
    returnlint(["init", "claude"], { cwd: root });
    expect(settingsOf(root).hooks.SubagentStop?.[0]?.matcher).toBe("^(planner|team:researcher)$");
    const bare = project({ ".claude/agents/helper.md": agentMarkdown("helper", "prose") });
    expect(returnlint(["init", "claude"], { cwd: bare }).stdout).toContain("(no matcher: every subagent, the name rule decides)");
    expect(settingsOf(bare).hooks.SubagentStop).toEqual([{ hooks: [HOOK] }]);
  });

  it("leaves a settings file that is not JSON as it is: exit 2 and a sentence", () => {
    const root = project({ ".claude/settings.json": "{ \"hooks\": " });
    const run = returnlint(["init", "claude"], { cwd: root });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^returnlint: Cannot update .*\.claude\/settings\.json: it is not JSON \(.*\)\. init changes nothing\.\n$/);
    expect(run.stderr).not.toMatch(STACK_FRAME);
    expect(readFileSync(path.join(root, ".claude", "settings.json"), "utf8")).toBe('{ "hooks": ');
  });
});

describe("returnlint init opencode", () => {
  it("writes opencode.json with the plugin, then changes nothing", () => {
    const root = project({});
    const run = returnlint(["init", "opencode"], { cwd: root });
    expect(run.stdout).toBe('Added "@returnlint/opencode" to the plugins of opencode.json (a new file).\nNext: nothing: OpenCode installs the plugin from the npm registry when it starts\n');
    expect(JSON.parse(readFileSync(path.join(root, "opencode.json"), "utf8"))).toEqual({ $schema: "https://opencode.ai/config.json", plugin: ["@returnlint/opencode"] });
    expect(returnlint(["init", "opencode"], { cwd: root }).stdout).toBe("OpenCode already loads @returnlint/opencode; nothing to change.\n");
  });

  it("adds the plugin to an existing config, keeping the rest and a tuple entry counts as there", () => {
    const root = project({ "opencode.json": { model: "anthropic/claude", plugin: ["other-plugin"] } });
    returnlint(["init", "opencode"], { cwd: root });
    expect(JSON.parse(readFileSync(path.join(root, "opencode.json"), "utf8"))).toEqual({ model: "anthropic/claude", plugin: ["other-plugin", "@returnlint/opencode"] });
    const tuple = project({ "opencode.json": { plugin: [["@returnlint/opencode", { config: "x.json" }]] } });
    expect(returnlint(["init", "opencode"], { cwd: tuple }).stdout).toContain("nothing to change");
  });

  it("--local writes the re-exporting plugin file once, and never over another file", () => {
    const root = project({});
    expect(returnlint(["init", "opencode", "--local"], { cwd: root }).stdout).toContain("Wrote .opencode/plugins/returnlint.js, which loads @returnlint/opencode from node_modules.");
    expect(readFileSync(path.join(root, ".opencode", "plugins", "returnlint.js"), "utf8")).toContain('export { default } from "@returnlint/opencode";');
    expect(returnlint(["init", "opencode", "--local"], { cwd: root }).stdout).toContain("nothing to change");
    const other = project({ ".opencode/plugins/returnlint.js": "export default {};\n" });
    const run = returnlint(["init", "opencode", "--local"], { cwd: other });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(".opencode/plugins/returnlint.js exists and is not the one init writes; init changes nothing.");
  });

  it("says what it takes", () => {
    const run = returnlint(["init", "windsurf"], { cwd: project({}) });
    expect(run.status).toBe(2);
    expect(returnlint(["init", "claude", "--local"], { cwd: project({}) }).stderr).toContain("--local is for returnlint init opencode.");
    expect(returnlint(["init", "claude", "--help"], { cwd: project({}) }).stdout).toContain("Usage: returnlint init claude [--vendor] [--mcp] [--dry-run]");
    expect(returnlint(["init", "opencode", "--vendor"], { cwd: project({}) }).stderr).toContain("--vendor is for returnlint init claude");
  });
});
