import path from "node:path";
import { isObject } from "../pointer.js";
import { tailOf, type CommandFact, type HostReader, type SubagentFact, type WriteFact } from "./facts.js";

/**
 * Claude Code's transcript (JSONL, recorded from 2.1.330 in fixtures/claude-2.1.330/): `assistant`
 * entries whose `message.content` holds `tool_use` blocks (`Bash` with `input.command`, `Write`,
 * `Edit`, `MultiEdit`, `NotebookEdit` with the path they write, `Agent` or `Task` with
 * `input.subagent_type`), and `user` entries whose `tool_result` blocks answer them by
 * `tool_use_id`, `is_error` when the call failed. A failed Bash call's result starts with
 * "Exit code N"; Write says "File created successfully" for a new file.
 */

const WRITE_FIELDS: Readonly<Record<string, string>> = { Write: "file_path", Edit: "file_path", MultiEdit: "file_path", NotebookEdit: "notebook_path" };
const SUBAGENT_TOOLS = new Set(["Agent", "Task"]);
const EXIT_CODE = /^(?:Error: )?Exit code (\d+)/;

type Call =
  | { readonly kind: "command"; readonly line: number; readonly command: string }
  | { readonly kind: "write"; readonly line: number; readonly path: string; readonly tool: string }
  | { readonly kind: "subagent"; readonly line: number; readonly agent: string };

export function claudeReader(root: string): HostReader {
  const calls = new Map<string, Call>();
  const commands: CommandFact[] = [];
  const writes: WriteFact[] = [];
  const subagents: SubagentFact[] = [];
  const answered = new Set<string>();
  let hostVersion: string | undefined;
  return {
    wants: (raw) => raw.includes('"tool_use"') || raw.includes('"tool_result"') || hostVersion === undefined,
    line(entry, line) {
      if (hostVersion === undefined && typeof entry.version === "string") hostVersion = entry.version;
      const message = entry.message;
      if (!isObject(message) || !Array.isArray(message.content)) return;
      const base = typeof entry.cwd === "string" && path.isAbsolute(entry.cwd) ? entry.cwd : root;
      for (const block of message.content as unknown[]) {
        if (!isObject(block)) continue;
        if (block.type === "tool_use" && typeof block.id === "string" && typeof block.name === "string" && isObject(block.input)) {
          const call = callOf(block.name, block.input, base, line);
          if (call !== undefined) calls.set(block.id, call);
        } else if (block.type === "tool_result" && typeof block.tool_use_id === "string") {
          const call = calls.get(block.tool_use_id);
          if (call === undefined || answered.has(block.tool_use_id)) continue;
          answered.add(block.tool_use_id);
          const output = textOf(block.content);
          const failed = block.is_error === true;
          if (call.kind === "command") {
            const code = EXIT_CODE.exec(output);
            commands.push({ line: call.line, command: call.command, exitCode: code?.[1] !== undefined ? Number(code[1]) : failed ? undefined : 0, outputTail: tailOf(output) });
          } else if (call.kind === "write") {
            const action = /^File created successfully/.test(output) ? "created" : /has been updated|updated successfully|^The file .* has been/.test(output) ? "modified" : "unknown";
            writes.push({ line: call.line, path: call.path, tool: call.tool, action, ok: !failed });
          } else {
            subagents.push({ line: call.line, agent: call.agent, returned: !failed, returnLine: line });
          }
        }
      }
    },
    finish() {
      // Calls never answered: the run ended (or was cut) before their result.
      for (const [id, call] of calls) {
        if (answered.has(id)) continue;
        if (call.kind === "command") commands.push({ line: call.line, command: call.command, exitCode: undefined, outputTail: "" });
        else if (call.kind === "write") writes.push({ line: call.line, path: call.path, tool: call.tool, action: "unknown", ok: false });
        else subagents.push({ line: call.line, agent: call.agent, returned: false });
      }
      const byLine = (a: { line: number }, b: { line: number }) => a.line - b.line;
      return { commands: commands.sort(byLine), writes: writes.sort(byLine), subagents: subagents.sort(byLine), ...(hostVersion === undefined ? {} : { hostVersion }) };
    },
  };
}

function callOf(tool: string, input: Record<string, unknown>, base: string, line: number): Call | undefined {
  if (tool === "Bash" && typeof input.command === "string") return { kind: "command", line, command: input.command };
  const field = WRITE_FIELDS[tool];
  const named = field === undefined ? undefined : input[field];
  if (typeof named === "string" && named !== "") return { kind: "write", line, path: path.resolve(base, named), tool };
  if (SUBAGENT_TOOLS.has(tool)) {
    const agent = typeof input.subagent_type === "string" ? input.subagent_type : "general-purpose";
    return { kind: "subagent", line, agent };
  }
  return undefined;
}

/** A tool result's text: the string itself, or its text blocks joined. */
export function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return (content as unknown[]).flatMap((item) => (isObject(item) && typeof item.text === "string" ? [item.text] : [])).join("\n");
}
