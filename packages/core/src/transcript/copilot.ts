import path from "node:path";
import { isObject } from "../pointer.js";
import { tailOf, type CommandFact, type HostReader, type SubagentFact, type WriteFact } from "./facts.js";

/**
 * Copilot CLI's session log (`session-state/ID/events.jsonl`, recorded from 1.0.102 in
 * fixtures/copilot-1.0.102/): `session.start` first (`copilotVersion`, `context.cwd`), then
 * `tool.execution_start` (`toolCallId`, `toolName`, `arguments`) answered by
 * `tool.execution_complete` (`success`, `shellExecution.exitCode`, `result.content`). One log holds
 * the whole session: a subagent's events carry its `agentId` at the top level, so a subagent's run
 * is the events with its id, the main agent's those with none.
 */

const SHELL_TOOLS = new Set(["bash", "powershell"]);
const CREATE_TOOLS = new Set(["create"]);
const EDIT_TOOLS = new Set(["edit", "str_replace", "str_replace_editor", "apply_patch"]);

type Call =
  | { readonly kind: "command"; readonly line: number; readonly command: string }
  | { readonly kind: "write"; readonly line: number; readonly path: string; readonly tool: string; readonly action: "created" | "modified" }
  | { readonly kind: "subagent"; readonly line: number; readonly agent: string };

export function copilotReader(root: string, agentId: string | undefined): HostReader {
  const calls = new Map<string, Call>();
  const commands: CommandFact[] = [];
  const writes: WriteFact[] = [];
  const subagents: SubagentFact[] = [];
  let cwd = root;
  let hostVersion: string | undefined;
  return {
    wants: (raw) => raw.includes('"tool.execution_') || raw.includes('"session.start"'),
    line(entry, line) {
      const data = entry.data;
      if (!isObject(data)) return;
      if (entry.type === "session.start") {
        if (typeof data.copilotVersion === "string") hostVersion = data.copilotVersion;
        if (isObject(data.context) && typeof data.context.cwd === "string" && path.isAbsolute(data.context.cwd)) cwd = data.context.cwd;
        return;
      }
      // Only this agent's own calls: a subagent's events name it, the main agent's name none.
      if ((typeof entry.agentId === "string" ? entry.agentId : undefined) !== agentId) return;
      const id = typeof data.toolCallId === "string" ? data.toolCallId : undefined;
      if (id === undefined) return;
      if (entry.type === "tool.execution_start" && typeof data.toolName === "string" && isObject(data.arguments)) {
        const call = callOf(data.toolName, data.arguments, cwd, line);
        if (call !== undefined) calls.set(id, call);
        return;
      }
      if (entry.type !== "tool.execution_complete") return;
      const call = calls.get(id);
      if (call === undefined) return;
      calls.delete(id);
      const ok = data.success === true;
      const output = isObject(data.result) && typeof data.result.content === "string" ? data.result.content : "";
      if (call.kind === "command") {
        const exitCode = isObject(data.shellExecution) && typeof data.shellExecution.exitCode === "number" ? data.shellExecution.exitCode : ok ? undefined : 1;
        commands.push({ line: call.line, command: call.command, exitCode, outputTail: tailOf(output) });
      } else if (call.kind === "write") {
        writes.push({ line: call.line, path: call.path, tool: call.tool, action: call.action, ok });
      } else {
        subagents.push({ line: call.line, agent: call.agent, returned: ok, ...(ok ? { returnLine: line } : {}) });
      }
    },
    finish() {
      for (const call of calls.values()) {
        if (call.kind === "command") commands.push({ line: call.line, command: call.command, exitCode: undefined, outputTail: "" });
        else if (call.kind === "subagent") subagents.push({ line: call.line, agent: call.agent, returned: false });
        else writes.push({ line: call.line, path: call.path, tool: call.tool, action: call.action, ok: false });
      }
      const byLine = (a: { line: number }, b: { line: number }) => a.line - b.line;
      return { commands: commands.sort(byLine), writes: writes.sort(byLine), subagents: subagents.sort(byLine), ...(hostVersion === undefined ? {} : { hostVersion }) };
    },
  };
}

function callOf(tool: string, input: Record<string, unknown>, cwd: string, line: number): Call | undefined {
  if (SHELL_TOOLS.has(tool) && typeof input.command === "string") return { kind: "command", line, command: input.command };
  if ((CREATE_TOOLS.has(tool) || EDIT_TOOLS.has(tool)) && typeof input.path === "string" && input.path !== "") {
    return { kind: "write", line, path: path.resolve(cwd, input.path), tool, action: CREATE_TOOLS.has(tool) ? "created" : "modified" };
  }
  if (tool === "task") {
    const agent = typeof input.agent_type === "string" ? input.agent_type : typeof input.name === "string" ? input.name : "task";
    return { kind: "subagent", line, agent };
  }
  return undefined;
}
