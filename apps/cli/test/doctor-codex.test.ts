import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { loadReturnlintConfig } from "@returnlint/api";
import { afterAll, describe, expect, it } from "vitest";
import { codexHookHash, codexHookKey, codexMatcher, codexMatches } from "../src/commands/codex-config.js";
import { codexDoctor } from "../src/doctor/codex.js";
import { project } from "./helpers.js";
import { agentToml } from "@returnlint/testing";

// `returnlint doctor --host codex`'s checks, on projects set up the ways that leave Codex running
// no hook without a word: untrusted, mis-matched, unresolvable. (test/hosts/codex.hosts.ts runs
// the real Codex on the same setups.)

const homes: string[] = [];
afterAll(() => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

const COMMAND = 'node "$(git rev-parse --show-toplevel 2>/dev/null || pwd)"/.codex/hooks/returnlint.cjs hook codex';

/** A project with two agents, a hooks.json holding `entry` after another team's hook, and the vendored copy. */
function codexProject(entry: Record<string, unknown> | undefined, files: Readonly<Record<string, unknown>> = {}): string {
  return project({
    ".codex/agents/lean-research-agent.toml": agentToml("lean-research-agent"),
    ".codex/agents/planner.toml": agentToml("planner"),
    ".codex/hooks/returnlint.cjs": "// the vendored copy\n",
    ...(entry === undefined ? {} : { ".codex/hooks.json": { hooks: { SubagentStop: [{ hooks: [{ type: "command", command: "lint-x" }] }, entry] } } }),
    ...files,
  });
}

const ENTRY = { matcher: "^(lean-research-agent|planner)$", hooks: [{ type: "command", command: COMMAND, timeout: 30 }] };

/** CODEX_HOME with a config.toml trusting `projects` and the hooks given (key → hash). */
function home(projects: Readonly<Record<string, string>>, hooks: Readonly<Record<string, string>> = {}): string {
  const dir = mkdtempSync(path.join(tmpdir(), "returnlint-codex-home-"));
  homes.push(dir);
  const toml = [
    'model = "gpt-6.1-sol"',
    ...Object.entries(projects).flatMap(([root, level]) => [`[projects.${JSON.stringify(root)}]`, `trust_level = "${level}"`]),
    ...Object.entries(hooks).flatMap(([key, hash]) => ["", `[hooks.state.${JSON.stringify(key)}]`, `trusted_hash = "${hash}"`]),
  ];
  writeFileSync(path.join(dir, "config.toml"), `${toml.join("\n")}\n`);
  return dir;
}

/** The checks as `doctor` runs them: with the project's config, and Codex's home in the environment. */
async function check(root: string, codexHome: string): Promise<{ level: string; text: string }[]> {
  const config = await loadReturnlintConfig({ cwd: root });
  return [...(await codexDoctor.check({ root, config, env: { CODEX_HOME: codexHome, HOME: codexHome, PATH: process.env.PATH } }))];
}

const fails = (lines: readonly { level: string; text: string }[]) => lines.filter((line) => line.level === "fail").map((line) => line.text);
const trustedHome = (root: string, entry = ENTRY) =>
  home({ [root]: "trusted" }, { [codexHookKey(path.join(root, ".codex/hooks.json"), 1, 0)]: codexHookHash(entry.matcher, { command: COMMAND, timeout: 30 }) });

describe("Codex's hook hash and matcher", () => {
  it("hashes a hook as Codex 0.169.0 did (its hooks/list said sha256:b4d6…2210 for this one)", () => {
    expect(codexHookHash("lean-research-agent", { command: "/tmp/cx/hook.sh", timeout: 30 })).toBe("sha256:b4d6c1942e191edc7a371f71dc998f23ca33e9cd500c6ea3fa5ee73f599a2210");
    expect(codexHookKey("/p/.codex/hooks.json", 0, 0)).toBe("/p/.codex/hooks.json:subagent_stop:0:0");
  });

  it.each([
    [undefined, "anything", true],
    ["*", "anything", true],
    ["planner|implementer", "planner", true],
    ["planner|implementer", "implementer2", false],
    // A hyphen makes it a pattern, found anywhere in the name.
    ["research-agent", "lean-research-agent", true],
    ["^(lean-research-agent|planner)$", "lean-research-agent", true],
    ["^(lean-research-agent|planner)$", "my-lean-research-agent", false],
  ])("matcher %s, agent %s: %s", (matcher, agent, expected) => {
    expect(codexMatches(matcher, agent)).toBe(expected);
  });

  it("builds a matcher that means exactly the agents", () => {
    expect(codexMatcher(["planner", "proof_writer"])).toBe("planner|proof_writer");
    expect(codexMatcher(["lean-research-agent", "planner"])).toBe("^(lean-research-agent|planner)$");
    expect(codexMatcher([])).toBeUndefined();
  });
});

describe("returnlint doctor --host codex", () => {
  it("passes a setup where Codex runs the hook for every agent, and says so line by line", async () => {
    const root = codexProject(ENTRY);
    const lines = await check(root, trustedHome(root));
    expect(fails(lines)).toEqual([]);
    expect(lines.map((line) => line.text)).toEqual([
      '.codex/hooks.json runs returnlint when a subagent stops (SubagentStop, matcher "^(lean-research-agent|planner)$")',
      "the hook runs for lean-research-agent (/research) and planner (/plan)",
      expect.stringMatching(/^the hook command runs from the project \(tried with a stop of an agent it leaves alone: exit 0 in \d+ ms\)$/) as unknown as string,
      expect.stringMatching(/^Codex trusts the project \(.*config\.toml\)$/) as unknown as string,
      expect.stringMatching(/^Codex trusts the returnlint hook as it is now \(sha256:[0-9a-f]{12}…\)$/) as unknown as string,
    ]);
    expect(codexDoctor.present({ root, config: undefined, env: {} })).toBe(true);
    expect(codexDoctor.present({ root: project({}), config: undefined, env: {} })).toBe(false);
  });

  it("fails an untrusted hook, a hook changed since it was trusted, a disabled one, and an untrusted project", async () => {
    const root = codexProject(ENTRY);
    expect(fails(await check(root, home({ [root]: "trusted" })))).toEqual([
      "Codex has not trusted the returnlint hook: it skips it without a word, and every return goes to the parent unchecked; start codex in this project, open /hooks and trust the SubagentStop hook that runs returnlint",
    ]);
    // Trusted with the matcher it had before a new agent came.
    const before = { ...ENTRY, matcher: "planner" };
    expect(fails(await check(root, trustedHome(root, before)))).toEqual([
      "the returnlint hook changed since it was trusted (its command, matcher or timeout): Codex skips it without a word until it is trusted again; open /hooks in codex and trust it",
    ]);
    const disabled = home({ [root]: "trusted" });
    writeFileSync(path.join(disabled, "config.toml"), `[projects.${JSON.stringify(root)}]\ntrust_level = "trusted"\n[hooks.state.${JSON.stringify(codexHookKey(path.join(root, ".codex/hooks.json"), 1, 0))}]\nenabled = false\n`);
    expect(fails(await check(root, disabled))).toEqual(["the returnlint hook is disabled in Codex's /hooks: Codex skips it; enable it there"]);
    const projectUntrusted = fails(await check(root, home({})));
    expect(projectUntrusted[0]).toMatch(/^Codex does not trust this project \(no \[projects\.".*"\] trust_level = "trusted" in .*config\.toml\): it skips \.codex\/hooks\.json without a word; start codex here/);
    expect(fails(await check(root, home({ [root]: "untrusted" })))[0]).toMatch(/^Codex marks this project untrusted in /);
  });

  it("fails a matcher that misses an agent, naming it, and a matcher Codex cannot read", async () => {
    const root = codexProject({ ...ENTRY, matcher: "planner" }, { "returnlint.config.json": { agents: { proof_writer: "implement" } } });
    const lines = await check(root, home({ [root]: "trusted" }));
    expect(fails(lines)).toContain(
      'the matcher "planner" does not take lean-research-agent (/research) and proof_writer (/implement): Codex never runs the hook for them, which stop unchecked; run "returnlint init codex" to rebuild the matcher',
    );
    const broken = codexProject({ ...ENTRY, matcher: "(planner" });
    expect(fails(await check(broken, home({ [broken]: "trusted" })))).toContain('the matcher "(planner" is not a regular expression Codex can read: Codex skips the hook, with a warning at start');
  });

  it("names Codex's own agents a matcher also starts the hook for", async () => {
    const root = codexProject({ hooks: ENTRY.hooks });
    const lines = await check(root, home({ [root]: "trusted" }));
    expect(lines).toContainEqual({ level: "ok", text: "the hook runs for lean-research-agent (/research) and planner (/plan)" });
    expect(lines).toContainEqual({ level: "ok", text: "the hook also runs for Codex's own default, worker and explorer, and lets them stop unchecked (one start of returnlint each)" });
  });

  it("fails a command that does not run from the project's root, as doctor tries it", async () => {
    const installed = { ...ENTRY, hooks: [{ type: "command", command: COMMAND.replace(".codex/hooks/returnlint.cjs", "node_modules/returnlint/dist/returnlint.cjs"), timeout: 30 }] };
    const root = codexProject(installed);
    expect(fails(await check(root, home({ [root]: "trusted" })))[0]).toMatch(
      /^the hook command does not run as a hook from the project \(tried with a stop of an agent it leaves alone: exit 1, "Error: Cannot find module '.*\/node_modules\/returnlint\/dist\/returnlint\.cjs'"\): node /,
    );
  });

  it("fails a project with no hook, or with the hook at another event", async () => {
    expect(fails(await check(codexProject(undefined), home({})))).toEqual(['.codex/hooks.json does not exist: Codex runs no returnlint hook here; run "returnlint init codex"']);
    const atStop = codexProject(undefined, { ".codex/hooks.json": { hooks: { Stop: [{ hooks: [{ type: "command", command: COMMAND }] }] } } });
    expect(fails(await check(atStop, home({})))).toEqual(['.codex/hooks.json runs "returnlint hook codex" on Stop, not on SubagentStop: no subagent\'s return is checked; run "returnlint init codex"']);
  });
});
