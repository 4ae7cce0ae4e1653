import { cpSync, existsSync, mkdirSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import type { Block, Scenario, Turn } from "./model-server.js";
import { PARENT_PROMPT, RESEARCH_TASK, RESEARCHER_PROMPT } from "./scenarios.js";

// Scenarios for the claims rules (issue 35): a subagent that runs the project's tests and says
// how they went, played against each real host. The project's tests are node's own runner.

export const AGENT = "lean-research-agent";
export const TEST_COMMAND = "node --test test/";
/** A command the return claims and the subagent never runs. */
export const NEVER_RUN = "pnpm lint";
export const NOTES = "specs/259_prove_completeness/notes.md";

/** A project whose one test fails (`green: false`) or passes. */
export function testFiles(green: boolean): Record<string, string> {
  return {
    "test/sum.test.mjs": `import { test } from "node:test";\nimport assert from "node:assert/strict";\ntest("sum", () => { assert.equal(1 + 1, ${green ? "2" : "3"}); });\n`,
  };
}

/** The subagent's return: the tests passed ("All tests pass."), these commands ran, the notes were created. */
export function claimsReturn(commands: readonly string[]): string {
  const value = {
    status: "completed",
    summary: "Ran the tests: all tests pass.",
    artifacts: [{ type: "report", path: NOTES, summary: "Notes", action: "created" }],
    tests_passed: true,
    commands_run: commands,
    metadata: { session_id: "sess_1736700000_abc123", agent_type: AGENT, delegation_depth: 1, delegation_path: ["orchestrator", "research", AGENT] },
  };
  return `Done.\n\n\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\``;
}

/** What the subagent returns once it was told: the tests fail, the notes were changed, only the test command ran. */
export function honestReturn(): string {
  const value = {
    status: "partial",
    summary: "Ran the tests: one fails.",
    artifacts: [{ type: "report", path: NOTES, summary: "Notes", action: "modified" }],
    tests_passed: false,
    commands_run: [{ command: TEST_COMMAND, exit_code: 1 }],
    metadata: { session_id: "sess_1736700000_abc123", agent_type: AGENT, delegation_depth: 1, delegation_path: ["orchestrator", "research", AGENT] },
  };
  return `Partly done.\n\n\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\``;
}

/** What every host's block says before the problems (the hook's reason, as the subagent receives it). */
export const BLOCKED = "failed validation for /research";

/** The project's config: the strict preset, whose claims rules read the transcript the hook hands them. */
export const STRICT_CONFIG = { "returnlint.config.json": { preset: "strict" } };

/** How each host's model asks for the subagent, a shell command and a written file. */
export interface HostTools {
  readonly delegate: (agent: string, prompt: string) => Block;
  readonly shell: (command: string) => Block;
  readonly write: (file: string, content: string) => Block;
}

const text = (value: string): Block => ({ text: value });

/**
 * The parent delegates; the subagent runs the tests, writes its notes, and returns saying the
 * tests passed and `claimed` commands ran. Blocked, it returns what really happened.
 */
export function testsThenClaim(tools: HostTools, claimed: readonly string[], extraParentTurns: readonly Turn[] = [], beforeWrite?: Block): Scenario {
  return {
    name: "claims: tests run, notes written, return",
    agents: { [AGENT]: RESEARCHER_PROMPT },
    turns: [
      { name: "parent delegates", agent: "main", when: PARENT_PROMPT, times: 1, reply: [tools.delegate(AGENT, RESEARCH_TASK)] },
      ...extraParentTurns,
      { name: "parent reads the result", agent: "main", reply: [text("Task 259 is researched.")] },
      { name: "subagent runs the tests", agent: AGENT, when: RESEARCH_TASK, times: 1, reply: [tools.shell(TEST_COMMAND)] },
      ...(beforeWrite === undefined ? [] : [{ name: "subagent reads its notes", agent: AGENT, times: 1, reply: [beforeWrite] }]),
      { name: "subagent writes its notes", agent: AGENT, times: 1, reply: [tools.write(NOTES, "# Notes\n\nTests run.\n")] },
      { name: "subagent says what really happened", agent: AGENT, when: BLOCKED, reply: [text(honestReturn())] },
      { name: "subagent returns", agent: AGENT, reply: [text(claimsReturn(claimed))] },
    ],
  };
}

/** Every file under `dir` whose name ends with `suffix`, newest last. */
export function filesUnder(dir: string, suffix: string): string[] {
  if (!existsSync(dir)) return [];
  const found: string[] = [];
  const walk = (at: string): void => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const full = path.join(at, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith(suffix)) found.push(full);
    }
  };
  walk(dir);
  return found.sort((a, b) => statSync(a).mtimeMs - statSync(b).mtimeMs);
}

/**
 * With RETURNLINT_RECORD_TRANSCRIPTS=1, keeps a real host's transcript as the reader's fixture
 * (packages/core/src/transcript/fixtures/HOST-VERSION/NAME): re-record them when a pinned host is
 * upgraded, and the reader's tests say what changed.
 */
export function recordFixture(file: string, hostVersion: string, name: string): void {
  if (process.env.RETURNLINT_RECORD_TRANSCRIPTS !== "1") return;
  const dir = path.join(path.dirname(new URL(import.meta.url).pathname), "..", "..", "packages", "core", "src", "transcript", "fixtures", hostVersion);
  mkdirSync(dir, { recursive: true });
  cpSync(file, path.join(dir, name));
}
