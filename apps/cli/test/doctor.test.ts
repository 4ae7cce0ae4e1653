import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { project, returnlint } from "./helpers.js";
import { agentMarkdown } from "@returnlint/testing";

// `returnlint doctor`: what a user runs when "nothing happens". Each case is a setup that cannot
// work, said in a sentence with exit 1, or one that can, exit 0. HOME is an empty folder: the
// machine's own ~/.claude must not decide a test.

const VENDORED_HOOK = 'node "${CLAUDE_PROJECT_DIR:-.}"/.claude/hooks/returnlint.cjs hook claude';
const INSTALLED_HOOK = 'node "${CLAUDE_PROJECT_DIR:-.}"/node_modules/returnlint/dist/returnlint.cjs hook claude';

function doctor(root: string, args: readonly string[] = []) {
  return returnlint(["doctor", ...args], { cwd: root, env: { HOME: project() } });
}

/** Every file below root, for "doctor writes nothing". */
function listing(root: string): string[] {
  return readdirSync(root, { recursive: true, encoding: "utf8" }).sort();
}

function subagentStop(command: string, matcher?: string) {
  return { hooks: { SubagentStop: [{ ...(matcher === undefined ? {} : { matcher }), hooks: [{ type: "command", command, timeout: 30 }] }] } };
}

describe("returnlint doctor: Claude Code", () => {
  it("passes the setup init claude writes, runs its command once and writes nothing of its own", () => {
    const root = project({ ".claude/agents/lean-research-agent.md": agentMarkdown("lean-research-agent"), ".claude/agents/planner-agent.md": agentMarkdown("planner-agent") });
    expect(returnlint(["init", "claude"], { cwd: root }).status).toBe(0);
    const before = listing(root);
    const run = doctor(root);
    expect(run.stderr).toBe("");
    expect(run.stdout).toMatch(
      /^Claude Code \(returnlint hook claude\)\n {2}✓ \.claude\/settings\.json runs returnlint when a subagent stops \(SubagentStop, matcher "lean-research-agent\|planner-agent"\)\n {2}✓ the hook runs for lean-research-agent \(\/research\) and planner-agent \(\/plan\)\n {2}✓ the hook command runs from the project \(tried with a stop of an agent it leaves alone: exit 0 in \d+ ms\)\n\nEvery host checked can run returnlint\.\n$/,
    );
    expect(run.status).toBe(0);
    // The vendored copy keeps its code cache beside itself from its first run on, a doctor's or a host's.
    expect(listing(root).filter((file) => !file.includes(".returnlint-cache"))).toEqual(before);
  });

  it("names the agents a matcher leaves out, and fails", () => {
    const root = project({
      ".claude/agents/lean-research-agent.md": agentMarkdown("lean-research-agent"),
      ".claude/agents/implementer-agent.md": agentMarkdown("implementer-agent"),
      ".claude/settings.json": subagentStop(VENDORED_HOOK, "lean-research-agent"),
    });
    const run = doctor(root);
    expect(run.stdout).toContain('  ✗ no SubagentStop matcher takes implementer-agent (/implement): it stops unchecked; run "returnlint init claude" to rebuild the matcher\n');
    expect(run.stdout).toContain("  ✓ the hook runs for lean-research-agent (/research)\n");
    expect(run.stdout).toContain("Claude Code: cannot run returnlint as set up (the ✗ lines say why).\n");
    expect(run.status).toBe(1);
  });

  it("a command that cannot run from the project is said with the reason the shell gave", () => {
    const root = project({ ".claude/agents/lean-research-agent.md": agentMarkdown("lean-research-agent"), ".claude/settings.json": subagentStop(INSTALLED_HOOK) });
    const run = doctor(root);
    expect(run.stdout).toContain(`  ✗ the hook command does not run as a hook from the project (tried with a stop of an agent it leaves alone: exit 1, "Error: Cannot find module '${path.join(root, "node_modules/returnlint/dist/returnlint.cjs")}'"): ${INSTALLED_HOOK}\n`);
    expect(run.status).toBe(1);
  });

  it("no hook, a hook on an event that is no stop, another host's hook, hooks disabled: each a failing line", () => {
    const none = project({ ".claude/settings.json": { model: "opus" } });
    expect(doctor(none).stdout).toContain('  ✗ no SubagentStop hook runs "returnlint hook claude" in .claude/settings.json and .claude/settings.local.json: subagents stop unchecked; run "returnlint init claude"\n');
    expect(doctor(none).status).toBe(1);

    const elsewhere = project({ ".claude/settings.json": { hooks: { PostToolUse: [{ hooks: [{ type: "command", command: VENDORED_HOOK }] }], SubagentStop: [{ hooks: [{ type: "command", command: "npx returnlint hook codex" }] }] } } });
    const run = doctor(elsewhere);
    expect(run.stdout).toContain('  ✗ .claude/settings.json runs "returnlint hook codex" on SubagentStop: that is the hook for another host, which reads another payload; Claude Code\'s is "returnlint hook claude"\n');
    expect(run.stdout).toContain('  ✗ .claude/settings.json runs returnlint on PostToolUse, which is no stop: it never sees a return; register it under "SubagentStop"\n');
    expect(run.status).toBe(1);

    const disabled = project({ ".claude/settings.local.json": { disableAllHooks: true, ...subagentStop(VENDORED_HOOK) } });
    expect(doctor(disabled).stdout).toContain('  ✗ .claude/settings.local.json sets "disableAllHooks": true: Claude Code runs no hook at all\n');
  });

  it("a config that cannot be loaded fails, and the command is not run", () => {
    const root = project({ ".claude/settings.json": subagentStop(VENDORED_HOOK), "returnlint.config.json": { rules: { "no-such-rule": "error" } } });
    const run = doctor(root, ["--host", "claude"]);
    expect(run.stdout).toContain("  ✗ returnlint's config cannot be loaded, so the hook checks nothing and says so at every stop: Invalid configuration in returnlint.config.json (1 problem): rules.no-such-rule: unknown rule");
    expect(run.stdout).not.toContain("tried with a stop");
    expect(run.status).toBe(1);
  });

  it("warns about a project agent named like a host's own agent, which the hook leaves alone", () => {
    const root = project({ ".claude/agents/research.md": agentMarkdown("research"), ".claude/settings.json": subagentStop(VENDORED_HOOK) });
    const run = doctor(root);
    expect(run.stdout).toContain('  ! the project\'s agent research has the name of a host\'s built-in agent, which the hook leaves alone: it is not checked unless the config\'s "agents" map names it\n');
    const mapped = project({ ".claude/agents/research.md": agentMarkdown("research"), ".claude/settings.json": subagentStop(VENDORED_HOOK), "returnlint.config.json": { agents: { research: "research" } } });
    expect(doctor(mapped).stdout).not.toContain("has the name of a host's built-in agent");
  });

  it("warns when the config sends a host's built-in agent to a command", () => {
    const root = project({ ".claude/settings.json": subagentStop(VENDORED_HOOK), "returnlint.config.json": { agents: { Explore: "research" } } });
    expect(doctor(root).stdout).toContain('  ! the config\'s "agents" map sends the host\'s built-in agent Explore to /research: it answers in prose by design and will be sent back; remove the entry unless that is what you want\n');
  });
});

describe("returnlint doctor: OpenCode", () => {
  it("passes a plugin listed in opencode.json, naming the agents it checks", () => {
    const root = project({ "opencode.json": { plugin: ["@returnlint/opencode"] }, ".opencode/agent/researcher.md": agentMarkdown("researcher") });
    const run = doctor(root);
    expect(run.stdout).toBe(
      "OpenCode (returnlint hook opencode)\n  ✓ opencode.json lists @returnlint/opencode: OpenCode installs it from the npm registry when it starts (it needs the network then)\n  ✓ the plugin checks the returns of researcher (/research)\n\nEvery host checked can run returnlint.\n",
    );
    expect(run.status).toBe(0);
  });

  it("fails a local plugin file whose package is not installed, and a project that loads no plugin", () => {
    const local = project({ ".opencode/plugins/returnlint.js": 'export { default } from "@returnlint/opencode";\n' });
    const run = doctor(local);
    expect(run.stdout).toContain('  ✗ .opencode/plugins/returnlint.js loads @returnlint/opencode from node_modules, where it is not installed: OpenCode fails to load the plugin; run "npm install --save-dev @returnlint/opencode"\n');
    expect(run.status).toBe(1);
    const none = project({ "opencode.json": { model: "x" } });
    expect(doctor(none).stdout).toContain('  ✗ OpenCode loads no returnlint plugin: neither opencode.json and opencode.jsonc lists "@returnlint/opencode" nor does a file in .opencode/plugins/ load it; run "returnlint init opencode"\n');
  });
});

describe("returnlint doctor: usage", () => {
  it("a project with no host set up fails in a sentence", () => {
    const root = project({ "README.md": "x" });
    const run = doctor(root);
    expect(run.stdout).toMatch(/^✗ no host is set up in .*: run "returnlint init HOST" \(claude, [^)]*opencode[^)]*\), or name one with --host\n$/);
    expect(run.status).toBe(1);
  });

  it("--host names one, set up or not; an unknown one is a usage error; --format json gives the lines", () => {
    const root = project({ "README.md": "x" });
    const json = JSON.parse(doctor(root, ["--host", "claude", "--format", "json"]).stdout) as { ok: boolean; hosts: { host: string; lines: { level: string; text: string }[] }[] };
    expect(json.ok).toBe(false);
    expect(json.hosts[0]?.host).toBe("claude");
    expect(json.hosts[0]?.lines.map((line) => line.level)).toEqual(["fail"]);
    const unknown = doctor(root, ["--host", "vscode"]);
    expect(unknown.stderr).toMatch(/^returnlint: --host must be one of claude, .*opencode.*; received "vscode"\.\n$/);
    expect(unknown.status).toBe(2);
    expect(doctor(root, ["extra"]).status).toBe(2);
  });
});
