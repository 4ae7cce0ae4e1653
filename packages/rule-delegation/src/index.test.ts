import { tmpdir } from "node:os";
import { describe, expect, it } from "vitest";
import { createFileView, parseReturn, runRules } from "@returnlint/core";
import { RuleTester } from "@returnlint/rule-tester";
import rule from "./index.js";

const seedPath = ["orchestrator", "research", "lean-research-agent"];
const returned = (metadata: Record<string, unknown>) => ({ status: "researched", metadata: { session_id: "sess_1736700000_abc123", ...metadata } });
const agent = (agent_type: unknown, delegation_depth: unknown, delegation_path: unknown) => returned({ agent_type, delegation_depth, delegation_path });
const seed = agent("lean-research-agent", 1, seedPath);

new RuleTester({ describe, it }).run(rule, {
  valid: [
    { name: "the documented research return (depth 1, three agents: depth-vs-length is off)", input: seed },
    { name: "the depth limit itself", input: agent("worker", 3, ["orchestrator", "implement", "planner", "worker"]) },
    { name: "the orchestrator at depth 0", input: agent("orchestrator", 0, ["orchestrator"]) },
    { name: "a higher limit", input: agent("d", 4, ["orchestrator", "a", "b", "c", "d"]), options: { maxDepth: 4 } },
    { name: "depth matching the path when asked", input: agent("planner", 2, ["orchestrator", "plan", "planner"]), options: { depthMatchesPath: "error" } },
    {
      name: "a path that ends with the skill that delegated to the agent, as the projects' skills hand it over",
      input: agent("lean-implementation-agent", 2, ["orchestrator", "implement", "skill-lean-implementation"]),
    },
    { name: "the skill of an agent named without -agent", input: agent("planner", 2, ["orchestrator", "plan", "skill-planner"]) },
    { name: "a path ending elsewhere, with pathEnd off", input: agent("researcher", 1, ["orchestrator", "research"]), options: { pathEnd: "off" } },
    { name: "missing fields, with requireFields off (required-fields reports them)", input: returned({}), options: { requireFields: "off" } },
    { name: "a return without metadata is required-fields' to report", input: { status: "completed" } },
    { name: "null fields count as missing, and off means off", input: agent(null, null, null), options: { requireFields: "off" } },
  ],
  invalid: [
    {
      name: "acceptance: a delegation back to the orchestrator is a cycle",
      input: agent("orchestrator", 3, ["orchestrator", "research", "researcher", "orchestrator"]),
      errors: [
        {
          messageId: "cycleDetected",
          pointer: "/metadata/delegation_path/3",
          message: "CYCLE_DETECTED: orchestrator appears twice in the delegation path",
          data: { repeated: "orchestrator", index: 3, path: "orchestrator → research → researcher → orchestrator" },
        },
      ],
    },
    {
      name: "acceptance: depth 4 is over orchestration-validation.md's limit of 3",
      input: agent("e", 4, ["orchestrator", "a", "b", "c", "e"]),
      errors: [{ messageId: "maxDepthExceeded", pointer: "/metadata/delegation_depth", message: "MAX_DEPTH_EXCEEDED: delegation depth 4 exceeds the limit of 3" }],
    },
    { name: "a lower limit", input: seed, options: { maxDepth: 0 }, errors: [{ messageId: "maxDepthExceeded", data: { maxDepth: 0 } }] },
    {
      name: "each repeated agent is one cycle",
      input: agent("b", 2, ["a", "b", "a", "b", "a"]),
      errors: [
        { messageId: "cycleDetected", pointer: "/metadata/delegation_path/2", data: { repeated: "a", index: 2 } },
        { messageId: "cycleDetected", pointer: "/metadata/delegation_path/3", data: { repeated: "b", index: 3 } },
        { messageId: "pathEndMismatch", pointer: "/metadata/delegation_path", data: { last: "a", agentType: "b" } },
      ],
    },
    {
      name: "a long path: each repeated agent is one cycle, the same as in a short one",
      input: agent("k", 3, ["o", "a", "b", "c", "d", "e", "f", "g", "h", "a", "i", "b", "a", "k"]),
      options: { maxDepth: 20 },
      errors: [
        { messageId: "cycleDetected", pointer: "/metadata/delegation_path/9", data: { repeated: "a", index: 9 } },
        { messageId: "cycleDetected", pointer: "/metadata/delegation_path/11", data: { repeated: "b", index: 11 } },
      ],
    },
    {
      name: "missing delegation fields (orchestration-validation.md's Missing metadata field)",
      input: returned({}),
      errors: [
        { messageId: "missingField", pointer: "/metadata/agent_type", message: "Missing metadata field: agent_type" },
        { messageId: "missingField", pointer: "/metadata/delegation_depth", data: { field: "delegation_depth" } },
        { messageId: "missingField", pointer: "/metadata/delegation_path", data: { field: "delegation_path" } },
      ],
    },
    {
      name: "null fields are missing fields",
      input: agent("researcher", null, null),
      errors: [{ messageId: "missingField", pointer: "/metadata/delegation_depth" }, { messageId: "missingField", pointer: "/metadata/delegation_path" }],
    },
    { name: "a negative depth", input: agent("lean-research-agent", -1, seedPath), errors: [{ messageId: "invalidDepth", pointer: "/metadata/delegation_depth", data: { received: "number -1" } }] },
    { name: "a fractional depth", input: agent("lean-research-agent", 1.5, seedPath), errors: [{ messageId: "invalidDepth", data: { received: "number 1.5" } }] },
    { name: "a depth in quotes", input: agent("lean-research-agent", "1", seedPath), errors: [{ messageId: "invalidDepth", data: { received: 'string "1"', maxDepth: 3 } }] },
    {
      name: "a path written as one string",
      input: agent("researcher", 1, "orchestrator → research → researcher"),
      errors: [{ messageId: "pathNotArray", pointer: "/metadata/delegation_path", message: "received string" }],
    },
    {
      name: "a path entry that is not a name",
      input: agent("researcher", 1, ["orchestrator", 2, ""]),
      errors: [
        { messageId: "pathEntryNotString", pointer: "/metadata/delegation_path/1", data: { index: 1, received: "number 2" } },
        { messageId: "pathEntryNotString", pointer: "/metadata/delegation_path/2" },
      ],
    },
    { name: "a nameless agent_type", input: agent("", 1, seedPath), errors: [{ messageId: "invalidAgentType", pointer: "/metadata/agent_type", data: { received: 'string ""' } }] },
    {
      name: "a path that does not end with the returning agent (a warning by default)",
      input: agent("lean-research-agent", 1, ["orchestrator", "research"]),
      errors: [{ messageId: "pathEndMismatch", pointer: "/metadata/delegation_path", data: { last: "research", agentType: "lean-research-agent" } }],
    },
    {
      name: "another skill than the agent's is no end of its path",
      input: agent("lean-implementation-agent", 2, ["orchestrator", "implement", "skill-lean-research"]),
      errors: [{ messageId: "pathEndMismatch", data: { last: "skill-lean-research", agentType: "lean-implementation-agent" } }],
    },
    { name: "an empty path", input: agent("researcher", 0, []), errors: [{ messageId: "emptyPath", pointer: "/metadata/delegation_path" }] },
    {
      name: "depth against the path's length, when asked",
      input: seed,
      options: { depthMatchesPath: "warn" },
      errors: [{ messageId: "depthMismatch", pointer: "/metadata/delegation_depth", data: { length: 3, implied: 2, path: "orchestrator → research → lean-research-agent" } }],
    },
  ],
});

/** What the rule says, configured as an error, over one return. */
async function run(input: unknown, options: Record<string, unknown> = {}) {
  const text = JSON.stringify(input);
  const report = await runRules({
    text,
    parse: parseReturn(text),
    command: "research",
    format: "metadata-file",
    expected: {},
    rules: [{ rule, severity: "error", options: { ...rule.meta.defaultOptions, ...options }, source: "test" }],
    files: createFileView(tmpdir()),
  });
  return report.results;
}

describe("delegation: advisory checks report at the level their option gives", () => {
  const offPath = agent("lean-research-agent", 1, ["orchestrator", "research"]);
  it.each([
    ["pathEnd warn", offPath, { pathEnd: "warn" }, ["warn pathEndMismatch", "pass safe"]],
    ["pathEnd error", offPath, { pathEnd: "error" }, ["fail pathEndMismatch"]],
    ["pathEnd off", offPath, { pathEnd: "off" }, ["pass safe"]],
    ["requireFields warn", returned({}), { requireFields: "warn" }, ["warn missingField", "warn missingField", "warn missingField"]],
    ["depthMatchesPath error", seed, { depthMatchesPath: "error" }, ["fail depthMismatch"]],
    ["a cycle is an error whatever the advisory options", agent("a", 1, ["a", "a"]), { pathEnd: "warn", requireFields: "warn" }, ["fail cycleDetected"]],
  ])("%s", async (_name, input, options, expected) => {
    expect((await run(input, options)).map((result) => `${result.level} ${result.messageId}`)).toEqual(expected);
  });

  it("passes a safe delegation, naming the depth, the limit and the path", async () => {
    expect((await run(seed)).map((result) => result.message)).toEqual(["Delegation is safe: depth 1 of at most 3, path orchestrator → research → lean-research-agent"]);
  });
});
