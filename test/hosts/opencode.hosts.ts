import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { cleanUp, REPO, tempDir, writeFiles } from "./hosts.js";
import { startModelServer, type ModelServer } from "./model-server.js";
import { opencodeConfig, runOpencode } from "./opencode.js";
import { BUILT_IN_PROMPTS, opencodeBackground, opencodeExplore, opencodeResume, PARENT_PROMPT, REPORT, RESEARCHER_PROMPT, RESUME_PROMPT } from "./scenarios.js";

// The real OpenCode, `opencode run`, with @returnlint/opencode as this checkout builds it,
// loaded by path. (By name from a registry: registry.hosts.ts.)

let server: ModelServer;
let home: string;
const registry = inject("registry");
const PLUGIN = path.join(REPO, "packages", "opencode", "dist", "index.js");

beforeAll(async () => {
  server = await startModelServer();
  home = tempDir("opencode-home");
});

afterAll(async () => {
  await server.close();
  cleanUp();
});

function project(): string {
  const root = tempDir("opencode");
  writeFiles(root, { "opencode.json": opencodeConfig(server, RESEARCHER_PROMPT, [PLUGIN]) });
  return root;
}

const VALIDATION_FAILED = '<validation tool="returnlint" ok="false">';

describe("OpenCode 1.18.33 with @returnlint/opencode", () => {
  it("a foreground task: the parent reads the <validation> block, resumes the subagent by task_id, and the fixed return passes", async () => {
    const root = project();
    server.play(opencodeResume(root));
    const run = await runOpencode(root, PARENT_PROMPT, { home, registry });
    expect(run.status, run.stderr).toBe(0);

    const parent = server.of("main");
    expect(parent.map((request) => request.turn)).toEqual(["parent delegates", "parent resumes the subagent", "parent accepts the result"]);
    const failed = parent[1]?.input ?? "";
    expect(failed).toMatch(/<task id="ses_\w+" state="completed">\n<task_result>\nResearch complete\./);
    expect(failed).toContain(`${VALIDATION_FAILED}\nThe lean-research-agent return failed validation for /research (1 problem):\n1. Artifact does not exist: ${REPORT}`);
    expect(failed).toMatch(/Resume the subagent with the task tool \(task_id: "ses_\w+", subagent_type: "lean-research-agent"\)/);
    expect(failed).not.toContain("resume: true");

    // task_id alone resumed the same subagent session: its conversation went on.
    const subagent = server.of("lean-research-agent");
    expect(subagent.map((request) => request.turn)).toEqual(["subagent returns", "subagent writes the report", "subagent returns"]);
    expect(subagent[1]?.input).toContain(RESUME_PROMPT);
    expect(subagent[1]?.messages).toBeGreaterThan(subagent[0]?.messages ?? 0);
    expect(readFileSync(path.join(root, REPORT), "utf8")).toContain("Written when resumed.");
    expect(parent[2]?.input).toContain('<validation tool="returnlint" ok="true">\nThe lean-research-agent return passed validation for /research: status completed.\n</validation>');
  });

  it("a background task: validated when its result lands, not at the running placeholder", async () => {
    const root = project();
    server.play(opencodeBackground());
    const run = await runOpencode(root, PARENT_PROMPT, { home, registry, env: { OPENCODE_EXPERIMENTAL_BACKGROUND_SUBAGENTS: "true" } });
    expect(run.status, run.stderr).toBe(0);
    const inputs = server.of("main").map((request) => request.input);
    // The tool's own output is the running placeholder: nothing to validate, no block after it.
    const placeholder = inputs.flatMap((input) => /<task id="ses_\w+" state="running">[\s\S]*?<\/task>([\s\S]{0,40})/.exec(input) ?? []);
    expect(placeholder[0]).toContain("<summary>Background task started</summary>");
    expect(placeholder[1]).not.toContain("<validation");
    // The message that brings the result carries the block, right after the task element.
    const landed = inputs.find((input) => input.includes('state="completed"')) ?? "";
    expect(landed).toMatch(/<task id="ses_\w+" state="completed">\n<summary>Background task completed: Research task 259<\/summary>\n<task_result>\nResearch complete\./);
    expect(landed).toContain(`</task>\n\n${VALIDATION_FAILED}\nThe lean-research-agent return failed validation for /research (1 problem):\n1. Artifact does not exist: ${REPORT}`);
    expect(landed).toMatch(/task_id: "ses_\w+", subagent_type: "lean-research-agent", background: true\)/);
    expect(existsSync(path.join(root, ".returnlint"))).toBe(false);
  });

  it("leaves OpenCode's own explore agent alone", async () => {
    const root = project();
    server.play(opencodeExplore());
    const run = await runOpencode(root, "Explore task 259 with the explore agent.", { home, registry });
    expect(run.status, run.stderr).toBe(0);
    expect(server.requests.filter((request) => request.input.includes(BUILT_IN_PROMPTS.Explore))).toHaveLength(1);
    const read = server.of("main").find((request) => request.turn === "parent reads it");
    expect(read?.input).toContain("in prose");
    expect(read?.input).not.toContain("<validation");
  });
});
