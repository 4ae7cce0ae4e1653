import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BIN, metadata, project, returnlint } from "./helpers.js";

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

  it("reports a missing task directory as a usage problem (exit 2)", () => {
    const run = returnlint(["check", "--task", "8", "--root", root]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("No directory for task 8");
  });

  it("reports several directories for one task (exit 2)", () => {
    const run = returnlint(["check", "--task", "12", "--root", root]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("Several directories for task 12");
    expect(run.stderr).toContain("012_b, 12_a");
  });

  it("reports a task directory without a return as a failed return (exit 1)", () => {
    const run = returnlint(["check", "--task", "11", "--root", root]);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("Task 11: no return metadata file at specs/11_empty/.return-meta.json");
  });

  it("goes on past a task it cannot read and exits with the worst code", () => {
    const run = returnlint(["check", "--task", "7,11", "--root", root]);
    expect(run.status).toBe(1);
    expect(run.stdout).toContain("[PASS] Return validation succeeded");
    expect(run.stderr).toContain("Task 11: no return metadata file");
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
