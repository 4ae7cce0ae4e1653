import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureFrameworks, FRAMEWORKS, runDriver, type Framework } from "./frameworks.js";
import { cleanUp, tempDir, writeFiles } from "./hosts.js";
import { startModelServer, type Block, type ModelServer, type Scenario, type SeenRequest } from "./model-server.js";
import { consoleReturn, PARENT_PROMPT, phantomThenFixed, REPORT, RESEARCH_TASK, RESEARCHER_PROMPT, WRITE_REPORT } from "./scenarios.js";

// Issue 34: the framework adapters inside the real frameworks, each running docs/frameworks.md's
// snippet against the scripted model on 127.0.0.1. A research subagent claims a report it did not
// write: the adapter refuses the return, the refusal reaches the model that can act on it (read
// here on the wire), and the return it then gives, the report written, goes through; a good return
// goes through untouched. Had the adapter not run, the model would never have read the refusal.

let server: ModelServer;

beforeAll(async () => {
  ensureFrameworks();
  server = await startModelServer();
}, 900_000);

afterAll(async () => {
  await server.close();
  cleanUp();
});

const text = (value: string): Block => ({ text: value });
/** What the parent-reader adapters put in place of the refused return (the hooks' wording for Gemini CLI). */
const REFUSED = "returnlint: the subagent lean-research-agent stopped, and its return failed validation for /research (1 problem)";

/** The parent's call of its research tool (whatever the framework named it), the task given under `inputKey`. */
function delegate(request: SeenRequest, inputKey: string, task: string): Block {
  const tool = request.tools.find((name) => name.includes("research"));
  if (tool === undefined) throw new Error(`the parent was offered no research tool: ${request.tools.join(", ")}`);
  return { tool, input: { [inputKey]: task } };
}

/**
 * An orchestrator whose subagent is a tool (OpenAI Agents SDK, AI SDK, Mastra): the parent
 * delegates; the subagent returns a report it did not write; when the parent reads a refusal it
 * delegates again with it; told the report does not exist, the subagent writes it, then returns.
 */
function delegatedPhantomThenFixed(inputKey: string): Scenario {
  return {
    name: "a subagent tool's phantom return, refused to the parent, fixed",
    agents: { "lean-research-agent": RESEARCHER_PROMPT },
    turns: [
      { name: "parent delegates", agent: "main", when: PARENT_PROMPT, times: 1, reply: (request) => [delegate(request, inputKey, RESEARCH_TASK)] },
      { name: "parent sends the refusal back", agent: "main", when: "failed validation", times: 1, reply: (request) => [delegate(request, inputKey, `${RESEARCH_TASK}\nYour last return was refused:\n${request.input}`)] },
      { name: "subagent writes the report", agent: "lean-research-agent", when: "does not exist", times: 1, reply: [{ tool: "write_file", input: { path: REPORT, content: "# Research\n\nThe lemmas are in place.\n" } }] },
      { name: "subagent returns", agent: "lean-research-agent", reply: [text(consoleReturn(REPORT))] },
      { name: "parent reads the result", agent: "main", reply: [text("Task 259 is researched.")] },
    ],
  };
}

const ENV = { PARENT_PROMPT, RESEARCHER_PROMPT };

const TOOL_INPUT: Readonly<Record<Exclude<Framework, "claude-agent-sdk">, string>> = { "openai-agents": "input", "ai-sdk": "task", mastra: "prompt" };

describe(`the framework adapters, in ${Object.entries(FRAMEWORKS).map(([name, version]) => `${name}@${version}`).join(", ")}`, () => {
  for (const [framework, inputKey] of Object.entries(TOOL_INPUT) as [Exclude<Framework, "claude-agent-sdk">, string][]) {
    describe(framework, () => {
      it("refuses a phantom return to the parent model, which sends the subagent back; the fixed return goes through", async () => {
        const project = tempDir(framework);
        server.play(delegatedPhantomThenFixed(inputKey));
        const result = await runDriver(framework, project, server.url, ENV);

        expect(result.verdicts.map((verdict) => [verdict.decision, verdict.reader, verdict.report?.phantom])).toEqual([
          ["block", "parent", true],
          ["pass", "parent", false],
        ]);
        // The parent model read the refusal in place of the return, with the problem the subagent's next prompt carried.
        const refusal = server.of("main").find((request) => request.input.includes(REFUSED));
        expect(refusal?.input).toContain(`Artifact does not exist: ${REPORT}`);
        expect(result.verdicts[0]?.reason).toContain(REFUSED);
        // Then the subagent's fixed return itself.
        expect(server.of("main").at(-1)?.input).toContain('"status": "completed"');
        expect(server.of("main").at(-1)?.input).not.toContain("failed validation");
        expect(server.of("lean-research-agent").map((request) => request.turn)).toEqual(["subagent returns", "subagent writes the report", "subagent returns"]);
        expect(existsSync(path.join(project, REPORT))).toBe(true);
        expect(JSON.stringify(result.final)).toContain("Task 259 is researched.");
        if (framework !== "openai-agents") expect(result.node).toMatch(/^v22\./);
      });

      it("hands a good return to the parent untouched", async () => {
        const project = tempDir(framework);
        writeFiles(project, { [REPORT]: "# Research\n\nThe lemmas are in place.\n" });
        server.play(delegatedPhantomThenFixed(inputKey));
        const result = await runDriver(framework, project, server.url, ENV);
        expect(result.verdicts.map((verdict) => [verdict.decision, verdict.attempt])).toEqual([["pass", 1]]);
        expect(server.requests.some((request) => request.input.includes("failed validation"))).toBe(false);
        expect(server.of("main").at(-1)?.input).toContain(consoleReturn(REPORT).split("\n")[0]);
        expect(server.of("main").at(-1)?.input).toContain(`"path": "${REPORT}"`);
      });
    });
  }

  describe("claude-agent-sdk", () => {
    const env = (home: string) => ({ ...ENV, HOME: home, ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: "dummy", CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1", DISABLE_AUTOUPDATER: "1", DISABLE_TELEMETRY: "1", DISABLE_ERROR_REPORTING: "1" });

    it("blocks a phantom return's stop: the subagent reads the problems, writes the report, and its return passes", async () => {
      const project = tempDir("claude-agent-sdk");
      server.play(phantomThenFixed(project));
      const result = await runDriver("claude-agent-sdk", project, server.url, env(tempDir("claude-agent-sdk-home")));

      expect(result.verdicts.map((verdict) => [verdict.decision, verdict.reader, verdict.report?.phantom])).toEqual([
        ["block", "subagent", true],
        ["pass", "subagent", false],
      ]);
      // The subagent itself was told, in the hooks' words: its next request carries the block's reason.
      const told = server.of("lean-research-agent").find((request) => request.input.includes("returnlint: Your final message's return failed validation for /research"));
      expect(told?.input).toContain(WRITE_REPORT);
      expect(server.of("lean-research-agent").map((request) => request.turn)).toEqual(["subagent returns", "subagent writes the report it was told is missing", "subagent returns"]);
      expect(existsSync(path.join(project, REPORT))).toBe(true);
      expect(result.final).toBe("Task 259 is researched.");
    });

    it("lets a good return stop untouched", async () => {
      const project = tempDir("claude-agent-sdk");
      writeFiles(project, { [REPORT]: "# Research\n\nThe lemmas are in place.\n" });
      server.play(phantomThenFixed(project));
      const result = await runDriver("claude-agent-sdk", project, server.url, env(tempDir("claude-agent-sdk-home")));
      expect(result.verdicts.map((verdict) => [verdict.decision, verdict.attempt])).toEqual([["pass", 1]]);
      expect(server.of("lean-research-agent").map((request) => request.turn)).toEqual(["subagent returns"]);
      expect(result.final).toBe("Task 259 is researched.");
    });
  });
});
