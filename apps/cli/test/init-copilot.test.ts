// `returnlint init copilot`: the subagentStop hook in .github/hooks/returnlint.json, and the
// command it writes run as Copilot CLI runs a hook (bash in the project's root, the camelCase
// payload on standard input). test/hosts/copilot.hosts.ts runs it in the real Copilot CLI.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { finalMessage } from "./claude-payloads.js";
import { project, REPO, returnlint } from "./helpers.js";
import { agentMarkdown } from "@returnlint/testing";

const VENDORED = path.join(REPO, "apps", "cli", "dist", "returnlint-vendored.cjs");
const REPORT = "specs/259_prove_lemma/reports/research-001.md";
const hooksOf = (root: string) => JSON.parse(readFileSync(path.join(root, ".github", "hooks", "returnlint.json"), "utf8")) as { version?: number; hooks: Record<string, Record<string, unknown>[]> };
const entry = (command: string) => ({ type: "command", bash: command, powershell: command, cwd: ".", timeoutSec: 30 });
const VENDORED_COMMAND = "node .github/hooks/returnlint.cjs hook copilot";
const INSTALLED_COMMAND = "node node_modules/returnlint/dist/returnlint.cjs hook copilot";
const TRUST = (root: string) =>
  `Trust: Copilot CLI runs a project's hooks only in a folder you trust, and skips them without a word otherwise. Start "copilot" in ${root} once and let it remember the folder (it lists it under "trustedFolders" in ~/.copilot/config.json), or run "copilot -p" with --trust-folder or COPILOT_ALLOW_ALL=true; "returnlint doctor --host copilot" says whether the hook will run.\n`;

/** The subagentStop payload Copilot CLI 1.0.102 sends (packages/hooks/src/hosts/fixtures/copilot-1.0.102/subagentStop.json), ending with `message`. */
function subagentStop(root: string, message: string): string {
  const recorded = JSON.parse(readFileSync(path.join(REPO, "packages", "hooks", "src", "hosts", "fixtures", "copilot-1.0.102", "subagentStop.json"), "utf8")) as Record<string, unknown>;
  return JSON.stringify({ ...recorded, cwd: root, response: message });
}

/** The written command as Copilot CLI runs it: bash in the entry's cwd, the payload on standard input. */
function runHook(root: string, message: string) {
  const [hook] = hooksOf(root).hooks.subagentStop ?? [];
  const run = spawnSync("bash", ["-c", String(hook?.bash)], { cwd: path.join(root, String(hook?.cwd)), env: { PATH: process.env.PATH, HOME: root, COPILOT_PROJECT_DIR: root }, input: subagentStop(root, message), encoding: "utf8", timeout: 30_000 });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

const SLOW = { timeout: 60_000 };

describe("returnlint init copilot", SLOW, () => {
  it("in a project without returnlint installed: the vendored copy and its hook, which blocks a phantom return and passes a good one", () => {
    const root = project({ ".github/agents/lean-research-agent.agent.md": agentMarkdown("lean-research-agent"), ".github/agents/helper.agent.md": agentMarkdown("helper", "prose") });
    const init = returnlint(["init", "copilot"], { cwd: root });
    expect(init.stderr).toBe("");
    expect(init.stdout).toBe(
      "Wrote .github/hooks/returnlint.cjs, returnlint 0.1.0's loader, which the hook runs.\nWrote .github/hooks/returnlint.pack, returnlint 0.1.0 packed, which its loader unpacks.\n" +
        "Added the returnlint subagentStop hook to .github/hooks/returnlint.json (no matcher: Copilot CLI runs it for every subagent; it checks lean-research-agent).\n" +
        "Next: commit .github/hooks/returnlint.cjs and returnlint.pack with .github/hooks/returnlint.json: the hook runs it with node, nothing to install\n" +
        TRUST(root),
    );
    expect(init.status).toBe(0);
    expect(hooksOf(root)).toEqual({ version: 1, hooks: { subagentStop: [entry(VENDORED_COMMAND)] } });
    expect(readFileSync(path.join(root, ".github", "hooks", "returnlint.cjs"))).toEqual(readFileSync(VENDORED));
    expect(readFileSync(path.join(root, ".github", "hooks", "returnlint.pack"))).toEqual(readFileSync(VENDORED.replace(/\.cjs$/, ".pack")));

    const blocked = runHook(root, finalMessage([REPORT]));
    expect(blocked.status).toBe(0);
    expect((JSON.parse(blocked.stdout) as { decision: string; reason: string }).reason).toContain(`- /artifacts/0/path: file "${REPORT}" does not exist; write it, or fix the path.`);
    mkdirSync(path.join(root, path.dirname(REPORT)), { recursive: true });
    writeFileSync(path.join(root, REPORT), "# Research Report\n\nThe lemma follows from the induction hypothesis.\n");
    expect(runHook(root, finalMessage([REPORT], "researched"))).toEqual({ status: 0, stdout: "", stderr: "" });
  });

  it("is idempotent, and says what trusting the folder takes each time", () => {
    const root = project({});
    expect(returnlint(["init", "copilot"], { cwd: root }).status).toBe(0);
    const written = statSync(path.join(root, ".github", "hooks", "returnlint.json")).mtimeMs;
    expect(returnlint(["init", "copilot"], { cwd: root }).stdout).toBe(`.github/hooks/returnlint.json already runs returnlint; nothing to change.\n${TRUST(root)}`);
    expect(statSync(path.join(root, ".github", "hooks", "returnlint.json")).mtimeMs).toBe(written);
  });

  it("runs node_modules' copy where returnlint is installed; keeps the file's other hooks; moves an older command to it, keeping its options", () => {
    const root = project({
      "node_modules/returnlint/dist/returnlint.cjs": "// installed\n",
      ".github/hooks/returnlint.json": { version: 1, hooks: { sessionStart: [{ type: "command", bash: "echo start" }], subagentStop: [{ type: "command", bash: "lint-x" }, { type: "command", bash: "npx --no-install returnlint hook copilot --max-blocks 1", timeoutSec: 60 }] } },
    });
    const run = returnlint(["init", "copilot"], { cwd: root });
    expect(run.stdout).toContain(`Updated the returnlint hook's command in .github/hooks/returnlint.json ("${INSTALLED_COMMAND}").\nNext: keep returnlint in the project's devDependencies: the hook runs node_modules/returnlint with node\n`);
    expect(existsSync(path.join(root, ".github", "hooks", "returnlint.cjs"))).toBe(false);
    expect(hooksOf(root)).toEqual({
      version: 1,
      hooks: { sessionStart: [{ type: "command", bash: "echo start" }], subagentStop: [{ type: "command", bash: "lint-x" }, { type: "command", bash: `${INSTALLED_COMMAND} --max-blocks 1`, timeoutSec: 60 }] },
    });
  });

  it("adds nothing where Claude Code's SubagentStop hook already runs returnlint: Copilot CLI runs it too, and two would count each attempt twice", () => {
    const root = project({ ".claude/agents/lean-research-agent.md": agentMarkdown("lean-research-agent") });
    expect(returnlint(["init", "claude"], { cwd: root }).status).toBe(0);
    const run = returnlint(["init", "copilot"], { cwd: root });
    expect(run.stdout).toBe(`Copilot CLI already runs returnlint when a subagent stops: .claude/settings.json (SubagentStop), and a second hook would count every attempt twice; nothing to change.\n${TRUST(root)}`);
    expect(run.status).toBe(0);
    expect(existsSync(path.join(root, ".github"))).toBe(false);

    // Its own file with the hook under the PascalCase event (Claude Code's fields) is a hook there too.
    const pascal = project({ ".github/hooks/returnlint.json": { hooks: { SubagentStop: [{ type: "command", command: "npx --no-install returnlint hook copilot" }] } } });
    expect(returnlint(["init", "copilot"], { cwd: pascal }).stdout).toContain("Copilot CLI already runs returnlint when a subagent stops: .github/hooks/returnlint.json (SubagentStop), and a second hook");
  });

  it("--dry-run writes nothing; a hooks file that is not JSON is left as it is, exit 2", () => {
    const root = project({ "node_modules/returnlint/dist/returnlint.cjs": "// installed\n" });
    const dry = returnlint(["init", "copilot", "--dry-run"], { cwd: root });
    expect(dry.stdout).toBe(
      `Would add the returnlint subagentStop hook to .github/hooks/returnlint.json (no matcher: Copilot CLI runs it for every subagent; no agent of .github/agents/ or the config's agents map maps to a command yet, the name rule decides) (--dry-run: nothing written). .github/hooks/returnlint.json would read:\n${JSON.stringify({ version: 1, hooks: { subagentStop: [entry(INSTALLED_COMMAND)] } }, null, 2)}\n`,
    );
    expect(existsSync(path.join(root, ".github"))).toBe(false);

    const broken = project({ ".github/hooks/returnlint.json": "{ version: 1 }" });
    const run = returnlint(["init", "copilot"], { cwd: broken });
    expect(run.stderr).toMatch(/^returnlint: Cannot update .*\.github\/hooks\/returnlint\.json: it is not JSON \(.*\)\. init changes nothing\.\n$/);
    expect(run.status).toBe(2);
    expect(readFileSync(path.join(broken, ".github", "hooks", "returnlint.json"), "utf8")).toBe("{ version: 1 }");
  });
});
