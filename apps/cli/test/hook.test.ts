import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
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

/** What the user is shown when the hook lets a stop through because it could not do its job. */
/** What a stop let through with a sentence looks like: the sentence shown to the user, the same on standard error for logs. */
const gaveWay = (sentence: string): Run => ({ status: 0, stdout: `${JSON.stringify({ systemMessage: sentence })}\n`, stderr: `${sentence}\n` });

function systemMessageOf(run: Run): string {
  const output = JSON.parse(run.stdout) as { systemMessage: string };
  expect(Object.keys(output)).toEqual(["systemMessage"]);
  return output.systemMessage;
}

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
    expect(run).toEqual(gaveWay("returnlint hook: let the stop through: another stop hook is already holding this agent (stop-hook-active): the return of lean-research-agent still fails (1 problem); the verdict in .returnlint/verdicts/lean-research-agent--a4e1f2c3.json records it"));
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
    expect(fourth).toEqual(gaveWay("returnlint hook: gave up after 3 blocks, the most --max-blocks allows (max-blocks): the return of lean-research-agent still fails (1 problem); the verdict in .returnlint/verdicts/lean-research-agent--a4e1f2c3.json records it"));
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
    expect(run).toEqual(gaveWay("returnlint hook: let the stop through: --max-blocks is 0 (max-blocks): the return of lean-research-agent still fails (1 problem); the verdict in .returnlint/verdicts/lean-research-agent--a4e1f2c3.json records it"));
    expect(verdictOf(root)).toMatchObject({ ok: false, decision: "allow", allowedBecause: "max-blocks" });
  });

  it("stops early when the same feedback would be sent twice, and says so: a visible, recorded give-up", () => {
    const root = project({});
    const payload = subagentStop({ cwd: root, message: finalMessage([REPORT]) });
    blockReason(hook(payload));
    const again = hook({ ...payload, stop_hook_active: true });
    expect(again).toEqual(gaveWay("returnlint hook: gave up after 2 attempts: the problems are the same as the ones last sent back (repeated-feedback): the return of lean-research-agent still fails (1 problem); the verdict in .returnlint/verdicts/lean-research-agent--a4e1f2c3.json records it"));
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
    it.each(broken)("a payload that is %s: exit 0, a sentence the user sees", (_name, payload, reason) => {
      const run = hook(payload);
      const said = `returnlint hook: ignoring a broken hook payload: ${reason} (the stop goes through; --fail-closed blocks instead)`;
      expect(run).toEqual({ status: 0, stdout: `${JSON.stringify({ systemMessage: said })}\n`, stderr: `${said}\n` });
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
      expect(systemMessageOf(open)).toContain('returnlint hook: Invalid configuration in returnlint.config.json (1 problem):\n  - rules.status-enun: unknown rule "status-enun"');
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
      expect(second.stderr).toContain("(--fail-closed gave way: repeated-feedback); the verdict in .returnlint/verdicts/lean-research-agent--a4e1f2c3.json records it");
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

    it("a usage mistake in settings.json lets the stop through, and says so to the user", () => {
      const run = hook(subagentStop({ cwd: "/tmp", message: "x" }), ["--max-blocks", "many"]);
      expect(run.status).toBe(0);
      expect(systemMessageOf(run)).toBe('returnlint hook: --max-blocks must be a whole number; received "many". (the stop goes through; --fail-closed blocks instead)');
      expect(run.stderr).toContain('--max-blocks must be a whole number; received "many"');
      // Whatever other hosts there are (each of their names a word), "claude codex" is not one.
      expect(systemMessageOf(hook(subagentStop({ cwd: "/tmp", message: "x" }), ["codex"]))).toMatch(/usage: returnlint hook HOST \[options\], HOST one of claude(?:, \w+)*; received "claude codex"/);
    });
  });

  describe("options mean what they mean in every command", () => {
    const SESSION = fileURLToPath(new URL("terminal-session.py", import.meta.url));
    const hasPython = spawnSync("python3", ["--version"]).status === 0;
    /** The hook run by a person: its output on a real terminal, with `payload` piped in when there is one. */
    const byHand = (cwd: string, args: readonly string[], payload?: unknown) => {
      const command = [process.execPath, BIN, "hook", "claude", ...args].map((word) => `'${word}'`).join(" ");
      const line = payload === undefined ? command : `printf '%s' '${JSON.stringify(payload)}' | ${command}`;
      return spawnSync("python3", [SESSION, cwd, "", "--", "sh", "-c", line], { encoding: "utf8", timeout: 30_000, env: { ...process.env, NO_COLOR: "1" } }).stdout;
    };

    it("-c is --config: a config file, never a command; Explore is left alone", () => {
      const root = project({ "returnlint.config.yaml": "agents:\n  deep-thinker: plan\n" });
      const explore = hook(subagentStop({ cwd: root, message: "Here is what I found.", agentType: "Explore" }), ["-c", path.join(root, "returnlint.config.yaml")]);
      expect(explore).toEqual({ status: 0, stdout: "", stderr: "" });
      expect(existsSync(path.join(root, ".returnlint"))).toBe(false);
      expect(blockReason(hook(subagentStop({ cwd: root, message: finalMessage([REPORT]), agentType: "deep-thinker" }), ["-c", path.join(root, "returnlint.config.yaml")]))).toContain("for /plan");
    });

    it("-c naming a command says that -c is --config, and lets the stop through", () => {
      const run = hook(subagentStop({ cwd: project({}), message: finalMessage([REPORT]) }), ["-c", "research"]);
      expect(run.status).toBe(0);
      expect(systemMessageOf(run)).toBe('returnlint hook: --config "research" is not a file. -c is --config (as in ESLint); to name the command, write --command research. (the stop goes through; --fail-closed blocks instead)');
    });

    it("an unknown --command is refused like check refuses it: said to the user, never a block", () => {
      const root = project({});
      const payload = subagentStop({ cwd: root, message: finalMessage([REPORT]) });
      const run = hook(payload, ["--command", "implment"]);
      expect(run.status).toBe(0);
      expect(systemMessageOf(run)).toContain('returnlint hook: Unknown command "implment" (did you mean "implement"?); known: research, plan, revise, implement.');
      expect(systemMessageOf(run)).toContain("; the verdict in .returnlint/verdicts/lean-research-agent--a4e1f2c3.json records it (the stop goes through; --fail-closed blocks instead)");
      expect(verdictOf(root)).toMatchObject({ ok: false, decision: "allow", allowedBecause: "config-error", errors: [expect.stringContaining('Unknown command "implment"')] });
      // --fail-closed holds the agent, once: the same error is let through the next time.
      const closed = hook(payload, ["--command", "implment", "--fail-closed"]);
      expect(closed.status).toBe(2);
      expect(closed.stdout).toBe("");
      expect(closed.stderr).toContain('returnlint hook: Unknown command "implment" (did you mean "implement"?)');
      expect(hook({ ...payload, stop_hook_active: true }, ["--command", "implment", "--fail-closed"]).status).toBe(0);
    });

    it("a host's own agent is never checked or held for --command, even a misspelt one", () => {
      const root = project({});
      const explore = subagentStop({ cwd: root, message: "Here is what I found.", agentType: "Explore" });
      expect(hook(explore, ["--command", "research"])).toEqual({ status: 0, stdout: "", stderr: "" });
      const misspelt = hook(explore, ["--command", "implment", "--fail-closed"]);
      expect(misspelt.status).toBe(0);
      expect(systemMessageOf(misspelt)).toContain('Unknown command "implment"');
      expect(existsSync(path.join(root, ".returnlint"))).toBe(false);
    });

    it("--command takes a command the config lists under commands", () => {
      const root = project({ "returnlint.config.json": { commands: { review: {} } } });
      expect(blockReason(hook(subagentStop({ cwd: root, message: finalMessage([REPORT]), agentType: "deep-thinker" }), ["--command", "review"]))).toContain("for /review");
    });

    it.runIf(hasPython)("run by hand at a terminal, a usage mistake exits 2 with the sentence", () => {
      const root = project({});
      const misspelt = byHand(root, ["--command", "implment"], subagentStop({ cwd: root, message: finalMessage([REPORT]) }));
      expect(misspelt).toContain('returnlint: Unknown command "implment" (did you mean "implement"?)');
      expect(misspelt).not.toContain("systemMessage");
      expect(misspelt).toContain("<<exit 2>>");
      const unknownFlag = byHand(root, ["--comand", "research"], subagentStop({ cwd: root, message: finalMessage([REPORT]) }));
      expect(unknownFlag).toContain('returnlint: Unknown option --comand for "returnlint hook" (did you mean --command?)');
      expect(unknownFlag).toContain("<<exit 2>>");
      const noPayload = byHand(root, ["--command", "research"]);
      expect(noPayload).toContain("returnlint: returnlint hook claude reads the hook's JSON payload on standard input; pipe one in to try it");
      expect(noPayload).toContain("<<exit 2>>");
      expect(existsSync(path.join(root, ".returnlint"))).toBe(false);
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
