import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BIN, REPO, metadata, project, returnlint } from "./helpers.js";

const researched = (task: string) => ({
  status: "researched",
  artifacts: [{ type: "report", path: `specs/${task}/reports/research-001.md`, summary: "Report" }],
  metadata: metadata("lean-research-agent"),
});
const phantom = { status: "researched", artifacts: [], metadata: metadata("lean-research-agent") };

describe("--task", () => {
  const root = project({
    "specs/7_first/.return-meta.json": researched("7_first"),
    "specs/7_first/reports/research-001.md": "# Report\n",
    "specs/009_second/.return-meta.json": researched("009_second"),
    "specs/009_second/reports/research-001.md": "# Report\n",
    "specs/0010_third/.return-meta.json": researched("0010_third"),
    "specs/0010_third/reports/research-001.md": "# Report\n",
    "specs/11_empty/notes.md": "no metadata here",
    "specs/12_a/.return-meta.json": researched("12_a"),
    "specs/012_b/.return-meta.json": researched("012_b"),
  });

  it("checks a list with a range over padded and unpadded directories, one verdict per task", () => {
    const run = returnlint(["check", "--task", "7, 9-10", "--root", root, "--command", "research"]);
    expect(run.status).toBe(0);
    expect(run.stdout.match(/\[PASS\] Return validation succeeded/g)).toHaveLength(3);
    for (const dir of ["7_first", "009_second", "0010_third"]) expect(run.stdout).toContain(`specs/${dir}/.return-meta.json`);
  });

  it("reaches a task folder with a prefix before its number (OpenCode's OC_N_SLUG), live or archived, and names both when two folders are one task", () => {
    const prefixed = project({
      "specs/OC_503_port_missing_core_commands/.return-meta.json": researched("OC_503_port_missing_core_commands"),
      "specs/OC_503_port_missing_core_commands/reports/research-001.md": "# Report\n",
      "specs/archive/OC_12_old/.return-meta.json": phantom,
      "specs/40_claude/.return-meta.json": researched("40_claude"),
      "specs/OC_40_opencode/.return-meta.json": researched("OC_40_opencode"),
    });
    const live = returnlint(["check", "--task", "503", "--command", "research"], { cwd: prefixed });
    expect(live.status).toBe(0);
    expect(live.stdout).toMatch(/^\[INFO\] Checking specs\/OC_503_port_missing_core_commands\/\.return-meta\.json \(task 503\): /m);
    const archived = returnlint(["check", "--task", "12", "--command", "research", "--format", "json"], { cwd: prefixed });
    expect(archived.status).toBe(1);
    expect(JSON.parse(archived.stdout)).toMatchObject({ task: "12", source: "specs/archive/OC_12_old/.return-meta.json", phantom: true });
    const both = returnlint(["check", "--task", "40"], { cwd: prefixed });
    expect(both.status).toBe(2);
    expect(both.stderr).toBe(
      "returnlint: Two folders are task 40: specs/40_claude and specs/OC_40_opencode; returnlint cannot tell which holds its return. Check one by its path (returnlint check specs/40_claude/.return-meta.json), or remove the stale one.\n",
    );
    // scan names the task of a prefixed folder as --task takes it.
    const scanned = JSON.parse(returnlint(["scan", "--format", "json"], { cwd: prefixed }).stdout) as { source: string; task?: string }[];
    expect(scanned.find((report) => report.source.includes("OC_503"))?.task).toBe("503");
  });

  it("reports a missing task directory as a usage problem (exit 2)", () => {
    const run = returnlint(["check", "--task", "8", "--root", root]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("No directory for task 8");
  });

  it("reports several directories for one task, naming both (exit 2)", () => {
    const run = returnlint(["check", "--task", "12", "--root", root]);
    expect(run.status).toBe(2);
    expect(run.stderr).toBe(
      "returnlint: Two folders are task 12: specs/012_b and specs/12_a; returnlint cannot tell which holds its return. Check one by its path (returnlint check specs/012_b/.return-meta.json), or remove the stale one.\n",
    );
  });

  it("reports a task folder without its metadata file as a finding, in every format (exit 1)", () => {
    const missing = path.join(path.relative(REPO, root), "specs/11_empty/.return-meta.json");
    const stylish = returnlint(["check", "--task", "11", "--root", root, "--command", "research"]);
    expect(stylish.status).toBe(1);
    expect(stylish.stderr).toBe("");
    expect(stylish.stdout).toContain(`[FAIL] Return metadata file does not exist: ${missing}\nError: Subagent finished without writing its return metadata file`);
    expect(stylish.stdout).toContain(`[FAIL] Subagent return validation failed: Return metadata file does not exist: ${missing}\n1 error, 0 warnings\n`);

    const json = returnlint(["check", "--task", "11", "--root", root, "-f", "json"]);
    expect(json.status).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({
      ok: false,
      format: "metadata-file",
      status: null,
      errorCount: 1,
      task: "11",
      results: [{ ruleId: "json-structure", level: "fail", messageId: "missingFile", message: `Return metadata file does not exist: ${missing}` }],
    });
    const reask = returnlint(["check", "--task", "11", "--root", root, "-f", "reask"]);
    expect(reask.stdout).toBe(`- (the whole return): you wrote no return metadata file; write ${missing} (status, artifacts, metadata) before you stop.\n`);
    const response = JSON.parse(returnlint(["check", "--task", "11", "--root", root, "-f", "response"]).stdout) as { status: string; summary: string };
    expect(response).toMatchObject({ status: "failed", summary: `Validation failed: Return metadata file does not exist: ${missing}` });
    const sarif = JSON.parse(returnlint(["check", "--task", "11", "--root", root, "-f", "sarif"]).stdout) as { runs: { results: { ruleId: string; properties: { messageId: string } }[] }[] };
    expect(sarif.runs[0]?.results.map((result) => result.properties.messageId)).toEqual(["missingFile"]);
    expect(returnlint(["check", "--task", "11", "--root", root, "-f", "junit"]).stdout).toContain('<failure message="Return metadata file does not exist: ');
    expect(returnlint(["check", "--task", "11", "--root", root, "-f", "github"]).stdout).toMatch(/^::error file=.*11_empty\/\.return-meta\.json,line=1,title=returnlint json-structure::Return metadata file does not exist/);
  });

  it("logs a missing metadata file with --log-errors like any failure", () => {
    const logged = project({ "specs/4_gone/reports/research-001.md": "# Report\n" });
    const run = returnlint(["check", "--task", "4", "--command", "research", "--log-errors", "errors.json", "--quiet"], { cwd: logged });
    expect(run.status).toBe(1);
    const log = JSON.parse(readFileSync(path.join(logged, "errors.json"), "utf8")) as { errors: Record<string, unknown>[] };
    expect(log.errors).toHaveLength(1);
    expect(log.errors[0]).toMatchObject({ validation_step: "json-structure", message: "Return metadata file does not exist: specs/4_gone/.return-meta.json", task: "4", command: "research" });
  });

  it("treats a missing .return-meta.json FILE in an existing folder as the same finding, and a missing folder as a usage error", () => {
    const run = returnlint(["check", "specs/11_empty/.return-meta.json", "-f", "json"], { cwd: root });
    expect(run.status).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({ ok: false, results: [{ messageId: "missingFile" }] });
    const nowhere = returnlint(["check", "specs/404_nowhere/.return-meta.json"], { cwd: root });
    expect(nowhere.status).toBe(2);
    expect(nowhere.stderr).toContain("no such file");
  });

  it("goes on past a task it cannot find, names each task, and closes with one verdict for them all", () => {
    const run = returnlint(["check", "--task", "7,11,12", "--root", root, "--command", "research"]);
    expect(run.status).toBe(2);
    expect(run.stdout).toContain("[INFO] Checking ");
    expect(run.stdout).toMatch(/^\[INFO\] Checking \S+specs\/7_first\/\.return-meta\.json \(task 7\): /m);
    expect(run.stdout).toMatch(/^\[INFO\] Checking \S+specs\/11_empty\/\.return-meta\.json \(task 11\): /m);
    expect(run.stdout.trimEnd().split("\n").at(-1)).toBe("[FAIL] 1 of 2 tasks failed validation: task 11");
    expect(run.stderr).toContain("returnlint: task 12: Two folders are task 12: specs/012_b and specs/12_a;");
  });

  it("with --quiet, prints the failing tasks only, each named, and the closing verdict", () => {
    const run = returnlint(["check", "--task", "7, 9-11", "--root", root, "--command", "research", "--quiet"]);
    expect(run.status).toBe(1);
    const lines = run.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^\[INFO\] Checking \S+specs\/11_empty\/\.return-meta\.json \(task 11\): metadata-file return/);
    expect(run.stdout).not.toContain("7_first");
    // Passing tasks print nothing at all, not even a blank line.
    expect(run.stdout).not.toMatch(/^\n|\n\n\n/);
    expect(lines.at(-1)).toBe("[FAIL] 1 of 4 tasks failed validation: task 11");
  });

  it("prints one JSON document for several tasks (an array, like scan), each report naming its task", () => {
    const run = returnlint(["check", "--task", "7,9-11", "--root", root, "--command", "research", "-f", "json"]);
    expect(run.status).toBe(1);
    const reports = JSON.parse(run.stdout) as { task: string; ok: boolean }[];
    expect(reports.map((report) => [report.task, report.ok])).toEqual([["7", true], ["9", true], ["10", true], ["11", false]]);
    const quiet = JSON.parse(returnlint(["check", "--task", "7,11", "--root", root, "-f", "json", "-q"]).stdout) as { task: string }[];
    expect(quiet.map((report) => report.task)).toEqual(["11"]);
  });

  it("gives every format one document for several tasks, and -o writes it", () => {
    const out = project({});
    const run = returnlint(["check", "--task", "7,11", "--root", root, "-f", "sarif", "-o", path.join(out, "r.sarif"), "-f", "junit", "-o", path.join(out, "r.xml"), "-f", "response", "-f", "reask"]);
    expect(run.status).toBe(1);
    // One run for the invocation (GitHub code scanning takes at most 20 per file), each task's verdict in it.
    const sarif = JSON.parse(readFileSync(path.join(out, "r.sarif"), "utf8")) as { runs: { properties: { verdicts: { task: string; ok: boolean }[] } }[] };
    expect(sarif.runs).toHaveLength(1);
    expect(sarif.runs[0]?.properties.verdicts.map((one) => [one.task, one.ok])).toEqual([["7", true], ["11", false]]);
    const junit = readFileSync(path.join(out, "r.xml"), "utf8");
    expect(junit.match(/<\?xml/g)).toHaveLength(1);
    expect(junit.match(/<testsuite /g)).toHaveLength(2);
    expect(junit).toMatch(/<testsuites name="returnlint" tests="\d+" failures="1" errors="0" skipped="\d+">/);
    const [responses, reask] = [run.stdout.slice(0, run.stdout.indexOf("]\n") + 2), run.stdout.slice(run.stdout.indexOf("]\n") + 2)];
    expect((JSON.parse(responses) as { status: string }[]).map((one) => one.status)).toEqual(["researched", "failed"]);
    expect(reask).toContain("Task 7 (");
    expect(reask).toContain("The return is valid (status \"researched\"); nothing to fix.");
    expect(reask).toMatch(/Task 11 \(\S+11_empty\/\.return-meta\.json\):\n- \(the whole return\): you wrote no return metadata file/);
  });

  it("rejects a malformed task list", () => {
    const run = returnlint(["check", "--task", "7-x", "--root", root]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('Invalid --task "7-x"');
  });
});

describe("--log-errors", () => {
  it("appends one entry per failing validation, and none for a pass", () => {
    const root = project({ "bad.json": phantom, "good.json": { status: "partial", artifacts: [], metadata: metadata("a") } });
    expect(returnlint(["check", "good.json", "--log-errors", "errors.json"], { cwd: root }).status).toBe(0);
    expect(existsSync(path.join(root, "errors.json"))).toBe(false);
    expect(returnlint(["check", "bad.json", "--command", "research", "--session-id", "sess_1", "--log-errors", "errors.json"], { cwd: root }).status).toBe(1);
    const log = JSON.parse(readFileSync(path.join(root, "errors.json"), "utf8")) as { errors: Record<string, unknown>[] };
    expect(log.errors).toHaveLength(1);
    expect(log.errors[0]).toMatchObject({
      error_type: "validation_failed",
      agent: "lean-research-agent",
      validation_step: "artifacts",
      message: "Agent returned 'researched' status but created no artifacts",
      session_id: "sess_1",
      command: "research",
    });
  });

  it("keeps the entries already in the log", () => {
    const root = project({ "bad.json": phantom, "errors.json": { errors: [{ id: "old" }], _note: "kept" } });
    expect(returnlint(["check", "bad.json", "--log-errors", "errors.json"], { cwd: root }).status).toBe(1);
    const log = JSON.parse(readFileSync(path.join(root, "errors.json"), "utf8")) as { errors: { id: string }[]; _note: string };
    expect(log.errors.map((entry) => entry.id)[0]).toBe("old");
    expect(log.errors).toHaveLength(2);
    expect(log._note).toBe("kept");
  });

  it("never overwrites a log that is not valid JSON (exit 2)", () => {
    const root = project({ "bad.json": phantom });
    writeFileSync(path.join(root, "errors.json"), "{ broken");
    const run = returnlint(["check", "bad.json", "--log-errors", "errors.json"], { cwd: root });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("is not valid JSON; it was left as it is");
    expect(readFileSync(path.join(root, "errors.json"), "utf8")).toBe("{ broken");
  });

  it("loses no entry with 50 validators writing at once", { timeout: 120_000 }, async () => {
    const root = project({ "bad.json": phantom });
    const runs = Array.from({ length: 50 }, () =>
      new Promise<number | null>((resolve) => {
        const child = spawn(process.execPath, [BIN, "check", "bad.json", "--log-errors", "errors.json", "--quiet"], { cwd: root, stdio: "ignore" });
        child.on("close", resolve);
      }),
    );
    expect(new Set(await Promise.all(runs))).toEqual(new Set([1]));
    const log = JSON.parse(readFileSync(path.join(root, "errors.json"), "utf8")) as { errors: { id: string }[] };
    expect(log.errors).toHaveLength(50);
    expect(new Set(log.errors.map((entry) => entry.id)).size).toBe(50);
  });
});

describe("--consume", () => {
  it("deletes a metadata file that passed, and only then", () => {
    const root = project({
      "specs/5_ok/.return-meta.json": researched("5_ok"),
      "specs/5_ok/reports/research-001.md": "# Report\n",
      "specs/6_bad/.return-meta.json": phantom,
    });
    expect(returnlint(["check", "--task", "5", "--root", root, "--consume"]).status).toBe(0);
    expect(existsSync(path.join(root, "specs/5_ok/.return-meta.json"))).toBe(false);
    expect(existsSync(path.join(root, "specs/5_ok/reports/research-001.md"))).toBe(true);
    expect(returnlint(["check", "--task", "6", "--root", root, "--consume"]).status).toBe(1);
    expect(existsSync(path.join(root, "specs/6_bad/.return-meta.json"))).toBe(true);
  });

  it("refuses to consume what is not a metadata file", () => {
    const root = project({ "r.json": phantom });
    const run = returnlint(["check", "r.json", "--consume"], { cwd: root });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("--consume deletes a metadata file");
    expect(existsSync(path.join(root, "r.json"))).toBe(true);
  });
});

describe("flags that describe the run", () => {
  it("rejects a malformed duration and time", () => {
    expect(returnlint(["check", "-", "--stale-after", "soon"], { input: "{}" }).stderr).toContain("--stale-after must be a duration");
    expect(returnlint(["check", "-", "--since", "yesterday"], { input: "{}" }).stderr).toContain("--since must be a time in ISO 8601");
  });
});

describe("an in_progress return at a postflight gate", () => {
  const early = {
    status: "in_progress",
    started_at: new Date(Date.now() - 5 * 60_000).toISOString(),
    artifacts: [],
    partial_progress: { stage: "searches_completed", details: "Completed 3 searches." },
    metadata: metadata("lean-research-agent"),
  };
  const root = project({ "specs/30_running/.return-meta.json": early });

  it("fails with a command given: an interrupted agent's early metadata is not a pass", () => {
    const run = returnlint(["check", "--task", "30", "--command", "research"], { cwd: root });
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/^\[FAIL\] Agent has not finished: status is in_progress at the \/research postflight gate, started \d+ minutes ago$/m);
    expect(run.stdout).toContain('Recommendation: Do not run postflight: resume the task with /research 30 so that lean-research-agent continues from stage "searches_completed"');
    const reask = returnlint(["check", "--task", "30", "--command", "research", "-f", "reask"], { cwd: root });
    expect(reask.stdout).toBe('- /status: status "in_progress" says your work is not finished; finish it and set the success status, or set status to "partial" with errors[] saying what is left.\n');
  });

  it("passes with an [INFO] line when an orchestrator polls the early metadata without a command", () => {
    const run = returnlint(["check", "--task", "30"], { cwd: root });
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^\[INFO\] Agent was interrupted before finishing: status is in_progress, started \d+ minutes ago$/m);
    expect(returnlint(["scan"], { cwd: root }).status).toBe(0);
    expect(returnlint(["scan", "--command", "research"], { cwd: root }).status).toBe(1);
  });

  it("can be told to stay an [INFO] line at a gate (early-metadata failAtGate: false)", () => {
    const relaxed = project({ "specs/30_running/.return-meta.json": early, "returnlint.config.json": { rules: { "early-metadata": ["error", { failAtGate: false }] } } });
    expect(returnlint(["check", "--task", "30", "--command", "research"], { cwd: relaxed }).status).toBe(0);
  });
});

describe("completion_data.claudemd_suggestions is required of meta tasks only", () => {
  const implemented = (suggestions: unknown) => ({
    status: "implemented",
    artifacts: [{ type: "implementation", path: "src/x.ts", summary: "x" }],
    completion_data: { completion_summary: "Implemented x.", claudemd_suggestions: suggestions },
    metadata: metadata("general-implementation-agent"),
  });

  it("an empty claudemd_suggestions passes when the task type is unknown or not meta, and fails for a meta task", () => {
    const root = project({ "specs/8_x/.return-meta.json": implemented(""), "src/x.ts": "export {};\n" });
    expect(returnlint(["check", "--task", "8", "--command", "implement"], { cwd: root }).status).toBe(0);
    expect(returnlint(["check", "--task", "8", "--command", "implement", "--task-type", "lean"], { cwd: root }).status).toBe(0);
    const meta = returnlint(["check", "--task", "8", "--command", "implement", "--task-type", "meta"], { cwd: root });
    expect(meta.status).toBe(1);
    expect(meta.stdout).toContain('[FAIL] completion_data.claudemd_suggestions is not a non-empty string: received string ""');
  });
});
