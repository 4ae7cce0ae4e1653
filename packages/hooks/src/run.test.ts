import { writeFileSync } from "node:fs";
import path from "node:path";
import { tempProject } from "@returnlint/testing";
import { describe, expect, it } from "vitest";
import { claude } from "./hosts/claude.js";
import { subagentRun } from "./run.js";

const META = "specs/1_prove_it/.return-meta.json";

/** A subagent's transcript: its prompt, then a Write of `file`. */
function transcriptLines(root: string, prompt: string, file: string): string {
  const lines = [
    { type: "user", cwd: root, message: { role: "user", content: prompt } },
    { type: "assistant", cwd: root, message: { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "Write", input: { file_path: path.join(root, file), content: "{}" } }] } },
  ];
  return `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`;
}

describe("subagentRun", () => {
  it("reads the subagent's transcript when its writes or its prompt are first asked for, and only once", () => {
    const root = tempProject({ ".claude/agents/researcher.md": `---\nname: researcher\ndescription: Researches\n---\nWrite ${META}, then return bullets.\n` });
    const file = path.join(root, "agent-a1.jsonl");
    const run = subagentRun({ root, agent: "researcher", host: claude, transcriptPath: file });
    expect(run.definition).toContain(META);
    // Written after the run was made (the definition alone did not read it): read when asked for.
    writeFileSync(file, transcriptLines(root, "Research task 1.", META));
    expect(run.wrote).toEqual([path.join(root, META)]);
    expect(run.prompt).toBe("Research task 1.");
    // What the file holds later is not read again: one stop, one reading.
    writeFileSync(file, transcriptLines(root, "Plan task 2.", "specs/2_other/.return-meta.json"));
    expect(run.wrote).toEqual([path.join(root, META)]);
    expect(run.prompt).toBe("Research task 1.");
  });

  it("shows no writes and no prompt for a transcript that cannot be read", () => {
    const root = tempProject({});
    const run = subagentRun({ root, agent: "researcher", host: claude, transcriptPath: path.join(root, "missing.jsonl") });
    expect(run.wrote).toEqual([]);
    expect(run.prompt).toBeUndefined();
    expect(run.definition).toBeUndefined();
  });
});
