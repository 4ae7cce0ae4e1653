import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { finalMessage, stop, subagentStop } from "./claude-payloads.js";
import { BIN, STACK_FRAME, project, returnlint, type Run } from "./helpers.js";

const TASK_DIR = "specs/259_prove_completeness";
const REPORT = `${TASK_DIR}/reports/research-001.md`;

function hook(payload: unknown, args: readonly string[] = []): Run {
  return returnlint(["hook", "claude", ...args], { input: typeof payload === "string" ? payload : JSON.stringify(payload) });
}

function readJson(file: string): Record<string, unknown> {
  return JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
}

const verdictOf = (root: string, name = "lean-research-agent--a4e1f2c3") => readJson(path.join(root, ".returnlint", "verdicts", `${name}.json`));

function blockReason(run: Run): string {
  expect(run.status).toBe(0);
  const output = JSON.parse(run.stdout) as { decision: string; reason: string };
  expect(Object.keys(output)).toEqual(["decision", "reason"]);
  expect(output.decision).toBe("block");
  return output.reason;
}

// Each test spawns the CLI several times: allow for a loaded machine.
describe("returnlint hook claude", { timeout: 30_000 }, () => {
  it("blocks a phantom return with a reason that names the missing artifact", () => {
    const root = project({});
    const run = hook(subagentStop({ cwd: root, message: finalMessage([REPORT]) }));
    expect(run.stderr).toBe("");
    const reason = blockReason(run);
    expect(reason).toContain("failed validation for /research (1 problem, attempt 1):");
    // Addressed to the subagent, in --format reask's words, not the orchestrator's transcript.
    expect(reason).toContain(`\n- /artifacts/0/path: file "${REPORT}" does not exist; write it, or fix the path.\n`);
    expect(reason).not.toContain("Recommendation: Verify lean-research-agent");
    expect(verdictOf(root)).toMatchObject({
      ok: false,
      status: "completed",
      command: "research",
      agentType: "lean-research-agent",
      agentId: "a4e1f2c3",
      origin: "fenced",
      source: "message",
      errors: [`Artifact does not exist: ${REPORT}`],
      attempts: 1,
      decision: "block",
    });
  });

  it("passes a good return silently and records the verdict", () => {
    const root = project({ [REPORT]: "# Research\n" });
    const run = hook(subagentStop({ cwd: root, message: finalMessage([REPORT]) }));
    expect(run).toEqual({ status: 0, stdout: "", stderr: "" });
    expect(verdictOf(root)).toMatchObject({ ok: true, status: "completed", errors: [], attempts: 1, decision: "pass" });
    expect(readFileSync(path.join(root, ".returnlint", ".gitignore"), "utf8")).toContain("*\n");
  });

  it("lets the stop through when another stop hook is already holding the agent", () => {
    const root = project({});
    const run = hook(subagentStop({ cwd: root, message: finalMessage([REPORT]), stopHookActive: true }));
    expect(run).toEqual({ status: 0, stdout: "", stderr: "" });
    expect(verdictOf(root)).toMatchObject({ ok: false, decision: "allow", allowedBecause: "stop-hook-active", attempts: 1 });
  });

  it("blocks three times, then lets the fourth failing attempt stop and records the failure", () => {
    const root = project({});
    for (const attempt of [1, 2, 3]) {
      // The host sets stop_hook_active on every stop after the first block.
      const run = hook(subagentStop({ cwd: root, message: finalMessage([`${TASK_DIR}/reports/research-00${String(attempt)}.md`]), stopHookActive: attempt > 1 }));
      expect(blockReason(run)).toContain(`attempt ${String(attempt)}):`);
    }
    const fourth = hook(subagentStop({ cwd: root, message: finalMessage([`${TASK_DIR}/reports/research-004.md`]), stopHookActive: true }));
    expect(fourth).toEqual({ status: 0, stdout: "", stderr: "" });
    expect(verdictOf(root)).toMatchObject({
      ok: false,
      errors: [`Artifact does not exist: ${TASK_DIR}/reports/research-004.md`],
      attempts: 4,
      decision: "allow",
      allowedBecause: "max-blocks",
    });
    // The run is over: the next stop of this agent starts counting again.
    expect(blockReason(hook(subagentStop({ cwd: root, message: finalMessage([REPORT]) })))).toContain("attempt 1):");
  });

  it("honours --max-blocks", () => {
    const root = project({});
    const run = hook(subagentStop({ cwd: root, message: finalMessage([REPORT]) }), ["--max-blocks", "0"]);
    expect(run).toEqual({ status: 0, stdout: "", stderr: "" });
    expect(verdictOf(root)).toMatchObject({ ok: false, decision: "allow", allowedBecause: "max-blocks" });
  });

  it("stops early when the same feedback would be sent twice", () => {
    const root = project({});
    const payload = subagentStop({ cwd: root, message: finalMessage([REPORT]) });
    blockReason(hook(payload));
    const again = hook({ ...payload, stop_hook_active: true });
    expect(again).toEqual({ status: 0, stdout: "", stderr: "" });
    expect(verdictOf(root)).toMatchObject({ ok: false, attempts: 2, decision: "allow", allowedBecause: "repeated-feedback" });
  });

  it("counts attempts per session and agent", () => {
    const root = project({});
    blockReason(hook(subagentStop({ cwd: root, message: finalMessage([REPORT]), agentId: "first" })));
    expect(blockReason(hook(subagentStop({ cwd: root, message: finalMessage([REPORT]), agentId: "second" })))).toContain("attempt 1):");
    expect(blockReason(hook(subagentStop({ cwd: root, message: finalMessage([REPORT]), sessionId: "other-session" })))).toContain("attempt 1):");
  });

  it("says when the final message holds no return", () => {
    const root = project({});
    const reason = blockReason(hook(subagentStop({ cwd: root, message: "Research completed successfully." })));
    expect(reason).toContain("- (the whole return): your reply contains no JSON object; end it with your JSON return, not prose.");
    expect(verdictOf(root)).toMatchObject({ origin: "none", status: null });
  });

  it("maps agent names through the config's agents map", () => {
    const root = project({ "returnlint.config.json": { agents: { "deep-thinker": "plan" } } });
    const reason = blockReason(hook(subagentStop({ cwd: root, message: finalMessage([REPORT]), agentType: "deep-thinker" })));
    expect(reason).toContain("for /plan");
  });

  it.each(["Explore", "Plan", "general-purpose", "code-reviewer"])("leaves %s (no command, or a host's own agent) alone and writes nothing", (agentType) => {
    const root = project({});
    const run = hook(subagentStop({ cwd: root, message: "Here is what I found in the codebase.", agentType }));
    expect(run).toEqual({ status: 0, stdout: "", stderr: "" });
    expect(existsSync(path.join(root, ".returnlint"))).toBe(false);
  });

  it("checks a host's own agent when the agents map names it", () => {
    const root = project({ "returnlint.config.json": { agents: { Plan: "plan" } } });
    expect(blockReason(hook(subagentStop({ cwd: root, message: "Here is the plan.", agentType: "Plan" })))).toContain("for /plan");
  });

  it("checks a Stop hook only when --agent or --command names what it is", () => {
    const root = project({});
    expect(hook(stop({ cwd: root, message: finalMessage([REPORT]) }))).toEqual({ status: 0, stdout: "", stderr: "" });
    const reason = blockReason(hook(stop({ cwd: root, message: finalMessage([REPORT]) }), ["--agent", "lean-research-agent"]));
    expect(reason).toContain(`file "${REPORT}" does not exist`);
  });

  describe("the metadata file", () => {
    const meta = {
      status: "researched",
      summary: "Report written",
      artifacts: [{ type: "report", path: REPORT, summary: "Research report" }],
      metadata: { session_id: "sess_1736700000_abc123", agent_type: "lean-research-agent", delegation_depth: 1, delegation_path: ["orchestrator", "research"] },
    };
    const config = { commands: { research: { preset: "metadata-file" } } };

    it("is the return when the command's preset says so and the message names the task", () => {
      const root = project({ "returnlint.config.json": config, [`${TASK_DIR}/.return-meta.json`]: meta });
      const reason = blockReason(hook(subagentStop({ cwd: root, message: `Research completed for task 259:\n- Created report at ${REPORT}` })));
      expect(reason).toContain(`Your return in ${TASK_DIR}/.return-meta.json failed validation for /research`);
      expect(reason).toContain(`file "${REPORT}" does not exist`);
      expect(verdictOf(root, "task-259")).toMatchObject({ ok: false, task: "259", origin: "file", source: `${TASK_DIR}/.return-meta.json`, status: "researched" });
    });

    it("is the return when the message names it", () => {
      const root = project({ [`${TASK_DIR}/.return-meta.json`]: meta, [REPORT]: "# Research\n" });
      const run = hook(subagentStop({ cwd: root, message: `Done. Metadata written to ${TASK_DIR}/.return-meta.json` }));
      expect(run).toEqual({ status: 0, stdout: "", stderr: "" });
      expect(verdictOf(root, "task-259")).toMatchObject({ ok: true, origin: "file", status: "researched" });
    });

    it("blocks when it is missing", () => {
      const root = project({ "returnlint.config.json": config, [REPORT]: "# Research\n" });
      const reason = blockReason(hook(subagentStop({ cwd: root, message: `Created report at ${REPORT}` })));
      expect(reason).toContain(`- (the whole return): you wrote no return metadata file; write ${TASK_DIR}/.return-meta.json (status, artifacts, metadata) before you stop.`);
    });
  });

  describe("never blocks by accident", () => {
    const broken: readonly [string, unknown, string][] = [
      ["not JSON", "{ session_id: oops", "standard input is not JSON (expected the hook's JSON payload)"],
      ["empty", "", "standard input is empty (expected the hook's JSON payload)"],
      ["an array", [], "the payload must be a JSON object; received array"],
      ["no cwd", { session_id: "s", hook_event_name: "SubagentStop", agent_type: "lean-research-agent", last_assistant_message: "x" }, '"cwd" is missing'],
      ["a string stop_hook_active", { session_id: "s", cwd: "/tmp", hook_event_name: "Stop", stop_hook_active: "yes" }, '"stop_hook_active" must be a boolean; received string'],
      ["another event", { session_id: "s", cwd: "/tmp", hook_event_name: "PreToolUse" }, '"hook_event_name" is "PreToolUse": returnlint handles Stop and SubagentStop hooks only'],
    ];
    it.each(broken)("a payload that is %s: exit 0, a sentence on stderr", (_name, payload, reason) => {
      const run = hook(payload);
      expect(run.status).toBe(0);
      expect(run.stdout).toBe("");
      expect(run.stderr).toBe(`returnlint hook: ignoring a broken hook payload: ${reason} (the stop goes through; --fail-closed blocks instead)\n`);
      expect(run.stderr).not.toMatch(STACK_FRAME);
    });

    it("--fail-closed exits 2 on a broken payload", () => {
      const run = hook("not json", ["--fail-closed"]);
      expect(run.status).toBe(2);
      expect(run.stdout).toBe("");
      expect(run.stderr).toBe("returnlint hook: ignoring a broken hook payload: standard input is not JSON (expected the hook's JSON payload)\n");
    });

    it("a broken config lets the stop through, or exits 2 with --fail-closed", () => {
      const root = project({ "returnlint.config.json": { rules: { "status-enun": "error" } } });
      const payload = subagentStop({ cwd: root, message: finalMessage([REPORT]) });
      const open = hook(payload);
      expect(open.status).toBe(0);
      expect(open.stdout).toBe("");
      expect(open.stderr).toContain('returnlint hook: Invalid configuration in returnlint.config.json (1 problem):\n  - rules.status-enun: unknown rule "status-enun"');
      expect(hook(payload, ["--fail-closed"]).status).toBe(2);
    });

    it("--fail-closed with a broken config blocks once, then the ledger lets the same error through", () => {
      const root = project({ "returnlint.config.json": { rules: { "status-enun": "error" } } });
      const payload = subagentStop({ cwd: root, message: finalMessage([REPORT]) });
      const first = hook(payload, ["--fail-closed"]);
      expect(first.status).toBe(2);
      expect(first.stdout).toBe("");
      expect(first.stderr).toContain('returnlint hook: Invalid configuration in returnlint.config.json (1 problem):\n  - rules.status-enun: unknown rule "status-enun"');
      expect(verdictOf(root)).toMatchObject({ ok: false, command: null, origin: "none", attempts: 1, decision: "block" });
      // The host re-runs the agent with the message; the config is unchanged, so the same error comes back.
      const second = hook({ ...payload, stop_hook_active: true }, ["--fail-closed"]);
      expect(second.status).toBe(0);
      expect(second.stderr).toContain("(--fail-closed gave way: repeated-feedback); the verdict in .returnlint/verdicts/ records it");
      expect(verdictOf(root)).toMatchObject({ ok: false, attempts: 2, decision: "allow", allowedBecause: "repeated-feedback" });
      const ledger = readJson(path.join(root, ".returnlint", "ledger.json")) as { entries: Record<string, { attempts: number; blocks: number }> };
      expect(Object.values(ledger.entries)).toEqual([expect.objectContaining({ attempts: 2, blocks: 1 })]);
    });

    it("a broken config records a config-error verdict without --fail-closed", () => {
      const root = project({ "returnlint.config.json": "{ not json" });
      const run = hook(subagentStop({ cwd: root, message: finalMessage([REPORT]) }));
      expect(run.status).toBe(0);
      expect(verdictOf(root)).toMatchObject({ ok: false, decision: "allow", allowedBecause: "config-error", errors: [expect.stringContaining("returnlint.config.json")] });
    });

    it("a broken config never holds up a host's own agent, even with --fail-closed", () => {
      const root = project({ "returnlint.config.json": "{ not json" });
      const run = hook(subagentStop({ cwd: root, message: "Here is the plan.", agentType: "Plan" }), ["--fail-closed"]);
      expect(run.status).toBe(0);
      expect(existsSync(path.join(root, ".returnlint"))).toBe(false);
    });

    it("a usage mistake in settings.json lets the stop through", () => {
      const run = hook(subagentStop({ cwd: "/tmp", message: "x" }), ["--max-blocks", "many"]);
      expect(run.status).toBe(0);
      expect(run.stderr).toContain('--max-blocks must be a whole number; received "many"');
      expect(hook(subagentStop({ cwd: "/tmp", message: "x" }), ["codex"]).stderr).toContain('usage: returnlint hook claude [options]; received "claude codex"');
    });
  });

  it("leaves a parseable ledger and verdict when many hooks run at once", async () => {
    const root = project({ [`${TASK_DIR}/.return-meta.json`]: { status: "completed", summary: "s", artifacts: [{ type: "report", path: REPORT, summary: "r" }], metadata: { session_id: "sess_1", agent_type: "lean-research-agent", delegation_depth: 1, delegation_path: ["orchestrator", "research"] } } });
    const agents = Array.from({ length: 12 }, (_, index) => `agent${String(index)}`);
    const runs = await Promise.all(
      agents.map(
        (agentId) =>
          new Promise<{ status: number | null; stdout: string }>((resolve) => {
            const child = spawn(process.execPath, [BIN, "hook", "claude"], { stdio: ["pipe", "pipe", "pipe"] });
            let stdout = "";
            child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
            child.on("close", (status) => {
              resolve({ status, stdout });
            });
            child.stdin.end(JSON.stringify(subagentStop({ cwd: root, agentId, message: `Metadata in ${TASK_DIR}/.return-meta.json` })));
          }),
      ),
    );
    for (const run of runs) {
      expect(run.status).toBe(0);
      expect((JSON.parse(run.stdout) as { decision: string }).decision).toBe("block");
    }
    const ledger = readJson(path.join(root, ".returnlint", "ledger.json")) as { entries: Record<string, { attempts: number; blocks: number }> };
    expect(Object.keys(ledger.entries)).toHaveLength(agents.length);
    for (const entry of Object.values(ledger.entries)) expect(entry).toMatchObject({ attempts: 1, blocks: 1 });
    expect(verdictOf(root, "task-259")).toMatchObject({ ok: false, task: "259", decision: "block" });
  });
});
