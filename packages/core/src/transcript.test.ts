import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tempProject } from "@returnlint/testing";
import { readTranscript, writtenFiles } from "./transcript.js";

const root = tempProject();
let written = 0;

/** A transcript file of these lines, joined by `newline`; read back as the hook reads one. */
function read(lines: readonly string[], { newline = "\n", prefix = "" } = {}) {
  written += 1;
  const file = path.join(root, `transcript-${String(written)}.jsonl`);
  writeFileSync(file, prefix + lines.join(newline));
  const transcript = readTranscript(file, root, 64 * 1024 * 1024);
  if (!transcript.ok) throw new Error(transcript.reason);
  return transcript;
}

const prompt = JSON.stringify({ type: "user", message: { role: "user", content: "Research task 7 and write specs/7_x/reports/r.md" } });
const write = (id: string, file: string) => JSON.stringify({ type: "assistant", message: { role: "assistant", content: [{ type: "tool_use", id, name: "Write", input: { file_path: file, content: "# R\n" } }] } });
const result = (id: string, isError: string, output = "ok") => `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"${id}","content":"${output}","is_error":${isError}}]}}`;
const output = (text: string) => JSON.stringify({ type: "user", message: { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_read", content: text }] } });

describe("readTranscript", () => {
  it("finds the prompt and each write, with its line, among lines of tool output it passes over", () => {
    const transcript = read([prompt, output("x".repeat(5000)), write("toolu_1", "specs/7_x/reports/r.md"), output("a tool_use_id, not a call"), result("toolu_1", "false"), ""]);
    expect(transcript.prompt).toBe("Research task 7 and write specs/7_x/reports/r.md");
    expect([...transcript.writes]).toEqual([[path.join(root, "specs/7_x/reports/r.md"), [{ tool: "Write", line: 3, failed: false }]]]);
    expect(transcript.badLines).toBe(0);
  });

  it("marks a write failed when its result says is_error true, however the JSON is spaced", () => {
    for (const isError of ["true", " true", "\ttrue", "  true"]) {
      const transcript = read([prompt, write("toolu_1", "r.md"), result("toolu_1", isError)]);
      expect(transcript.writes.get(path.join(root, "r.md")), JSON.stringify(isError)).toEqual([{ tool: "Write", line: 2, failed: true }]);
      expect(writtenFiles(transcript)).toEqual([]);
    }
  });

  it("does not take is_error followed by anything but true for a failure", () => {
    const transcript = read([prompt, write("toolu_1", "r.md"), result("toolu_1", "false"), result("toolu_1", '"true"'), result("toolu_1", "null", 'it said \\"is_error\\": true')]);
    expect(writtenFiles(transcript)).toEqual([path.join(root, "r.md")]);
  });

  it("reads Windows line ends and a byte order mark as a text editor would", () => {
    const transcript = read([prompt, output("y".repeat(100)), write("toolu_1", "r.md"), result("toolu_1", "true")], { newline: "\r\n", prefix: "\uFEFF" });
    expect(transcript.prompt).toBe("Research task 7 and write specs/7_x/reports/r.md");
    expect(transcript.writes.get(path.join(root, "r.md"))).toEqual([{ tool: "Write", line: 3, failed: true }]);
    expect(transcript.badLines).toBe(0);
  });

  it("trims whitespace that is not ASCII around an entry, as the entry's text is trimmed", () => {
    const transcript = read([prompt, `\u00A0${write("toolu_1", "r.md")}\u2028`, `${result("toolu_1", "false")}\u3000`]);
    expect(transcript.writes.get(path.join(root, "r.md"))).toEqual([{ tool: "Write", line: 2, failed: false }]);
    expect(transcript.badLines).toBe(0);
  });

  it("counts a line that is no JSON, and a partial last line, as bad lines", () => {
    const partial = write("toolu_2", "s.md").slice(0, 40);
    const transcript = read([prompt, "not json at all", output("z".repeat(100)), `{"type":"user","is_error":\u00A0true}`, `\u00E9${output("w")}`, partial]);
    // The third is JSON only to the eye (a no-break space is not JSON's whitespace); the fourth starts with a letter.
    expect(transcript.badLines).toBe(4);
    expect(transcript.writes.size).toBe(0);
  });

  it("reads a transcript larger than the part it reads at a time, and a line longer than that part", () => {
    const big = "w".repeat(300 * 1024);
    const lines = [prompt, output(big), write("toolu_1", "a.md"), output(big.slice(1000)), JSON.stringify({ type: "assistant", message: { role: "assistant", content: [{ type: "tool_use", id: "toolu_2", name: "Edit", input: { file_path: "b.md", old_string: big, new_string: "" } }] } }), result("toolu_2", "true", big.slice(7)), write("toolu_3", "c.md")];
    const transcript = read(lines);
    expect([...transcript.writes]).toEqual([
      [path.join(root, "a.md"), [{ tool: "Write", line: 3, failed: false }]],
      [path.join(root, "b.md"), [{ tool: "Edit", line: 5, failed: true }]],
      [path.join(root, "c.md"), [{ tool: "Write", line: 7, failed: false }]],
    ]);
    expect(transcript.badLines).toBe(0);
  });

  it("finds a write among a message's several tool calls, by each write tool, and passes over the calls of tools that write nothing", () => {
    const call = (id: string, name: string, input: Record<string, unknown>) => ({ type: "tool_use", id, name, input });
    const calls = (...content: unknown[]) => JSON.stringify({ type: "assistant", message: { role: "assistant", content } });
    const transcript = read([
      prompt,
      calls(call("toolu_1", "Read", { file_path: "a.md" }), call("toolu_2", "MultiEdit", { file_path: "b.md", edits: [] })),
      calls(call("toolu_3", "NotebookEdit", { notebook_path: "c.ipynb", new_source: "" })),
      calls(call("toolu_4", "Bash", { command: "ls" })),
      // Braced but not JSON: a call of a tool that writes nothing is never parsed, so it is no bad line.
      '{"type":"assistant","message":{"content":[{"type":"tool_use","name":"Read", broken}]}}',
      calls(call("toolu_5", "Write", { file_path: "d.md", content: "# D" })),
    ]);
    expect([...transcript.writes]).toEqual([
      [path.join(root, "b.md"), [{ tool: "MultiEdit", line: 2, failed: false }]],
      [path.join(root, "c.ipynb"), [{ tool: "NotebookEdit", line: 3, failed: false }]],
      [path.join(root, "d.md"), [{ tool: "Write", line: 6, failed: false }]],
    ]);
    expect(transcript.badLines).toBe(0);
  });

  it("tells another host's transcript from its first entry, and reads no further", () => {
    written += 1;
    const file = path.join(root, `rollout-${String(written)}.jsonl`);
    writeFileSync(file, `${JSON.stringify({ type: "session_meta", payload: { id: "r1" } })}\n${write("toolu_1", "a.md")}\n`);
    expect(readTranscript(file, root, 1024)).toEqual({ ok: false, reason: `${file} is a Codex rollout, not a Claude Code transcript`, host: "codex" });
  });
});
