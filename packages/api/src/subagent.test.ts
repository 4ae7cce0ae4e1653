import { describe, expect, it } from "vitest";
import type { LoadedConfig } from "@returnlint/core";
import { tempProject } from "@returnlint/testing";
import { asksForReturn, checkReturn, loadReturnlintConfig, owesReturn, returnOfMessage, type SubagentRun } from "./index.js";

const config = (agents: Record<string, string> = {}) => ({ config: { agents } }) as unknown as LoadedConfig;

describe("asksForReturn", () => {
  it.each([
    ["a metadata file", "Write specs/{N}_{SLUG}/.return-meta.json, then return bullets."],
    ["a handoff", "Write the handoff to specs/{N}_{SLUG}/.orchestrator-handoff.json."],
    ["a multi-task file", "Write .return-meta-multi-sess_1.json for the batch."],
    ["a JSON return by its status", 'Return:\n```json\n{\n  "status" : "researched"\n}\n```'],
  ])("sees %s", (_what, text) => {
    expect(asksForReturn(text)).toBe(true);
  });

  it.each([
    ["a line of the project's own", "Return only: REPORT_CREATED: [absolute path]"],
    ["a status in prose", "Report your status when you are done."],
    ["another JSON file", 'Update state.json: set the task to "researched".'],
  ])("does not see a return in %s", (_what, text) => {
    expect(asksForReturn(text)).toBe(false);
  });
});

describe("owesReturn", () => {
  const prose = "Return only: REPORT_CREATED: [absolute path]";
  it("owes nothing when its definition asks for a line of its own and nothing else shows a return", () => {
    expect(owesReturn({ config: config(), agent: "research-specialist", run: { wrote: [], definition: prose }, message: "REPORT_CREATED: /p/r.md" })).toBe(false);
  });

  it.each([
    ["the agents map names it", { config: config({ "research-specialist": "research" }), run: { wrote: [], definition: prose } }],
    ["the agents map names it after a plugin's prefix", { config: config({ "research-specialist": "research" }), run: { wrote: [], definition: prose }, agent: "tools:research-specialist" }],
    ["it has no definition in the project", { config: config(), run: { wrote: [] } }],
    ["it wrote a return file", { config: config(), run: { wrote: ["/p/specs/1_x/.return-meta.json"], definition: prose } }],
    ["its prompt asks for a metadata file", { config: config(), run: { wrote: [], definition: prose, prompt: '{"metadata_file_path": "specs/1_x/.return-meta.json"}' } }],
    ["its message shows a JSON return", { config: config(), run: { wrote: [], definition: prose }, message: '```json\n{"status": "researched"}\n```' }],
  ])("owes one when %s", (_why, input) => {
    expect(owesReturn({ agent: "research-specialist", ...input })).toBe(true);
  });
});

describe("returnOfMessage", () => {
  const META = "specs/7_prove_it/.return-meta.json";
  const REPORT = "specs/7_prove_it/reports/research-001.md";
  const value = {
    status: "researched",
    summary: "Researched the lemmas; the report lists them.",
    artifacts: [{ type: "report", path: REPORT, summary: "Research report" }],
    metadata: { session_id: "sess_1736700000_abc123", agent_type: "researcher", delegation_depth: 1, delegation_path: ["orchestrator", "research", "researcher"] },
  };

  /** A run whose writes and prompt (what its transcript shows) note each time they are asked for. */
  function watchedRun(root: string, wrote: readonly string[]): { run: SubagentRun; asked: string[] } {
    const asked: string[] = [];
    const run: SubagentRun = {
      definition: "Research the task; return the JSON object with its status and artifacts.",
      get wrote() {
        asked.push("wrote");
        return wrote.map((file) => `${root}/${file}`);
      },
      get prompt() {
        asked.push("prompt");
        return "Research task 7.";
      },
    };
    return { run, asked };
  }

  async function checked(preset: string, message: string, wrote: readonly string[]) {
    const root = tempProject({ "returnlint.config.json": { preset }, [REPORT]: "# Lemmas\n", [META]: { ...value, status: "researched" } });
    const config = await loadReturnlintConfig({ cwd: root });
    const { run, asked } = watchedRun(root, wrote);
    const owes = owesReturn({ config, agent: "researcher", run, message });
    const result = await checkReturn(returnOfMessage({ message, root, command: "research", config, run }), { root, command: "research", config, agent: "researcher" });
    return { owes, source: result.source, ok: result.ok, asked };
  }

  const fenced = `Research done.\n\n\`\`\`json\n${JSON.stringify({ ...value, status: "completed" })}\n\`\`\``;

  it("asks nothing of the subagent's transcript when returns are console returns and the final message holds one", async () => {
    expect(await checked("v7", fenced, [META])).toEqual({ owes: true, source: "message", ok: true, asked: [] });
  });

  it("asks for the files written when a console return's final message holds none, and takes the return file they show", async () => {
    const { owes, source, asked } = await checked("v7", "- Researched the lemmas\n- Wrote the report", [META]);
    expect({ owes, source }).toEqual({ owes: true, source: META });
    expect(new Set(asked)).toEqual(new Set(["wrote"]));
  });

  it("takes the metadata file written over the final message when returns are metadata files", async () => {
    expect(await checked("metadata-file", fenced, [META])).toEqual({ owes: true, source: META, ok: true, asked: ["wrote"] });
  });
});
