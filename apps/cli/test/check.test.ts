import { spawn, spawnSync } from "node:child_process";
import { closeSync, openSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BIN, EXAMPLES, REPO, STACK_FRAME, metadata, project, returnlint } from "./helpers.js";

const valid = path.join(EXAMPLES, "valid-v7");

describe("returnlint check: the seed transcript", () => {
  it("passes a valid v7 return and prints the seed's [PASS] lines", () => {
    const run = returnlint(["check", "return.json", "--command", "research", "--session-id", "sess_1735460684_a1b2c3"], { cwd: valid });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("[PASS] Return is valid JSON\n[PASS] All required fields present\n[PASS] Status is valid: completed\n[PASS] Session ID matches\n[PASS] Delegation is safe: depth 1 of at most 3, path orchestrator → research → researcher\n[INFO] Artifact count: 2\n");
    expect(run.stdout).toContain("[PASS] Artifact exists: specs/280_fix_orchestrator_stage_4_validation/reports/research-001.md\n");
    expect(run.stdout).toMatch(/\[PASS\] Artifact is non-empty: specs\/280_fix_orchestrator_stage_4_validation\/plans\/implementation-001\.md \(\d+ bytes\)\n/);
    expect(run.stdout).toContain("[PASS] 2 artifacts validated\n[PASS] Return validation succeeded\nStatus: completed\n");
  });

  it("resolves artifact paths against --root, not the current directory", () => {
    expect(returnlint(["check", "examples/valid-v7/return.json", "--root", "examples/valid-v7"]).status).toBe(0);
    const run = returnlint(["check", "examples/valid-v7/return.json"]);
    expect(run.status).toBe(1);
    expect(run.stdout).toContain("[FAIL] Artifact does not exist: specs/280_fix_orchestrator_stage_4_validation/reports/research-001.md");
  });

  it("fails prose with the seed's headline and says no return was found", () => {
    const run = returnlint(["check", path.join(EXAMPLES, "not-json", "return.txt"), "--agent", "researcher"]);
    expect(run.status).toBe(1);
    expect(run.stdout).toContain("[FAIL] Invalid JSON return from researcher\nError: The subagent's final message contains no return");
    expect(run.stdout).toContain("Recommendation: Fix researcher subagent to end with its JSON return, not prose");
  });

  it("says where the syntax breaks", () => {
    const run = returnlint(["check", "-", "--agent", "planner"], { input: '{\n  "status": "completed",\n  "artifacts": [...]\n}' });
    expect(run.status).toBe(1);
    expect(run.stdout).toContain("[FAIL] Invalid JSON return from planner");
    expect(run.stdout).toContain("Error: Cannot parse return as JSON: expected a JSON value, found '.' at line 3, column 17");
  });

  it("reports a missing field with the seed's words and names the agent", () => {
    const run = returnlint(["check", path.join(EXAMPLES, "missing-field", "return.json"), "--command", "plan"]);
    expect(run.status).toBe(1);
    expect(run.stdout).toContain(`[FAIL] Missing required field: status\nError: "status" is not in the return; a v7 return must have it\nRecommendation: Fix planner subagent to include all required fields\nRule: required-fields at /status\n`);
    expect(run.stdout).toContain("[FAIL] Subagent return validation failed: Missing required field: status\n1 error, 0 warnings\n");
  });

  it("catches phantom work", () => {
    const run = returnlint(["check", path.join(EXAMPLES, "phantom-work", "return.json")]);
    expect(run.status).toBe(1);
    expect(run.stdout).toContain("[FAIL] Agent returned 'completed' status but created no artifacts\nError: Phantom work detected - status=completed but no artifacts\nRecommendation: Verify researcher creates artifacts before updating status\n");
  });

  it("reads the expected session id from RETURNLINT_SESSION_ID", () => {
    const run = returnlint(["check", "return.json"], { cwd: valid, env: { RETURNLINT_SESSION_ID: "sess_other" } });
    expect(run.status).toBe(1);
    expect(run.stdout).toContain("[FAIL] Session ID mismatch\nExpected: sess_other\nGot: sess_1735460684_a1b2c3\n");
  });

  it("says once that the session id was not compared when none was expected", () => {
    const run = returnlint(["check", "return.json"], { cwd: valid });
    expect(run.status).toBe(0);
    expect(run.stdout.match(/Session ID not compared/g)).toHaveLength(1);
    expect(run.stdout).not.toContain("Session ID matches");
  });
});

describe("returnlint check --format json", () => {
  it("prints DESIGN.md's shape, with rule ids and pointers", () => {
    const root = project({
      "r.json": { status: "completed", summary: "Done.", artifacts: [{ type: "report", path: "gone.md", summary: "x" }], metadata: metadata("researcher") },
    });
    const run = returnlint(["check", "r.json", "--format", "json", "--command", "research"], { cwd: root });
    expect(run.status).toBe(1);
    const report = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(report).toMatchObject({ ok: false, command: "research", format: "v7", status: "completed", errorCount: 1, warningCount: 0 });
    expect(report.results).toContainEqual(
      expect.objectContaining({ ruleId: "artifacts", level: "fail", messageId: "notFound", message: "Artifact does not exist: gone.md", pointer: "/artifacts/0/path", recommendation: "Verify researcher writes artifacts to correct paths" }),
    );
    expect(report.results).toContainEqual(expect.objectContaining({ ruleId: "json-structure", level: "pass", messageId: "validJson" }));
  });

  it("gives each finding the data its rule reported: what was found and what is expected, as values", () => {
    const root = project({ "r.json": { status: "planned", summary: "Done.", artifacts: [], metadata: metadata("researcher") } });
    const run = returnlint(["check", "r.json", "--format", "json", "--command", "research", "--preset", "metadata-file"], { cwd: root });
    expect(run.status).toBe(1);
    const report = JSON.parse(run.stdout) as { results: { ruleId: string; messageId: string; data?: unknown }[] };
    expect(report.results.find((result) => result.messageId === "invalidStatus")?.data).toEqual({
      status: "planned",
      allowed: "researched, partial, failed, blocked, in_progress",
      scope: " for /research",
      hint: ', the success status of /plan; use "researched"',
      advice: "use",
      suggestion: "researched",
      instruction: ', the success status of /plan; use "researched"',
    });
    // Passes carry their data too; a finding whose rule reported none has no data.
    expect(report.results.find((result) => result.messageId === "validJson")).not.toHaveProperty("data");
  });
});

describe("returnlint check: usage and bad input", () => {
  it("suggests the closest flag for a typo and exits 2", () => {
    const run = returnlint(["check", "x.json", "--sesion-id", "s"]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("Unknown option --sesion-id");
    expect(run.stderr).toContain("did you mean --session-id?");
  });

  it("prints help", () => {
    const run = returnlint(["check", "--help"]);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("Usage: returnlint check [FILE | -] [options]");
  });

  it("names a missing file in a sentence, exit 2", () => {
    const run = returnlint(["check", "nope.json"]);
    expect(run.status).toBe(2);
    expect(run.stderr).toBe(`returnlint: Cannot read ${path.join(REPO, "nope.json")}: no such file.\n`);
  });

  it("rejects an unknown command with a suggestion", () => {
    const run = returnlint(["chek"]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('unknown command "chek" (did you mean "check"?)');
  });

  it("rejects an unknown format", () => {
    const run = returnlint(["check", "-", "--format", "jsno"], { input: "{}" });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('Unknown format "jsno" (did you mean "json"?)');
  });

  it("turns warnings into a failure past --max-warnings", () => {
    const long = { status: "partial", summary: "x".repeat(500), artifacts: [], metadata: metadata("researcher") };
    expect(returnlint(["check", "-"], { input: JSON.stringify(long) }).status).toBe(0);
    const run = returnlint(["check", "-", "--max-warnings", "0"], { input: JSON.stringify(long) });
    expect(run.status).toBe(1);
    expect(run.stdout).toContain("[WARN] Summary exceeds recommended length: 500 characters");
    // The verdict line agrees with the exit code: no [PASS] for a return that failed.
    expect(run.stdout).not.toContain("[PASS] Return validation succeeded");
    expect(run.stdout).toMatch(/\[FAIL\] Subagent return validation failed: 2 warnings, more than --max-warnings 0\n0 errors, 2 warnings\n$/);
    expect(run.stderr).toBe("");
    const json = returnlint(["check", "-", "--max-warnings", "0", "-f", "json"], { input: JSON.stringify(long) });
    expect(json.status).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, errorCount: 0, warningCount: 2 });
    expect(json.stderr).toBe("returnlint: <stdin>: 2 warnings, more than --max-warnings 0.\n");
    const quiet = returnlint(["check", "-", "--max-warnings", "0", "--quiet"], { input: JSON.stringify(long) });
    expect(quiet.stdout).toContain("[WARN] Summary exceeds recommended length: 500 characters");
  });

  it("--quiet prints nothing at all for a passing return, and a failing one with its header", () => {
    const passing = { status: "partial", summary: "Half done.", artifacts: [], metadata: metadata("researcher"), errors: [{ type: "timeout", message: "m", recoverable: true, recommendation: "r" }] };
    const quiet = returnlint(["check", "-", "--quiet"], { input: JSON.stringify(passing) });
    expect(quiet.status).toBe(0);
    expect(quiet.stdout).toBe("");
    const failing = returnlint(["check", path.join(EXAMPLES, "phantom-work", "return.json"), "--quiet"]);
    expect(failing.status).toBe(1);
    expect(failing.stdout.split("\n")[0]).toBe("[INFO] Checking examples/phantom-work/return.json: v7 return from researcher (/research, preset v7)");
    expect(failing.stdout).not.toContain("[PASS]");
    expect(failing.stdout).toContain("[FAIL] Agent returned 'completed' status but created no artifacts");
  });

  it("gives exit 0, 1 or 2 and never a stack trace for arbitrary bytes", { timeout: 60_000 }, () => {
    const inputs: Buffer[] = [
      Buffer.from([0xff, 0xfe, 0x00, 0x7b]),
      Buffer.from("\u0000\u0000{"),
      Buffer.from("[".repeat(5000)),
      Buffer.from('{"status": "completed", "artifacts": [{"path": {"nested": true}}]}'),
      Buffer.from('{"status":"completed","artifacts":"nope","metadata":[]}'),
      Buffer.from("null"),
    ];
    for (let seed = 1; seed <= 12; seed += 1) {
      inputs.push(Buffer.from(Array.from({ length: 64 * seed }, (_, index) => (index * 7919 * seed + seed) % 256)));
    }
    for (const input of inputs) {
      for (const format of ["stylish", "json"]) {
        const run = returnlint(["check", "-", "--format", format], { input });
        expect([0, 1, 2]).toContain(run.status);
        expect(run.stderr + run.stdout).not.toMatch(STACK_FRAME);
        if (format === "json" && run.status !== 2) expect(() => JSON.parse(run.stdout) as unknown).not.toThrow();
      }
    }
  });

  it("changes nothing on disk", () => {
    const root = project({ "r.json": { status: "completed", summary: "s", artifacts: [{ type: "report", path: "a.md", summary: "s" }], metadata: metadata("r") }, "a.md": "text" });
    const before = readdirSync(root, { recursive: true }).map((name) => `${String(name)}:${String(statSync(path.join(root, String(name))).mtimeMs)}`);
    expect(returnlint(["check", "r.json"], { cwd: root }).status).toBe(0);
    const after = readdirSync(root, { recursive: true }).map((name) => `${String(name)}:${String(statSync(path.join(root, String(name))).mtimeMs)}`);
    expect(after).toEqual(before);
  });
});

describe("returnlint check -: standard input, read from its descriptor", () => {
  const text = JSON.stringify({ status: "partial", summary: "Half done.", artifacts: [], metadata: metadata("researcher") });

  it("waits for a writer that is slow to start, and reads to its end", async () => {
    const child = spawn(process.execPath, [BIN, "check", "-", "-f", "json"], { cwd: REPO, env: { ...process.env, NO_COLOR: "1" }, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
    await new Promise((resolve) => setTimeout(resolve, 300));
    child.stdin.write(text.slice(0, 20));
    await new Promise((resolve) => setTimeout(resolve, 100));
    child.stdin.end(text.slice(20));
    expect(await exited).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ ok: true, source: "<stdin>", status: "partial" });
  });

  it("reads a file given as standard input, over several reads when it is long", () => {
    const long = JSON.stringify({ status: "partial", summary: "Half done.", artifacts: [], metadata: metadata("researcher"), notes: "x".repeat(200_000) });
    const root = project({ "return.json": long });
    const fd = openSync(path.join(root, "return.json"), "r");
    try {
      const run = spawnSync(process.execPath, [BIN, "check", "-", "-f", "json"], { cwd: root, stdio: [fd, "pipe", "pipe"], encoding: "utf8", timeout: 20_000 });
      expect(run.status).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({ ok: true, source: "<stdin>" });
    } finally {
      closeSync(fd);
    }
  });

  it("refuses more than RETURNLINT_MAX_INPUT_BYTES with a sentence and exit 2", () => {
    const run = returnlint(["check", "-"], { input: text, env: { RETURNLINT_MAX_INPUT_BYTES: "100" } });
    expect(run.status).toBe(2);
    expect(run.stderr).toBe(
      "returnlint: Refusing to read standard input: it is larger than 100 bytes.\n  - No subagent return is this big; if this one really is, set RETURNLINT_MAX_INPUT_BYTES (bytes, or with a k, M or G suffix) to raise the limit.\n",
    );
    expect(run.stdout).toBe("");
  });
});
