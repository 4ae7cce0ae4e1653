import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { project, returnlint } from "./helpers.js";
import { agentToml } from "@returnlint/testing";

const hooksOf = (root: string) => JSON.parse(readFileSync(path.join(root, ".codex", "hooks.json"), "utf8")) as { hooks: Record<string, { matcher?: string; hooks: { command: string }[] }[]> };
const ROOT = '"$(git rev-parse --show-toplevel 2>/dev/null || pwd)"';
const VENDORED = { type: "command", command: `node ${ROOT}/.codex/hooks/returnlint.cjs hook codex`, timeout: 30 };
const TRUST = "Codex runs a project's hook only once you trust the project and the hook, and skips an untrusted one without a word";

describe("returnlint init codex", () => {
  it("adds the hook after the hooks there, with a matcher of the project's agents, and says how to trust it", () => {
    const root = project({
      ".codex/agents/lean.toml": agentToml("lean-research-agent"),
      ".codex/agents/reviewer.toml": agentToml("code-reviewer", "prose"),
      ".codex/config.toml": '[agents]\nmax_threads = 4\n\n[agents.planner]\ndescription = "Plans"\nconfig_file = "agents/planner.toml"\n',
      ".codex/hooks.json": { hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "guard" }] }], SubagentStop: [{ hooks: [{ type: "command", command: "notify" }] }] } },
      "returnlint.config.json": { agents: { proof_writer: "implement" } },
    });
    const run = returnlint(["init", "codex"], { cwd: root });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("Wrote .codex/hooks/returnlint.cjs, returnlint 0.1.0's loader, which the hook runs.\nWrote .codex/hooks/returnlint.pack, returnlint 0.1.0 packed, which its loader unpacks.\n");
    expect(run.stdout).toContain('Added the returnlint SubagentStop hook to .codex/hooks.json (matcher "^(lean-research-agent|planner|proof_writer)$").\n');
    expect(run.stdout).toContain("Next: commit .codex/hooks/returnlint.cjs and returnlint.pack with .codex/hooks.json: the hook runs it with node, nothing to install.\n");
    expect(run.stdout).toContain(`${TRUST}: start codex in this project (trust the project when it asks), open /hooks, review the SubagentStop hook that runs returnlint and trust it`);
    expect(run.stdout).toContain("init does not trust it for you.");
    // The other hooks keep their places: Codex names a trusted hook by its place.
    expect(hooksOf(root)).toEqual({
      hooks: {
        PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "guard" }] }],
        SubagentStop: [{ hooks: [{ type: "command", command: "notify" }] }, { matcher: "^(lean-research-agent|planner|proof_writer)$", hooks: [VENDORED] }],
      },
    });
    // The copy: its loader, and the bundle packed beside it.
    expect(statSync(path.join(root, ".codex", "hooks", "returnlint.pack")).size).toBeGreaterThan(100_000);
    expect(execFileSync(process.execPath, [path.join(root, ".codex", "hooks", "returnlint.cjs"), "--version"], { encoding: "utf8" })).toBe("0.1.0\n");
  });

  it("is idempotent, and updates the matcher when the agents change, keeping the hook's options and saying Codex must trust it again", () => {
    const root = project({ ".codex/agents/planner.toml": agentToml("planner") });
    expect(returnlint(["init", "codex"], { cwd: root }).status).toBe(0);
    const written = statSync(path.join(root, ".codex", "hooks.json")).mtimeMs;
    expect(returnlint(["init", "codex"], { cwd: root }).stdout).toBe('.codex/hooks.json already runs returnlint ("returnlint doctor --host codex" checks that Codex trusts it); nothing to change.\n');
    expect(statSync(path.join(root, ".codex", "hooks.json")).mtimeMs).toBe(written);

    const settings = hooksOf(root);
    const hook = settings.hooks.SubagentStop?.[0]?.hooks[0];
    if (hook !== undefined) hook.command += " --max-blocks 2";
    writeFileSync(path.join(root, ".codex", "hooks.json"), JSON.stringify(settings));
    writeFileSync(path.join(root, ".codex", "agents", "implementer.toml"), agentToml("implementer"));
    const run = returnlint(["init", "codex"], { cwd: root });
    expect(run.stdout).toContain('Updated the returnlint hook\'s matcher in .codex/hooks.json (matcher "implementer|planner"); Codex skips it until you trust it again.\n');
    expect(hooksOf(root).hooks.SubagentStop).toEqual([{ matcher: "implementer|planner", hooks: [{ ...VENDORED, command: `${VENDORED.command} --max-blocks 2` }] }]);
  });

  it("runs node_modules' returnlint where it is installed, and the copy with --vendor", () => {
    const root = project({ "node_modules/returnlint/dist/returnlint.cjs": "// installed\n", ".codex/agents/planner.toml": agentToml("planner") });
    const run = returnlint(["init", "codex"], { cwd: root });
    expect(run.stdout).toContain("Next: keep returnlint in the project's devDependencies: the hook runs node_modules/returnlint with node.\n");
    expect(hooksOf(root).hooks.SubagentStop?.[0]?.hooks[0]?.command).toBe(`node ${ROOT}/node_modules/returnlint/dist/returnlint.cjs hook codex`);
    expect(existsSync(path.join(root, ".codex", "hooks", "returnlint.cjs"))).toBe(false);
    expect(returnlint(["init", "codex", "--vendor"], { cwd: root }).stdout).toContain(`Updated the returnlint hook's command in .codex/hooks.json ("${VENDORED.command}")`);
  });

  it("finds the project below the repository's root from wherever Codex runs the hook", () => {
    const repository = project({ ".git/HEAD": "ref: refs/heads/main\n", "packages/app/.codex/agents/planner.toml": agentToml("planner") });
    const run = returnlint(["init", "codex"], { cwd: path.join(repository, "packages", "app") });
    expect(run.status).toBe(0);
    expect(hooksOf(path.join(repository, "packages", "app")).hooks.SubagentStop?.[0]?.hooks[0]?.command).toBe(`node ${ROOT}/packages/app/.codex/hooks/returnlint.cjs hook codex`);
  });

  it("--dry-run prints the file and writes nothing; a hooks.json it cannot edit is left as it is", () => {
    const root = project({ ".codex/agents/planner.toml": agentToml("planner") });
    const run = returnlint(["init", "codex", "--dry-run"], { cwd: root });
    expect(run.stdout).toContain('Would add the returnlint SubagentStop hook to .codex/hooks.json (matcher "planner") (--dry-run: nothing written). .codex/hooks.json would read:\n{\n  "hooks": {');
    expect(existsSync(path.join(root, ".codex"))).toBe(true);
    expect(existsSync(path.join(root, ".codex", "hooks.json"))).toBe(false);

    mkdirSync(path.join(root, ".codex"), { recursive: true });
    writeFileSync(path.join(root, ".codex", "hooks.json"), '{"hooks": {"SubagentStop": {}}}');
    const broken = returnlint(["init", "codex"], { cwd: root });
    expect(broken.status).toBe(2);
    expect(broken.stderr).toContain('"hooks.SubagentStop" is not an array. init changes nothing.');
    expect(readFileSync(path.join(root, ".codex", "hooks.json"), "utf8")).toBe('{"hooks": {"SubagentStop": {}}}');
  });
});
