import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tempProject } from "@returnlint/testing";
import { copilot, copilotLogCaughtUp, parseCopilotPayload, parsePayload, runStopHook, STATE_DIR, type StopHookOptions } from "../index.js";

// Copilot CLI's stop hooks, on the payloads Copilot CLI 1.0.102 sent a hook script (recorded in
// fixtures/copilot-1.0.102/: a custom agent, lean-research-agent, and the built-in explore).

const FIXTURES = path.join(import.meta.dirname, "fixtures", "copilot-1.0.102");
const REPORT = "specs/259_prove_completeness/reports/research-001.md";

function fixture(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path.join(FIXTURES, `${name}.json`), "utf8")) as Record<string, unknown>;
}

/** The final message of a research subagent whose v7 return names `artifacts`. */
function finalMessage(artifacts: readonly string[]): string {
  const value = {
    status: "completed",
    summary: "Researched task 259 and wrote the report.",
    artifacts: artifacts.map((artifact) => ({ type: "report", path: artifact, summary: "Research report" })),
    metadata: { session_id: "sess_1", agent_type: "lean-research-agent", delegation_depth: 1, delegation_path: ["orchestrator", "research", "lean-research-agent"] },
  };
  return `Research complete.\n\n\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\``;
}

/** The recorded subagentStop of lean-research-agent, in `root`, ending with `message`. */
function subagentStop(root: string, message: string, fields: Readonly<Record<string, unknown>> = {}): string {
  return JSON.stringify({ ...fixture("subagentStop"), cwd: root, response: message, ...fields });
}

async function run(options: Omit<StopHookOptions, "stdout" | "stderr">): Promise<{ status: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const status = await runStopHook(copilot, {
    ...options,
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
  });
  return { status, stdout, stderr };
}

const AGENT_ID = String(fixture("subagentStop").agentId);
const verdictOf = (root: string) => JSON.parse(readFileSync(path.join(root, STATE_DIR, "verdicts", `lean-research-agent--${AGENT_ID}.json`), "utf8")) as Record<string, unknown>;

describe("parseCopilotPayload: what Copilot CLI 1.0.102 sends", () => {
  it("its subagentStop: the subagent's final message is `response`; the session's log is its transcript, read for the subagent's agentId", () => {
    const recorded = fixture("subagentStop");
    expect(parseCopilotPayload(JSON.stringify(recorded))).toEqual({
      ok: true,
      payload: {
        event: "subagentStop",
        main: false,
        sessionId: recorded.sessionId,
        cwd: "/home/dev/project",
        stopHookActive: false,
        agentId: recorded.agentId,
        agentType: "lean-research-agent",
        lastAssistantMessage: recorded.response,
        transcriptPath: recorded.transcriptPath,
        transcriptAgentId: recorded.agentId,
        stoppedAt: recorded.timestamp,
      },
    });
    expect(parseCopilotPayload(JSON.stringify(fixture("subagentStop-explore")))).toMatchObject({ ok: true, payload: { agentType: "explore" } });
  });

  it("the Claude Code shape it sends to SubagentStop hooks (.claude/settings.json, or PascalCase in .github/hooks)", () => {
    const recorded = fixture("claude-SubagentStop");
    expect(parseCopilotPayload(JSON.stringify(recorded))).toEqual({
      ok: true,
      payload: {
        event: "SubagentStop",
        main: false,
        sessionId: recorded.session_id,
        cwd: "/home/dev/project",
        stopHookActive: false,
        agentId: recorded.agent_id,
        agentType: "lean-research-agent",
        lastAssistantMessage: recorded.last_assistant_message,
      },
    });
  });

  it.each([
    ["agentStop", "an agentStop: subagentStop is checked"],
    ["agentStop-explore", "an agentStop: subagentStop is checked"],
    ["agentStop-main", "an agentStop: subagentStop is checked"],
    ["claude-Stop", "a subagent's own Stop (Copilot CLI): its SubagentStop is checked"],
    ["claude-Stop-explore", "a subagent's own Stop (Copilot CLI): its SubagentStop is checked"],
    ["claude-Stop-main", "Copilot CLI's Stop carries no final message: subagentStop is checked"],
  ])("leaves %s alone: it carries no final message, and a block inside a subagent does not send it back", (name, why) => {
    expect(parseCopilotPayload(JSON.stringify(fixture(name)))).toEqual({ ok: true, ignore: why });
  });

  it.each([
    ["a subagentStart", { sessionId: "s", cwd: "/p", agentName: "lean-research-agent", agentType: "lean-research-agent" }, `the payload has no "stopReason": it is no subagentStop hook's (returnlint handles subagentStop hooks only)`],
    ["a subagentStop without its session", { cwd: "/p", stopReason: "end_turn", agentName: "x", stop_hook_active: "no" }, '"sessionId" is missing; "stop_hook_active" must be a boolean; received string'],
    ["a list", [], "the payload must be a JSON object; received array"],
  ])("says what is wrong with %s", (_name, payload, reason) => {
    expect(parseCopilotPayload(JSON.stringify(payload))).toEqual({ ok: false, reason });
  });

  it("returnlint hook claude, run by Copilot CLI from .claude/settings.json, leaves a subagent's own Stop alone and reads no parent log as the subagent's transcript", () => {
    expect(parsePayload(JSON.stringify(fixture("claude-Stop")))).toEqual({ ok: true, ignore: "a subagent's own Stop (Copilot CLI): its SubagentStop is checked" });
    const outcome = parsePayload(JSON.stringify(fixture("claude-SubagentStop")));
    expect(outcome).toMatchObject({ ok: true, payload: { event: "SubagentStop", agentType: "lean-research-agent" } });
    expect(outcome.ok && "payload" in outcome ? outcome.payload.transcriptPath : "not parsed").toBeUndefined();
  });
});

describe("returnlint hook copilot", () => {
  it("blocks a phantom return with the reason for the subagent, and lets the fixed one stop with nothing on standard output", async () => {
    const root = tempProject();
    const blocked = await run({ payloadText: subagentStop(root, finalMessage([REPORT])), cwd: root });
    expect(blocked.status).toBe(0);
    const answer = JSON.parse(blocked.stdout) as { decision: string; reason: string };
    expect(answer.decision).toBe("block");
    expect(answer.reason).toContain("returnlint: Your final message's return failed validation for /research (1 problem, attempt 1):");
    expect(answer.reason).toContain(`\n- /artifacts/0/path: file "${REPORT}" does not exist; write it, or fix the path.\n`);
    expect(verdictOf(root)).toMatchObject({ ok: false, decision: "block", agentType: "lean-research-agent", agentId: AGENT_ID, attempts: 1 });

    mkdirSync(path.join(root, path.dirname(REPORT)), { recursive: true });
    writeFileSync(path.join(root, REPORT), "# Research\n");
    // Copilot CLI says stop_hook_active once a stop hook has blocked the subagent.
    const fixed = await run({ payloadText: subagentStop(root, finalMessage([REPORT]), { stop_hook_active: true }), cwd: root });
    expect(fixed).toEqual({ status: 0, stdout: "", stderr: "" });
    expect(verdictOf(root)).toMatchObject({ ok: true, decision: "pass", attempts: 2 });
  });

  it("leaves the built-in explore agent and an agentStop alone, writing nothing", async () => {
    const root = tempProject();
    const explore = await run({ payloadText: JSON.stringify({ ...fixture("subagentStop-explore"), cwd: root }), cwd: root });
    expect(explore).toEqual({ status: 0, stdout: "", stderr: "" });
    const agentStop = await run({ payloadText: JSON.stringify({ ...fixture("agentStop"), cwd: root }), cwd: root });
    expect(agentStop).toEqual({ status: 0, stdout: "", stderr: "" });
    expect(existsSync(path.join(root, STATE_DIR))).toBe(false);
  });

  it("lets a stop through with exit 2, which Copilot CLI shows as a hook warning: a broken config, a broken payload", async () => {
    const root = tempProject({ "returnlint.config.json": JSON.stringify({ rules: { "status-enun": "error" } }) });
    const broken = await run({ payloadText: subagentStop(root, finalMessage([REPORT])), cwd: root });
    expect(broken.status).toBe(2);
    expect(broken.stdout).toBe("");
    expect(broken.stderr).toContain('rules.status-enun: unknown rule "status-enun"');
    expect(broken.stderr).toContain("(the stop goes through; --fail-closed blocks instead)");
    expect(verdictOf(root)).toMatchObject({ ok: false, decision: "allow", allowedBecause: "config-error" });

    const payload = await run({ payloadText: "{", cwd: root });
    expect(payload).toMatchObject({ status: 2, stdout: "" });
    expect(payload.stderr).toContain("ignoring a broken hook payload: standard input is not JSON");
  });

  it("--fail-closed holds the subagent with a block (Copilot CLI's exit 2 only warns), once per problem", async () => {
    const root = tempProject({ "returnlint.config.json": JSON.stringify({ rules: { "status-enun": "error" } }) });
    const held = await run({ payloadText: subagentStop(root, finalMessage([REPORT])), cwd: root, failClosed: true });
    expect(held.status).toBe(0);
    expect((JSON.parse(held.stdout) as { decision: string; reason: string }).reason).toContain('rules.status-enun: unknown rule "status-enun"');
    const again = await run({ payloadText: subagentStop(root, finalMessage([REPORT]), { stop_hook_active: true }), cwd: root, failClosed: true });
    expect(again.status).toBe(2);
    expect(again.stdout).toBe("");
    expect(again.stderr).toContain("(--fail-closed gave way: repeated-feedback)");
    expect(readdirSync(path.join(root, STATE_DIR, "verdicts"))).toEqual([`lean-research-agent--${AGENT_ID}.json`]);
  });
});

/**
 * Copilot CLI 1.0.102 writes its session log behind its hooks: a subagent's last commands can reach
 * events.jsonl after its subagentStop hook started (seen in the hosts suite: a green run blocked for
 * "no test run"). The log recorded there (the claims reader's fixture) ends with this stop's
 * hook.start at line 27; the hook waits for it before it weighs claims against the log.
 */
describe("returnlint hook copilot: a session log that has not caught up with the stop", () => {
  const LOG = path.join(import.meta.dirname, "..", "..", "..", "core", "src", "transcript", "fixtures", "copilot-1.0.102", "events.jsonl");
  const lines = readFileSync(LOG, "utf8").split("\n");
  const hookStart = JSON.parse(lines[26] ?? "") as { data: { input: Record<string, unknown> } };
  const input = hookStart.data.input;
  /** The subagent's stop as Copilot CLI sent it, with the log at `log`. */
  const stop = (root: string, log: string) => JSON.stringify({ ...input, cwd: root, transcriptPath: log });
  const strictProject = () => tempProject({ "returnlint.config.json": JSON.stringify({ preset: "strict" }), "specs/259_prove_completeness/notes.md": "# Notes\n" });
  const payload = { event: "subagentStop", main: false, sessionId: "s", cwd: "/", stopHookActive: false, agentId: String(input.agentId), stoppedAt: Number(input.timestamp) };

  it("copilotLogCaughtUp: yes once the log holds this stop's hook.start, not for another stop's", () => {
    expect(copilotLogCaughtUp(payload, lines.slice(0, 26).join("\n"))).toBe(false);
    expect(copilotLogCaughtUp(payload, lines.slice(0, 27).join("\n"))).toBe(true);
    // The second stop of the same agent (line 36) is not this one.
    expect(copilotLogCaughtUp({ ...payload, stoppedAt: payload.stoppedAt + 1 }, lines.slice(0, 27).join("\n"))).toBe(false);
  });

  it("waits for the rest of the log, then weighs the claims against it: the failing test run is quoted", async () => {
    const root = strictProject();
    const log = path.join(root, "events.jsonl");
    writeFileSync(log, `${lines.slice(0, 16).join("\n")}\n`);
    const rest = setTimeout(() => {
      appendFileSync(log, lines.slice(16).join("\n"));
    }, 300);
    const ran = await run({ payloadText: stop(root, log), cwd: root });
    clearTimeout(rest);
    expect(ran.status).toBe(0);
    const answer = JSON.parse(ran.stdout) as { decision: string; reason: string };
    expect(answer.decision).toBe("block");
    expect(answer.reason).toMatch(/- \/tests_passed: your last test run failed \(transcript line 17, node --test: # fail 1\)/);
    expect(ran.stderr).toBe("");
  });

  it("a log that never catches up is not read: the return is judged without it, and the user is told why", async () => {
    const root = strictProject();
    const log = path.join(root, "events.jsonl");
    writeFileSync(log, `${lines.slice(0, 16).join("\n")}\n`);
    const ran = await run({ payloadText: stop(root, log), cwd: root });
    expect(ran.stdout).toBe("");
    expect(ran.stderr).toBe(`returnlint hook: Copilot CLI had not written this stop to ${log} after 3 s; the return's claims are not checked against it\n`);
    const verdict = JSON.parse(readFileSync(path.join(root, STATE_DIR, "verdicts", `lean-research-agent--${String(input.agentId)}.json`), "utf8")) as Record<string, unknown>;
    expect(verdict).toMatchObject({ ok: true, decision: "pass" });
  });
});
