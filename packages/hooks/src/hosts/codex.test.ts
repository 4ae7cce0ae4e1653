import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { tempProject } from "@returnlint/testing";
import { afterAll, describe, expect, it } from "vitest";
import { claude, codex, hostNamed, parseCodexPayload, runStopHook, STATE_DIR, type HostAdapter } from "../index.js";

// The Codex adapter, on the payload Codex 0.169.0 really sent (recorded from `codex exec` with a
// SubagentStop hook in .codex/hooks.json) and on the rollout its agent_transcript_path named.

const FIXTURES = path.join(path.dirname(new URL(import.meta.url).pathname), "fixtures");
const RECORDED = JSON.parse(readFileSync(path.join(FIXTURES, "codex-0.169.0-subagent-stop.json"), "utf8")) as Record<string, unknown>;
const ROLLOUT = path.join(FIXTURES, "codex-0.169.0-subagent-rollout.jsonl");
const REPORT = "specs/259_prove_completeness/reports/research-001.md";

const roots: string[] = [];
afterAll(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function project(files: Readonly<Record<string, unknown>> = {}): string {
  const root = tempProject(files);
  roots.push(root);
  return root;
}

/** The recorded payload, moved to `root`, its final message a console return claiming REPORT. */
function payload(root: string, fields: Readonly<Record<string, unknown>> = {}): string {
  const value = {
    status: "completed",
    summary: "Found the lemmas the completeness proof needs; report written.",
    artifacts: [{ type: "report", path: REPORT, summary: "Research report" }],
    metadata: { session_id: "sess_1736700000_abc123", agent_type: "lean-research-agent", delegation_depth: 1, delegation_path: ["orchestrator", "research", "lean-research-agent"] },
  };
  const message = `Research complete.\n\n\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\``;
  return JSON.stringify({ ...RECORDED, cwd: root, agent_transcript_path: ROLLOUT, last_assistant_message: message, ...fields });
}

async function stop(host: HostAdapter, root: string, payloadText: string, command?: string): Promise<{ status: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const status = await runStopHook(host, {
    payloadText,
    cwd: root,
    ...(command === undefined ? {} : { command }),
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
  });
  return { status, stdout, stderr };
}

const verdict = (root: string) => JSON.parse(readFileSync(path.join(root, STATE_DIR, "verdicts", `lean-research-agent--${String(RECORDED.agent_id)}.json`), "utf8")) as Record<string, unknown>;

describe("parseCodexPayload", () => {
  it("reads the payload Codex 0.169.0 sends, its rollout for the claims rules", () => {
    expect(parseCodexPayload(JSON.stringify(RECORDED))).toEqual({
      ok: true,
      payload: {
        event: "SubagentStop",
        main: false,
        sessionId: RECORDED.session_id,
        cwd: RECORDED.cwd,
        stopHookActive: false,
        agentId: RECORDED.agent_id,
        agentType: "lean-research-agent",
        lastAssistantMessage: RECORDED.last_assistant_message,
        transcriptPath: RECORDED.agent_transcript_path,
      },
    });
  });

  it.each([
    ["a stop whose final message Codex did not have (null)", { last_assistant_message: null }, { ok: true }],
    ["a Stop of the main agent", { hook_event_name: "Stop", agent_id: undefined, agent_type: undefined }, { ok: true, payload: expect.objectContaining({ event: "Stop", main: true }) as unknown }],
    ["another event", { hook_event_name: "SubagentStart" }, { ok: false, reason: '"hook_event_name" is "SubagentStart": returnlint handles Stop and SubagentStop hooks only' }],
  ])("%s", (_name, fields, expected) => {
    expect(parseCodexPayload(JSON.stringify({ ...RECORDED, ...fields }))).toMatchObject(expected);
  });
});

describe("returnlint hook codex", { timeout: 30_000 }, () => {
  it("is registered under its name", () => {
    expect(hostNamed("codex")).toBe(codex);
  });

  it("blocks a return whose report does not exist with Codex's block, and leaves the verdict", async () => {
    const root = project();
    const answer = await stop(codex, root, payload(root));
    expect(answer.status).toBe(0);
    const output = JSON.parse(answer.stdout) as Record<string, unknown>;
    expect(Object.keys(output)).toEqual(["decision", "reason"]);
    expect(output.decision).toBe("block");
    expect(output.reason).toContain("returnlint: Your final message's return failed validation for /research (1 problem, attempt 1):");
    expect(output.reason).toContain(`- /artifacts/0/path: file "${REPORT}" does not exist; write it, or fix the path.`);
    expect(verdict(root)).toMatchObject({ ok: false, command: "research", agentType: "lean-research-agent", agentId: RECORDED.agent_id, sessionId: RECORDED.session_id, decision: "block", attempts: 1 });
  });

  it("lets a good return stop with nothing on standard output (Codex's allow)", async () => {
    const root = project({ [REPORT]: "# Research\n" });
    expect(await stop(codex, root, payload(root))).toEqual({ status: 0, stdout: "", stderr: "" });
    expect(verdict(root)).toMatchObject({ ok: true, decision: "pass" });
  });

  it("never reads the rollout as a Claude Code transcript: no write in it is no evidence of phantom work", async () => {
    // artifact-evidence asked for transcript evidence only: read as Claude Code's, the rollout would
    // show no Write of the report, and the written report would be sent back as phantom work. Core
    // tells a rollout apart, whichever adapter hands it over.
    const config = { "returnlint.config.json": { rules: { "artifact-evidence": ["error", { evidence: ["transcript"] }] } }, [REPORT]: "# Research\n" };
    const asClaude = project(config);
    expect(await stop(claude, asClaude, payload(asClaude))).toEqual({ status: 0, stdout: "", stderr: "" });

    const root = project(config);
    expect(await stop(codex, root, payload(root))).toEqual({ status: 0, stdout: "", stderr: "" });
    expect(verdict(root)).toMatchObject({ ok: true, decision: "pass", errors: [] });
  });

  it("says so, in Codex's systemMessage, when Codex sent no final message, and lets the stop through", async () => {
    const root = project();
    const answer = await stop(codex, root, payload(root, { last_assistant_message: null }));
    const sentence =
      "returnlint hook: ignoring a hook payload without the agent's final message (SubagentStop of lean-research-agent): this Codex version does not send it (the stop goes through; --fail-closed blocks instead)";
    expect(answer).toEqual({ status: 0, stdout: `${JSON.stringify({ systemMessage: sentence })}\n`, stderr: `${sentence}\n` });
  });

  it.each(["default", "worker", "explorer"])("leaves Codex's own %s agent alone, whatever --command says", async (agent) => {
    const root = project();
    expect(await stop(codex, root, payload(root, { agent_type: agent }), "research")).toEqual({ status: 0, stdout: "", stderr: "" });
    expect(() => readFileSync(path.join(root, STATE_DIR, "ledger.json"))).toThrow();
  });
});
