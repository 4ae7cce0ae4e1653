import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/** One thing a subagent did, as a Claude Code transcript records it. */
export type TranscriptStep =
  | { readonly bash: string; readonly exitCode: number; readonly output?: string }
  | { readonly write: string; readonly created: boolean; readonly failed?: boolean }
  | { readonly agent: string; readonly returned: boolean };

/**
 * A Claude Code transcript (JSONL) of the given steps, in the shape Claude Code 2.1.330 writes
 * (packages/core/src/transcript/fixtures/claude-2.1.330): a `tool_use` in an assistant entry,
 * its `tool_result` in the next user entry. Returns the file's path, in a folder of its own.
 */
export function claudeTranscript(steps: readonly TranscriptStep[], cwd = "/project"): string {
  const lines: unknown[] = [{ type: "user", uuid: "u0", sessionId: "s", cwd, version: "2.1.330", message: { role: "user", content: "Do the task." } }];
  steps.forEach((step, index) => {
    const id = `toolu_${String(index)}`;
    const use = (name: string, input: Record<string, unknown>) => lines.push({ type: "assistant", uuid: `a${String(index)}`, cwd, message: { role: "assistant", content: [{ type: "tool_use", id, name, input }] } });
    const result = (content: string, isError: boolean) =>
      lines.push({ type: "user", uuid: `r${String(index)}`, cwd, message: { role: "user", content: [{ type: "tool_result", tool_use_id: id, content, ...(isError ? { is_error: true } : {}) }] } });
    if ("bash" in step) {
      use("Bash", { command: step.bash, description: "Run it" });
      const output = step.output ?? "";
      if (step.exitCode === 0) result(output, false);
      else result(`Exit code ${String(step.exitCode)}\n${output}`, true);
    } else if ("write" in step) {
      const file = path.resolve(cwd, step.write);
      use("Write", { file_path: file, content: "x" });
      if (step.failed === true) result("<tool_use_error>File has not been read yet. Read it first before writing to it.</tool_use_error>", true);
      else result(step.created ? `File created successfully at: ${file}` : `The file ${file} has been updated successfully.`, false);
    } else {
      use("Agent", { description: `Run ${step.agent}`, prompt: "Do it.", subagent_type: step.agent });
      if (step.returned) result("Done.", false);
    }
  });
  const file = path.join(mkdtempSync(path.join(tmpdir(), "returnlint-transcript-")), "transcript.jsonl");
  writeFileSync(file, `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`);
  return file;
}
