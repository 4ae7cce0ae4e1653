import { describe, expect, it } from "vitest";
import type { LoadedConfig } from "@returnlint/core";
import { asksForReturn, owesReturn } from "./index.js";

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
