import path from "node:path";
import { isObject } from "../pointer.js";
import { tailOf, type CommandFact, type HostReader, type SubagentFact, type WriteFact } from "./facts.js";

/**
 * Codex's rollout (JSONL, recorded from 0.169.0 in fixtures/codex-0.169.0/): `session_meta` first
 * (`cli_version`, `cwd`), then `response_item` entries whose payload is a `function_call`
 * (`exec_command` with `{"cmd"}` in its `arguments`; `spawn_agent` with `agent_type`;
 * `wait_agent`) or a `custom_tool_call` (`apply_patch`, the patch as `input`), each answered by a
 * `*_output` with the same `call_id`. exec_command's output says "Process exited with code N" and
 * then "Output:"; wait_agent's is `{"status":{ID:{"completed":…}}}` for a subagent that returned.
 */

const EXITED = /^Process exited with code (-?\d+)$/m;
const PATCH_FILE = /^\*\*\* (Add|Update|Delete) File: (.+)$/gm;

type Call =
  | { readonly kind: "command"; readonly line: number; readonly command: string }
  | { readonly kind: "patch"; readonly line: number; readonly files: readonly { readonly path: string; readonly action: "created" | "modified" }[] }
  | { readonly kind: "spawn"; readonly line: number; readonly agent: string }
  | { readonly kind: "wait"; readonly line: number };

export function codexReader(root: string): HostReader {
  const calls = new Map<string, Call>();
  const commands: CommandFact[] = [];
  const writes: WriteFact[] = [];
  /** Spawned subagents by their agent id. */
  const spawned = new Map<string, { line: number; agent: string; returnLine?: number }>();
  const unanswered: SubagentFact[] = [];
  let cwd = root;
  let hostVersion: string | undefined;
  return {
    wants: (raw) => raw.includes('"function_call') || raw.includes('"custom_tool_call') || raw.includes('"session_meta"') || raw.includes("subagent_notification"),
    line(entry, line) {
      const payload = entry.payload;
      if (!isObject(payload)) return;
      if (entry.type === "session_meta") {
        if (typeof payload.cli_version === "string") hostVersion = payload.cli_version;
        if (typeof payload.cwd === "string" && path.isAbsolute(payload.cwd)) cwd = payload.cwd;
        return;
      }
      if (entry.type !== "response_item") return;
      const id = typeof payload.call_id === "string" ? payload.call_id : undefined;
      if ((payload.type === "function_call" || payload.type === "custom_tool_call") && id !== undefined && typeof payload.name === "string") {
        const call = callOf(payload.name, payload.type === "function_call" ? parsedArguments(payload.arguments) : payload.input, cwd, line);
        if (call !== undefined) calls.set(id, call);
        return;
      }
      if ((payload.type === "function_call_output" || payload.type === "custom_tool_call_output") && id !== undefined) {
        const call = calls.get(id);
        if (call === undefined) return;
        calls.delete(id);
        const output = outputText(payload.output);
        if (call.kind === "command") {
          const exited = EXITED.exec(output);
          const after = output.indexOf("\nOutput:\n");
          commands.push({ line: call.line, command: call.command, exitCode: exited?.[1] === undefined ? undefined : Number(exited[1]), outputTail: tailOf(after === -1 ? output : output.slice(after + 9)) });
        } else if (call.kind === "patch") {
          const ok = /^Success\b/m.test(output) || /"exit_code":\s*0\b/.test(output);
          for (const file of call.files) writes.push({ line: call.line, path: file.path, tool: "apply_patch", action: file.action, ok });
        } else if (call.kind === "spawn") {
          const agentId = /"agent_id":"([^"]+)"/.exec(output)?.[1];
          if (agentId === undefined) unanswered.push({ line: call.line, agent: call.agent, returned: false });
          else spawned.set(agentId, { line: call.line, agent: call.agent });
        } else {
          markReturned(output, line);
        }
        return;
      }
      if (payload.type === "message" && Array.isArray(payload.content)) {
        for (const item of payload.content as unknown[]) {
          if (isObject(item) && typeof item.text === "string" && item.text.startsWith("<subagent_notification>")) markReturned(item.text, line);
        }
      }
    },
    finish() {
      for (const call of calls.values()) if (call.kind === "command") commands.push({ line: call.line, command: call.command, exitCode: undefined, outputTail: "" });
      const subagents: SubagentFact[] = [
        ...unanswered,
        ...[...spawned.values()].map(({ line, agent, returnLine }) => ({ line, agent, returned: returnLine !== undefined, ...(returnLine === undefined ? {} : { returnLine }) })),
      ];
      const byLine = (a: { line: number }, b: { line: number }) => a.line - b.line;
      return { commands: commands.sort(byLine), writes: writes.sort(byLine), subagents: subagents.sort(byLine), ...(hostVersion === undefined ? {} : { hostVersion }) };
    },
  };

  /** Subagents that came back: wait_agent's `{"status":{ID:{"completed":…}}}`, or a notification `{"agent_path":ID,"status":{"completed":…}}`. */
  function markReturned(text: string, line: number): void {
    const parsed = parsedArguments(text.replace(/^<subagent_notification>\s*/, "").replace(/\s*<\/subagent_notification>\s*$/, ""));
    if (!isObject(parsed) || !isObject(parsed.status)) return;
    const statuses: [unknown, unknown][] = typeof parsed.agent_path === "string" ? [[parsed.agent_path, parsed.status]] : Object.entries(parsed.status);
    for (const [agentId, status] of statuses) {
      const entry = typeof agentId === "string" ? spawned.get(agentId) : undefined;
      if (entry !== undefined && entry.returnLine === undefined && isObject(status) && "completed" in status) entry.returnLine = line;
    }
  }
}

function parsedArguments(text: unknown): unknown {
  if (typeof text !== "string") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function outputText(output: unknown): string {
  if (typeof output === "string") return output;
  if (isObject(output) && typeof output.content === "string") return output.content;
  return "";
}

function callOf(tool: string, input: unknown, cwd: string, line: number): Call | undefined {
  if (tool === "exec_command" && isObject(input) && typeof input.cmd === "string") return { kind: "command", line, command: input.cmd };
  // The older `shell` tool: an argv, `bash -lc SCRIPT` for a script.
  if (tool === "shell" && isObject(input) && Array.isArray(input.command)) {
    const argv = (input.command as unknown[]).filter((item): item is string => typeof item === "string");
    return { kind: "command", line, command: argv.length === 3 && argv[1] === "-lc" ? (argv[2] ?? "") : argv.join(" ") };
  }
  if (tool === "apply_patch") {
    const patch = typeof input === "string" ? input : isObject(input) && typeof input.input === "string" ? input.input : "";
    const files = [...patch.matchAll(PATCH_FILE)].flatMap((match) =>
      match[1] === "Delete" ? [] : [{ path: path.resolve(cwd, (match[2] ?? "").trim()), action: match[1] === "Add" ? ("created" as const) : ("modified" as const) }],
    );
    return { kind: "patch", line, files };
  }
  if (tool === "spawn_agent") return { kind: "spawn", line, agent: isObject(input) && typeof input.agent_type === "string" ? input.agent_type : "default" };
  if (tool === "wait_agent") return { kind: "wait", line };
  return undefined;
}
