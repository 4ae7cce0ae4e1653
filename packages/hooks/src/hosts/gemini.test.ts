import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tempProject } from "@returnlint/testing";
import { runStopHook, STATE_DIR, type StopHookOptions } from "../index.js";
import { gemini, parseGeminiPayload } from "./gemini.js";

// Gemini CLI 0.61.0's AfterTool payloads, as the real binary gave them to a hook that saved its
// standard input (headless, against a scripted model, as test/hosts/gemini.hosts.ts runs it): the
// parent's invoke_agent call of lean-research-agent, whose return names a report it never wrote, and
// the subagent's own complete_task call, which the hook leaves alone.
const RECORDED = path.join(import.meta.dirname, "..", "fixtures");
const recorded = (name: string) => JSON.parse(readFileSync(path.join(RECORDED, name), "utf8")) as Record<string, unknown> & { tool_response: Record<string, unknown> };
const INVOKE_AGENT = recorded("gemini-invoke-agent.json");
const COMPLETE_TASK = recorded("gemini-complete-task.json");
const SESSION = String(INVOKE_AGENT.session_id);
const REPORT = "specs/259_prove_completeness/reports/research-001.md";

/** The recorded invoke_agent payload, moved to `root`, with the agent and the subagent's result changed when a test says so. */
function invokeAgent(root: string, change: { readonly agent?: string; readonly result?: string; readonly session?: string } = {}): string {
  const display = INVOKE_AGENT.tool_response.returnDisplay as Record<string, unknown>;
  return JSON.stringify({
    ...INVOKE_AGENT,
    cwd: root,
    session_id: change.session ?? SESSION,
    tool_input: { ...(INVOKE_AGENT.tool_input as object), agent_name: change.agent ?? "lean-research-agent" },
    tool_response: { ...INVOKE_AGENT.tool_response, returnDisplay: { ...display, result: change.result ?? display.result } },
  });
}

/** A console return naming `artifact`, as the subagent passes it to complete_task. */
function consoleReturn(artifact: string): string {
  const value = {
    status: "completed",
    summary: "Report written.",
    artifacts: [{ type: "report", path: artifact, summary: "Research report" }],
    metadata: { session_id: "sess_1736700000_abc123", agent_type: "lean-research-agent", delegation_depth: 1, delegation_path: ["orchestrator", "research", "lean-research-agent"] },
  };
  return `Research complete.\n\n\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\``;
}

async function hook(payloadText: string, options: Partial<Omit<StopHookOptions, "stdout" | "stderr" | "payloadText">> = {}): Promise<{ status: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const status = await runStopHook(gemini, {
    cwd: tmpdir(),
    ...options,
    payloadText,
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
  });
  return { status, stdout, stderr };
}

const verdictOf = (root: string) => JSON.parse(readFileSync(path.join(root, STATE_DIR, "verdicts", `lean-research-agent--${SESSION}.json`), "utf8")) as Record<string, unknown>;

describe("returnlint hook gemini: reading Gemini CLI's AfterTool payload", () => {
  it("reads the recorded invoke_agent call: the agent from its input, the return from returnDisplay.result", () => {
    const outcome = parseGeminiPayload(JSON.stringify(INVOKE_AGENT));
    expect(outcome).toEqual({
      ok: true,
      payload: {
        event: "AfterTool",
        main: false,
        sessionId: SESSION,
        cwd: INVOKE_AGENT.cwd,
        stopHookActive: false,
        agentType: "lean-research-agent",
        lastAssistantMessage: (INVOKE_AGENT.tool_response.returnDisplay as { result: string }).result,
      },
    });
  });

  it("reads the text the parent reads, without Gemini's header, when there is no returnDisplay", () => {
    const { returnDisplay: _display, ...response } = INVOKE_AGENT.tool_response;
    const outcome = parseGeminiPayload(JSON.stringify({ ...INVOKE_AGENT, tool_response: response }));
    expect(outcome.ok && "payload" in outcome ? outcome.payload.lastAssistantMessage : undefined).toMatch(/^Research complete\.\n\n```json\n\{\n {2}"status": "completed"/);
  });

  it("leaves other tools, the subagent's own complete_task, and runs that returned nothing alone", () => {
    expect(parseGeminiPayload(JSON.stringify(COMPLETE_TASK))).toEqual({ ok: true, ignore: "a call of complete_task, not of invoke_agent" });
    const failed = { llmContent: "Subagent 'lean-research-agent' failed. Error: quota", returnDisplay: { isSubagentProgress: true, agentName: "lean-research-agent", recentActivity: [], state: "error" } };
    expect(parseGeminiPayload(JSON.stringify({ ...INVOKE_AGENT, tool_response: failed }))).toEqual({ ok: true, ignore: "lean-research-agent returned nothing: its run failed or was cancelled" });
    expect(parseGeminiPayload(JSON.stringify({ ...INVOKE_AGENT, tool_response: { llmContent: "Subagent 'x' failed. Error: boom" } }))).toMatchObject({ ok: true, ignore: expect.any(String) as string });
    expect(parseGeminiPayload(JSON.stringify({ ...INVOKE_AGENT, tool_response: { llmContent: "blocked", error: { type: "execution_failed", message: "denied" } } }))).toMatchObject({ ok: true, ignore: expect.any(String) as string });
  });

  it("says in one sentence what is wrong with a payload that is no invoke_agent AfterTool call", () => {
    expect(parseGeminiPayload(JSON.stringify({ ...INVOKE_AGENT, hook_event_name: "BeforeTool" }))).toEqual({ ok: false, reason: '"hook_event_name" is "BeforeTool": returnlint hook gemini handles AfterTool hooks of invoke_agent only' });
    expect(parseGeminiPayload(JSON.stringify({ ...INVOKE_AGENT, tool_input: { prompt: "x" }, tool_response: "done" }))).toEqual({
      ok: false,
      reason: '"tool_input.agent_name" is missing; "tool_response" must be an object; received string',
    });
    expect(parseGeminiPayload(JSON.stringify({ hook_event_name: "AfterTool" }))).toEqual({ ok: false, reason: '"session_id" is missing; "cwd" is missing; "tool_name" is missing' });
  });
});

describe("returnlint hook gemini: the parent reads the block in place of the return", () => {
  it("blocks the recorded phantom return with what the parent needs: why it failed, what to do, what it returned", async () => {
    const root = tempProject();
    const run = await hook(invokeAgent(root));
    expect(run.status).toBe(0);
    expect(run.stderr).toBe("");
    const answer = JSON.parse(run.stdout) as { decision: string; reason: string };
    expect(answer.decision).toBe("block");
    expect(answer.reason.split("\n")[0]).toBe("returnlint: the subagent lean-research-agent stopped, and its return failed validation for /research (1 problem). Its work is not done as it says:");
    expect(answer.reason).toContain(`\n1. Artifact does not exist: ${REPORT}\n`);
    expect(answer.reason).toContain("\nDo not rely on what it claims. Run it again to do the missing work (tell it what failed above), or do the work yourself, then check again.\n");
    expect(answer.reason).toContain(`\nWhat it returned, which this message replaces:\nResearch complete.\n\n\`\`\`json\n`);
    expect(verdictOf(root)).toMatchObject({ ok: false, command: "research", agentType: "lean-research-agent", agentId: null, sessionId: SESSION, attempts: 1, decision: "block", phantom: true });
  });

  it("passes once the report is there: nothing on standard output, the run closed", async () => {
    const root = tempProject({ [REPORT]: "# Research\n" });
    const run = await hook(invokeAgent(root));
    expect(run).toEqual({ status: 0, stdout: "", stderr: "" });
    expect(verdictOf(root)).toMatchObject({ ok: true, decision: "pass", attempts: 1 });
  });

  it("cuts a long return it quotes, and says how much it left out", async () => {
    const root = tempProject();
    const long = `${consoleReturn(REPORT)}\n\n${"Notes on the lemmas. ".repeat(200)}`;
    const reason = (JSON.parse((await hook(invokeAgent(root, { result: long }))).stdout) as { reason: string }).reason;
    expect(reason).toContain(`\n… (${String(long.length - 2000)} more characters)`);
    expect(reason.length).toBeLessThan(long.length);
  });

  it("counts the parent's re-invocations of the same agent in the session: blocks, then gives way after --max-blocks, said to the user", async () => {
    const root = tempProject();
    const first = await hook(invokeAgent(root, { result: consoleReturn(`${REPORT}.1`) }), { maxBlocks: 1 });
    expect(JSON.parse(first.stdout)).toMatchObject({ decision: "block" });
    const second = await hook(invokeAgent(root, { result: consoleReturn(`${REPORT}.2`) }), { maxBlocks: 1 });
    expect(second.status).toBe(0);
    expect(JSON.parse(second.stdout)).toEqual({
      systemMessage: `returnlint hook: gave up after 1 block, the most --max-blocks allows (max-blocks): the return of lean-research-agent still fails (1 problem); the verdict in .returnlint/verdicts/lean-research-agent--${SESSION}.json records it`,
    });
    expect(verdictOf(root)).toMatchObject({ ok: false, attempts: 2, decision: "allow", allowedBecause: "max-blocks" });

    // Another session is another run.
    const other = await hook(invokeAgent(root, { session: "another-session" }), { maxBlocks: 1 });
    expect(JSON.parse(other.stdout)).toMatchObject({ decision: "block" });
  });

  it("a pass ends the run: the next failing invocation of that agent is blocked again", async () => {
    const root = tempProject();
    expect(JSON.parse((await hook(invokeAgent(root), { maxBlocks: 1 })).stdout)).toMatchObject({ decision: "block" });
    writeFileSync(path.join(root, "passing.md"), "# Done\n");
    expect((await hook(invokeAgent(root, { result: consoleReturn("passing.md") }), { maxBlocks: 1 })).stdout).toBe("");
    expect(JSON.parse((await hook(invokeAgent(root), { maxBlocks: 1 })).stdout)).toMatchObject({ decision: "block" });
  });

  it("leaves Gemini CLI's own agents alone, whatever --command says", async () => {
    const root = tempProject();
    for (const agent of ["codebase_investigator", "cli_help", "generalist", "browser_agent"]) {
      expect(await hook(invokeAgent(root, { agent, result: "Here is what I found, in prose." }), { command: "research" })).toEqual({ status: 0, stdout: "", stderr: "" });
    }
    expect(existsSync(path.join(root, STATE_DIR))).toBe(false);
  });

  it("a broken payload goes through, said to the user as a systemMessage; --fail-closed exits 2 with the sentence, which Gemini CLI makes the reason", async () => {
    const broken = JSON.stringify({ ...INVOKE_AGENT, hook_event_name: "AfterAgent" });
    const open = await hook(broken);
    expect(open.status).toBe(0);
    expect(JSON.parse(open.stdout)).toEqual({
      systemMessage: 'returnlint hook: ignoring a broken hook payload: "hook_event_name" is "AfterAgent": returnlint hook gemini handles AfterTool hooks of invoke_agent only (the stop goes through; --fail-closed blocks instead)',
    });
    const closed = await hook(broken, { failClosed: true });
    expect(closed).toEqual({
      status: 2,
      stdout: "",
      stderr: 'returnlint hook: ignoring a broken hook payload: "hook_event_name" is "AfterAgent": returnlint hook gemini handles AfterTool hooks of invoke_agent only\n',
    });
  });

  it("writes nothing for the subagent's complete_task call", async () => {
    const root = tempProject();
    expect(await hook(JSON.stringify({ ...COMPLETE_TASK, cwd: root }))).toEqual({ status: 0, stdout: "", stderr: "" });
    expect(readdirSync(root)).toEqual([]);
  });
});
