import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { project, returnlint } from "./helpers.js";
import { agentMarkdown } from "@returnlint/testing";

// `returnlint doctor --host copilot`: Copilot CLI skips an untrusted folder's hooks, runs every
// subagentStop hook for every subagent, and runs Claude Code's SubagentStop hooks too. HOME is a
// folder of the test's own: the machine's ~/.copilot must not decide a test. (The real Copilot
// CLI reads the same trust: test/hosts/copilot.hosts.ts.)

const VENDORED = "node .github/hooks/returnlint.cjs hook copilot";

/** A home whose ~/.copilot/config.json trusts `folders`, written as Copilot CLI writes it (with its comment lines). */
function home(folders: readonly string[]): string {
  const dir = project({});
  mkdirSync(path.join(dir, ".copilot"));
  writeFileSync(path.join(dir, ".copilot", "config.json"), `// User settings belong in settings.json.\n// This file is managed automatically.\n${JSON.stringify({ trustedFolders: folders, firstLaunchAt: "2026-11-26T03:09:27.697Z" }, null, 2)}\n`);
  return dir;
}

function doctor(root: string, env: Record<string, string>) {
  return returnlint(["doctor", "--host", "copilot"], { cwd: root, env: { COPILOT_HOME: "", COPILOT_ALLOW_ALL: "", ...env } });
}

/** A project set up by `returnlint init copilot` (the vendored copy), with a research agent. */
function initialised(files: Record<string, unknown> = {}): string {
  const root = project({ ".github/agents/lean-research-agent.agent.md": agentMarkdown("lean-research-agent"), ...files });
  expect(returnlint(["init", "copilot"], { cwd: root }).status).toBe(0);
  return root;
}

const SLOW = { timeout: 60_000 };

describe("returnlint doctor: Copilot CLI", SLOW, () => {
  it("passes the setup init copilot writes in a trusted folder, naming the agents it checks", () => {
    const root = initialised();
    const run = doctor(root, { HOME: home([path.dirname(root)]) });
    expect(run.stdout).toMatch(
      new RegExp(
        `^Copilot CLI \\(returnlint hook copilot\\)\\n {2}✓ \\.github/hooks/returnlint\\.json runs returnlint when a subagent stops \\(subagentStop\\); Copilot CLI runs it for every subagent, matcher or not\\n {2}✓ Copilot CLI trusts the folder: ~/\\.copilot/config\\.json lists ${path.dirname(root)} under "trustedFolders"\\n {2}✓ the hook checks lean-research-agent \\(/research\\)\\n {2}✓ the hook command runs from the project \\(tried with a stop of an agent it leaves alone: exit 0 in \\d+ ms\\)\\n\\nEvery host checked can run returnlint\\.\\n$`,
      ),
    );
    expect(run.status).toBe(0);
  });

  it("an untrusted folder fails: Copilot CLI would skip the hook without a word; COPILOT_ALLOW_ALL=true and COPILOT_HOME are read as Copilot CLI reads them", () => {
    const root = initialised();
    const untrusted = doctor(root, { HOME: home(["/somewhere/else"]) });
    expect(untrusted.stdout).toContain(
      `  ✗ Copilot CLI does not trust ${root} (~/.copilot/config.json lists neither it nor a folder above it under "trustedFolders"), so it skips the project's hooks without a word: start "copilot" here once and let it remember the folder, or run "copilot -p" with --trust-folder or COPILOT_ALLOW_ALL=true every time\n`,
    );
    expect(untrusted.status).toBe(1);
    expect(doctor(root, { HOME: home([]), COPILOT_ALLOW_ALL: "true" }).status).toBe(0);
    // "1" only approves tools: it trusts no folder.
    expect(doctor(root, { HOME: home([]), COPILOT_ALLOW_ALL: "1" }).status).toBe(1);
    const copilotHome = path.join(home([root]), ".copilot");
    const elsewhere = doctor(root, { HOME: home([]), COPILOT_HOME: copilotHome });
    expect(elsewhere.stdout).toContain(`  ✓ Copilot CLI trusts the folder: ${copilotHome}/config.json lists it under "trustedFolders"\n`);
    expect(elsewhere.status).toBe(0);
  });

  it("returnlint run twice for one stop (its own hook and Claude Code's) fails: each run counts the attempt", () => {
    const root = initialised();
    // Added after init copilot, which adds nothing where a Claude Code hook runs returnlint already.
    mkdirSync(path.join(root, ".claude"));
    const claudeHook = { type: "command", command: 'node "${CLAUDE_PROJECT_DIR:-.}"/.github/hooks/returnlint.cjs hook claude', timeout: 30 };
    writeFileSync(path.join(root, ".claude", "settings.json"), JSON.stringify({ hooks: { SubagentStop: [{ matcher: "lean-research-agent", hooks: [claudeHook] }] } }));
    const run = doctor(root, { HOME: home([root]) });
    expect(run.stdout).toContain(
      '  ✗ returnlint runs 2 times when a subagent stops (.github/hooks/returnlint.json (subagentStop) and .claude/settings.json (SubagentStop)): each run counts the attempt, so a failing return is let through after one block as "repeated-feedback"; keep one (a project that Claude Code runs too keeps .claude/settings.json\'s, which Copilot CLI runs as well)\n',
    );
    expect(run.stdout).toContain("  ✓ .github/hooks/returnlint.json: the hook command runs from the project");
    expect(run.stdout).toContain("  ✓ .claude/settings.json: the hook command runs from the project");
    expect(run.status).toBe(1);
  });

  it("Claude Code's SubagentStop hook alone is Copilot CLI's hook too", () => {
    const root = project({ ".claude/agents/lean-research-agent.md": agentMarkdown("lean-research-agent"), ".github/agents/planner.agent.md": agentMarkdown("planner") });
    expect(returnlint(["init", "claude"], { cwd: root }).status).toBe(0);
    const run = doctor(root, { HOME: home([root]) });
    expect(run.stdout).toContain("  ✓ .claude/settings.json runs returnlint when a subagent stops (SubagentStop, Claude Code's hook, which Copilot CLI runs with Claude Code's fields); Copilot CLI runs it for every subagent, matcher or not\n");
    expect(run.stdout).toContain("  ✓ the hook checks planner (/plan) and lean-research-agent (/research)\n");
    expect(run.status).toBe(0);
  });

  it("unresolvable, on agentStop, another host's, disabled, none: each a failing line", () => {
    const trusted = (root: string) => ({ HOME: home([root]) });
    const missing = project({ ".github/hooks/returnlint.json": { version: 1, hooks: { subagentStop: [{ type: "command", bash: VENDORED, cwd: "." }] } } });
    const run = doctor(missing, trusted(missing));
    expect(run.stdout).toContain(`  ✗ the hook command does not run as a hook from the project (tried with a stop of an agent it leaves alone: exit 1, "Error: Cannot find module '${path.join(missing, ".github/hooks/returnlint.cjs")}'"): ${VENDORED}\n`);
    expect(run.status).toBe(1);

    const wrongEvents = project({ ".github/hooks/returnlint.json": { version: 1, hooks: { agentStop: [{ type: "command", bash: VENDORED }], subagentStop: [{ type: "command", bash: "npx returnlint hook codex" }] } } });
    const wrong = doctor(wrongEvents, trusted(wrongEvents));
    expect(wrong.stdout).toContain('  ✗ .github/hooks/returnlint.json runs "returnlint hook codex" on subagentStop: that is the hook for another host, which reads another payload; Copilot CLI\'s is "returnlint hook copilot"\n');
    expect(wrong.stdout).toContain('  ✗ .github/hooks/returnlint.json runs returnlint on agentStop, which carries no final message, and inside a subagent a block there does not send it back: register it under "subagentStop"\n');
    expect(wrong.stdout).toContain('  ✗ no subagentStop hook runs returnlint in .github/hooks/*.json, .claude/settings.json or the settings Copilot CLI reads: subagents stop unchecked; run "returnlint init copilot"\n');
    expect(wrong.status).toBe(1);

    const disabled = initialised({ ".github/copilot/settings.json": { disableAllHooks: true } });
    expect(doctor(disabled, trusted(disabled)).stdout).toContain('  ✗ .github/copilot/settings.json sets "disableAllHooks": true: Copilot CLI runs no hook at all\n');
  });

  it("warns when a project agent has a built-in agent's name, or the config sends a built-in agent to a command", () => {
    const root = initialised({ ".github/agents/research.agent.md": agentMarkdown("research"), "returnlint.config.json": { agents: { explore: "research" } } });
    const run = doctor(root, { HOME: home([root]) });
    expect(run.stdout).toContain(`  ! the project's agent research has the name of a host's built-in agent, which the hook leaves alone: it is not checked unless the config's "agents" map names it\n`);
    expect(run.stdout).toContain('  ! the config\'s "agents" map sends the host\'s built-in agent explore to /research');
    expect(run.status).toBe(0);
  });
});
