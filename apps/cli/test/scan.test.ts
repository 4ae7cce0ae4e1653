import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, opendirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BIN, STACK_FRAME, project, returnlint } from "./helpers.js";

interface ScanReport {
  ok: boolean;
  command: string | null;
  format: string;
  status: string | null;
  errorCount: number;
  warningCount: number;
  source: string;
  agent: string;
  preset: string;
  phantom: boolean;
  artifacts: { path: string; fate: string }[];
  results: { ruleId: string; level: string; messageId: string; message: string }[];
}

const meta = (agent: string, command: string) => ({
  session_id: "sess_1736700000_abc123",
  agent_type: agent,
  delegation_depth: 1,
  delegation_path: ["orchestrator", command, agent],
});

/** A metadata file whose artifacts are the given paths (relative to the project root). */
const returnMeta = (status: string, artifacts: readonly string[], agent = "researcher", command = "research") => ({
  status,
  artifacts: artifacts.map((artifactPath) => ({ type: "report", path: artifactPath, summary: "Research report" })),
  metadata: meta(agent, command),
});

/** Two passing returns (one padded task folder, one not), one phantom, one with a missing artifact. */
function mixedProject(): string {
  return project({
    "specs/007_padded/.return-meta.json": returnMeta("researched", ["specs/007_padded/reports/research-001.md"]),
    "specs/007_padded/reports/research-001.md": "# Findings\n",
    "specs/12_unpadded/.return-meta.json": returnMeta("planned", ["specs/12_unpadded/plans/implementation-001.md"], "planner", "plan"),
    "specs/12_unpadded/plans/implementation-001.md": "# Plan\n",
    "specs/20_phantom/.return-meta.json": { ...returnMeta("implemented", [], "implementer", "implement"), completion_data: { completion_summary: "Implemented the feature." } },
    "specs/31_missing/.return-meta.json": returnMeta("researched", ["specs/31_missing/reports/research-001.md"]),
  });
}

function parseReports(stdout: string): ScanReport[] {
  const parsed = JSON.parse(stdout) as unknown;
  expect(Array.isArray(parsed)).toBe(true);
  return parsed as ScanReport[];
}

describe("returnlint scan: verdict and summary", () => {
  it("exits 0 and prints the table when every return passes, padded task folders or not", () => {
    const root = project({
      "specs/007_padded/.return-meta.json": returnMeta("researched", ["specs/007_padded/reports/research-001.md"]),
      "specs/007_padded/reports/research-001.md": "# Findings\n",
      "specs/12_unpadded/.return-meta.json": returnMeta("partial", []),
    });
    const run = returnlint(["scan"], { cwd: root });
    expect(run.status).toBe(0);
    expect(run.stderr).toBe("");
    expect(run.stdout).toMatch(/^ {2}researched +1$/m);
    expect(run.stdout).toMatch(/^ {2}partial +1$/m);
    expect(run.stdout).toMatch(/^ {2}passed +2$/m);
    expect(run.stdout).toMatch(/^ {2}failed +0$/m);
    expect(run.stdout).toMatch(/^ {2}phantom work +0$/m);
    expect(run.stdout).toContain("[PASS] All 2 returns below specs passed\n");
    expect(run.stdout).not.toContain("[FAIL]");
  });

  it("exits 1, lists each failing return with its first failure, and counts failures by rule and phantom work", () => {
    const run = returnlint(["scan"], { cwd: mixedProject() });
    expect(run.status).toBe(1);
    expect(run.stdout).toContain(
      "[FAIL] specs/20_phantom/.return-meta.json: Agent returned 'implemented' status but created no artifacts (artifacts)\n",
    );
    expect(run.stdout).toContain(
      "[FAIL] specs/31_missing/.return-meta.json: Artifact does not exist: specs/31_missing/reports/research-001.md (artifacts)\n",
    );
    expect(run.stdout).not.toContain("specs/007_padded/.return-meta.json");
    expect(run.stdout).toMatch(/^ {2}researched +2$/m);
    expect(run.stdout).toMatch(/^ {2}planned +1$/m);
    expect(run.stdout).toMatch(/^ {2}implemented +1$/m);
    expect(run.stdout).toMatch(/^ {2}rule +failures\n {2}artifacts +2$/m);
    // Both claim success with no artifact that exists: one lists none, the other only a file that is not there.
    expect(run.stdout).toMatch(/^ {2}phantom work +2$/m);
    expect(run.stdout).toMatch(/^ {2}passed +2\n {2}failed +2$/m);
    expect(run.stdout).toContain("[FAIL] 2 of 4 returns below specs failed validation\n");
  });

  it("scans DIR with artifact paths relative to --root, and prints failing returns only with --quiet", () => {
    const root = mixedProject();
    const elsewhere = path.dirname(root);
    const run = returnlint(["scan", path.join(root, "specs"), "--root", root, "--quiet"], { cwd: elsewhere });
    expect(run.status).toBe(1);
    // Failing returns come in the order the walk finds them, which is the file system's.
    const lines = run.stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(3);
    expect(lines.slice(0, 2).sort()).toEqual([
      `[FAIL] ${path.join(path.basename(root), "specs/20_phantom/.return-meta.json")}: Agent returned 'implemented' status but created no artifacts (artifacts)`,
      `[FAIL] ${path.join(path.basename(root), "specs/31_missing/.return-meta.json")}: Artifact does not exist: specs/31_missing/reports/research-001.md (artifacts)`,
    ]);
    expect(lines[2]).toBe(`[FAIL] 2 of 4 returns below ${path.join(path.basename(root), "specs")} failed validation`);
  });

  it("counts as phantom work every success return whose claimed work is not there: none named (the field left out too), or one missing", () => {
    const { artifacts: _none, ...withoutArtifacts } = returnMeta("researched", []);
    const root = project({
      "specs/1_omitted/.return-meta.json": withoutArtifacts,
      "specs/2_empty/.return-meta.json": returnMeta("planned", [], "planner", "plan"),
      "specs/3_missing/.return-meta.json": returnMeta("researched", ["specs/3_missing/reports/r.md"]),
      "specs/4_done/.return-meta.json": returnMeta("done", []),
      "specs/5_half/.return-meta.json": returnMeta("researched", ["specs/5_half/reports/r.md", "specs/5_half/reports/gone.md"]),
      "specs/5_half/reports/r.md": "# Report\n",
      "specs/6_partial/.return-meta.json": returnMeta("partial", []),
      "specs/7_progress/.return-meta.json": { ...withoutArtifacts, status: "in_progress" },
      // Moved to the archive with its task, and a folder: what they are, not phantom work.
      "specs/8_moved/.return-meta.json": returnMeta("researched", ["specs/8_moved/reports/r.md"]),
      "specs/archive/8_moved/reports/r.md": "# Report\n",
      "specs/9_folder/.return-meta.json": returnMeta("researched", ["specs/9_folder/reports"]),
      "specs/9_folder/reports/r.md": "# Report\n",
    });
    const run = returnlint(["scan"], { cwd: root });
    expect(run.status).toBe(1);
    // 1 to 5: success claimed, the work (or one piece of it) not there; 6 and 7 claim no success; 8 moved, 9 a folder.
    expect(run.stdout).toMatch(/^ {2}phantom work +5$/m);
    const reports = parseReports(returnlint(["scan", "--format", "json"], { cwd: root }).stdout);
    const fates = Object.fromEntries(reports.map((report) => [report.source, [report.phantom, report.artifacts.map((artifact) => artifact.fate)]]));
    expect(fates["specs/5_half/.return-meta.json"]).toEqual([true, ["exists", "missing"]]);
    expect(fates["specs/8_moved/.return-meta.json"]).toEqual([false, ["archived"]]);
    expect(fates["specs/9_folder/.return-meta.json"]).toEqual([false, ["folder"]]);
  });

  it("says so and exits 0 when there is nothing to scan", () => {
    const root = project({ "specs/README.md": "Task folders go here.\n" });
    const run = returnlint(["scan"], { cwd: root });
    expect(run.status).toBe(0);
    expect(run.stdout).toBe("[INFO] No .return-meta.json, .orchestrator-handoff.json or .return-meta-multi*.json files below specs\n");
  });

  it("infers the command from the status, unless --command names one", () => {
    const root = mixedProject();
    const inferred = parseReports(returnlint(["scan", "--format", "json"], { cwd: root }).stdout);
    const commands = Object.fromEntries(inferred.map((report) => [report.source, report.command]));
    expect(commands).toEqual({
      "specs/007_padded/.return-meta.json": "research",
      "specs/12_unpadded/.return-meta.json": "plan",
      "specs/20_phantom/.return-meta.json": "implement",
      "specs/31_missing/.return-meta.json": "research",
    });
    const forced = returnlint(["scan", "--format", "json", "--command", "research"], { cwd: root });
    const planned = parseReports(forced.stdout).find((report) => report.source === "specs/12_unpadded/.return-meta.json");
    expect(planned).toMatchObject({ command: "research", ok: false });
    expect(planned?.results).toContainEqual(expect.objectContaining({ ruleId: "status-enum", level: "fail" }));
  });

  it("loads the config once and applies it to every return", () => {
    const root = mixedProject();
    writeFileSync(path.join(root, "returnlint.config.json"), JSON.stringify({ preset: "metadata-file", rules: { artifacts: "off" } }));
    const run = returnlint(["scan"], { cwd: root });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("[PASS] All 4 returns below specs passed\n");
  });
});

describe("returnlint scan --format json", () => {
  it("prints one JSON array of check's reports, each with its source", () => {
    const run = returnlint(["scan", "--format", "json"], { cwd: mixedProject() });
    expect(run.status).toBe(1);
    const reports = parseReports(run.stdout);
    expect(reports).toHaveLength(4);
    for (const report of reports) {
      // phantomReason only where there is phantom work.
      expect(Object.keys(report).filter((key) => key !== "phantomReason")).toEqual(["ok", "command", "format", "status", "errorCount", "warningCount", "source", "agent", "preset", "origin", "task", "phantom", "artifacts", "results"]);
      expect("phantomReason" in report).toBe(report.phantom);
      expect(report.format).toBe("metadata-file");
    }
    // The object check prints for the same file, with the same command.
    const root = mixedProject();
    const fromScan = parseReports(returnlint(["scan", "--format", "json"], { cwd: root }).stdout).find((report) => report.source.includes("31_missing"));
    const fromCheck = JSON.parse(returnlint(["check", "specs/31_missing/.return-meta.json", "--command", "research", "--format", "json"], { cwd: root }).stdout) as unknown;
    expect(fromScan).toEqual(fromCheck);
    expect(reports.filter((report) => !report.ok).map((report) => report.source).sort()).toEqual([
      "specs/20_phantom/.return-meta.json",
      "specs/31_missing/.return-meta.json",
    ]);
    const phantom = reports.find((report) => report.source.includes("20_phantom"));
    expect(phantom?.results).toContainEqual(expect.objectContaining({ ruleId: "artifacts", level: "fail", messageId: "phantomWork" }));
  });

  it("keeps only failing returns and their failures with --quiet, and prints [] for nothing", () => {
    const quiet = parseReports(returnlint(["scan", "--format", "json", "--quiet"], { cwd: mixedProject() }).stdout);
    expect(quiet).toHaveLength(2);
    expect(quiet.every((report) => report.results.every((result) => result.level === "fail"))).toBe(true);
    const empty = returnlint(["scan", "--format", "json"], { cwd: project({ "specs/.keep": "" }) });
    expect(empty.status).toBe(0);
    expect(empty.stdout).toBe("[]\n");
  });

  it("gives check's report, with and without --quiet, for a return whose rules report more than returnlint lists", () => {
    // 150 artifacts that exist and one that does not: 301 notes of the artifacts rule, past the 100 listed per rule.
    const written = Array.from({ length: 150 }, (_, index) => `specs/1_many/reports/r-${String(index)}.md`);
    const root = project({
      "specs/1_many/.return-meta.json": returnMeta("researched", [...written, "specs/1_many/reports/missing.md"]),
      ...Object.fromEntries(written.map((file) => [file, "# Report\n"])),
    });
    for (const quiet of [[], ["--quiet"]]) {
      const [fromScan] = parseReports(returnlint(["scan", "--format", "json", ...quiet], { cwd: root }).stdout);
      const fromCheck = JSON.parse(returnlint(["check", "specs/1_many/.return-meta.json", "--command", "research", "--format", "json", ...quiet], { cwd: root }).stdout) as unknown;
      expect(fromScan).toMatchObject({ ok: false, errorCount: 1, omittedResults: 201 });
      expect(fromScan).toEqual(fromCheck);
    }
    const table = returnlint(["scan", "--quiet"], { cwd: root });
    expect(table.status).toBe(1);
    expect(table.stdout).toBe("[FAIL] specs/1_many/.return-meta.json: Artifact does not exist: specs/1_many/reports/missing.md (artifacts)\n[FAIL] 1 of 1 return below specs failed validation\n");
  });

  it("prints a scan larger than one write whole, non-ASCII text included", () => {
    // About 1.8 kB a report: 150 of them cross the 64 kB at which output is written, several times.
    const files: Record<string, unknown> = {};
    for (let task = 1; task <= 150; task += 1) {
      const folder = `specs/${String(task)}_tâche_${String(task)}`;
      files[`${folder}/.return-meta.json`] = returnMeta("researched", [`${folder}/reports/résumé-001.md`], "recherche-agent");
      files[`${folder}/reports/résumé-001.md`] = "# Résumé → plan\n";
    }
    const root = project(files);
    const run = returnlint(["scan", "--format", "json"], { cwd: root });
    expect(run.status).toBe(0);
    expect(run.stdout.length).toBeGreaterThan(3 * 64 * 1024);
    const reports = parseReports(run.stdout);
    expect(reports).toHaveLength(150);
    expect(new Set(reports.map((report) => report.source)).size).toBe(150);
    const last = reports.find((report) => report.source === "specs/150_tâche_150/.return-meta.json");
    expect(last?.artifacts).toEqual([expect.objectContaining({ path: "specs/150_tâche_150/reports/résumé-001.md", fate: "exists" })]);
    expect(last?.results).toContainEqual(expect.objectContaining({ messageId: "safe", message: "Delegation is safe: depth 1 of at most 3, path orchestrator → research → recherche-agent" }));
    const fromCheck = JSON.parse(returnlint(["check", "specs/150_tâche_150/.return-meta.json", "--format", "json"], { cwd: root }).stdout) as unknown;
    expect(last).toEqual(fromCheck);
  });

  it.runIf(existsSync("/usr/bin/jq"))("pipes into jq", () => {
    const run = returnlint(["scan", "--format", "json"], { cwd: mixedProject() });
    const jq = spawnSync("/usr/bin/jq", ["-r", "[.[] | select(.ok | not) | .source] | sort | join(\",\")"], { input: run.stdout, encoding: "utf8" });
    expect(jq.status).toBe(0);
    expect(jq.stdout).toBe("specs/20_phantom/.return-meta.json,specs/31_missing/.return-meta.json\n");
  });
});

describe("returnlint scan: the walk", () => {
  it("does not follow symlinked directories, so a link loop neither hangs nor counts twice", () => {
    const root = mixedProject();
    const outside = project({ "specs/99_outside/.return-meta.json": returnMeta("researched", []) });
    symlinkSync("..", path.join(root, "specs", "007_padded", "loop"));
    symlinkSync(path.join(root, "specs"), path.join(root, "specs", "self"));
    symlinkSync(path.join(outside, "specs", "99_outside"), path.join(root, "specs", "99_linked"));
    const started = Date.now();
    const run = returnlint(["scan", "--format", "json"], { cwd: root });
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(run.status).toBe(1);
    const sources = parseReports(run.stdout).map((report) => report.source);
    expect(sources).toHaveLength(4);
    expect(sources.some((source) => source.includes("99_"))).toBe(false);
  });

  it("finds returns at any depth and ignores other files and directories named like one", () => {
    const root = project({
      "specs/archive/2024/5_old/.return-meta.json": returnMeta("partial", []),
      "specs/6_new/return-meta.json": "{}",
      "specs/6_new/.return-meta.json.bak": "{}",
    });
    mkdirSync(path.join(root, "specs", "7_dir", ".return-meta.json"), { recursive: true });
    const run = returnlint(["scan", "--format", "json"], { cwd: root });
    expect(run.status).toBe(0);
    expect(parseReports(run.stdout).map((report) => report.source)).toEqual(["specs/archive/2024/5_old/.return-meta.json"]);
  });

  it("checks the same returns at any concurrency, in the same order", () => {
    const files: Record<string, unknown> = {};
    for (let task = 1; task <= 40; task += 1) {
      files[`specs/${String(task)}_task/.return-meta.json`] = returnMeta(task % 3 === 0 ? "researched" : "partial", []);
    }
    const root = project(files);
    const one = returnlint(["scan", "--format", "json", "--concurrency", "1"], { cwd: root });
    const many = returnlint(["scan", "--format", "json", "--concurrency", "7"], { cwd: root });
    expect(one.status).toBe(1);
    expect(many.stdout).toBe(one.stdout);
    expect(parseReports(one.stdout).filter((report) => !report.ok)).toHaveLength(13);
  });

  it("reports a return it cannot read and exits 2, after checking the others", () => {
    const root = mixedProject();
    mkdirSync(path.join(root, "specs", "40_huge"));
    writeFileSync(path.join(root, "specs", "40_huge", ".return-meta.json"), " ".repeat(10 * 1024 * 1024 + 1));
    const run = returnlint(["scan"], { cwd: root });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^returnlint: Refusing to read .*40_huge\/\.return-meta\.json: it is larger than 10 MiB\.$/m);
    expect(run.stdout).toMatch(/^ {2}unreadable +1$/m);
    expect(run.stdout).toContain("[FAIL] 2 of 5 returns below specs failed validation; 1 could not be read\n");
  });
});

describe("returnlint scan: a folder of more than a thousand tasks, walked and read in a thread of its own", () => {
  // From 1,024 entries on (on a machine of more than one core), the walk and the reads move to a thread, a few batches ahead of the checks.
  const TASKS = 2_000;
  const isPhantom = (task: number) => task % 250 === 0;
  const MARKED = 1_999;
  const HUGE = 1_900;

  function largeProject(): string {
    const files: Record<string, unknown> = {};
    for (let task = 1; task <= TASKS; task += 1) {
      const folder = `specs/${String(task)}_task`;
      if (task === HUGE) continue;
      files[`${folder}/.return-meta.json`] = returnMeta("researched", isPhantom(task) ? [] : [`${folder}/reports/research-001.md`]);
      if (!isPhantom(task)) files[`${folder}/reports/research-001.md`] = "# Findings\n";
    }
    files[`specs/${String(MARKED)}_task/.postflight-pending`] = { session_id: "sess_1", skill: "skill-researcher", task_number: MARKED, operation: "research", reason: "postflight pending" };
    const root = project(files);
    mkdirSync(path.join(root, "specs", `${String(HUGE)}_task`));
    writeFileSync(path.join(root, "specs", `${String(HUGE)}_task`, ".return-meta.json"), " ".repeat(10 * 1024 * 1024 + 1));
    return root;
  }

  it("checks every return once, in the order the system lists the folder, with the same verdicts", () => {
    const root = largeProject();
    // About 2 kB a report: more than the helper's buffer holds.
    const run = spawnSync(process.execPath, [BIN, "scan", "--format", "json"], { cwd: root, encoding: "utf8", maxBuffer: 64 * 1024 * 1024, timeout: 20_000 });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(new RegExp(`^returnlint: Refusing to read .*${String(HUGE)}_task/\\.return-meta\\.json: it is larger than 10 MiB\\.\n$`));
    const reports = parseReports(run.stdout);
    // readdirSync sorts (libuv); a directory handle, as the walk reads specs/, gives the system's order.
    const handle = opendirSync(path.join(root, "specs"));
    const listed: string[] = [];
    for (let entry = handle.readSync(); entry !== null; entry = handle.readSync()) if (entry.name !== `${String(HUGE)}_task`) listed.push(entry.name);
    handle.closeSync();
    expect(reports.map((report) => report.source)).toEqual(listed.map((name) => `specs/${name}/.return-meta.json`));
    const phantom = reports.filter((report) => report.phantom).map((report) => report.source);
    expect(phantom.sort()).toEqual(
      Array.from({ length: TASKS / 250 }, (_, index) => `specs/${String((index + 1) * 250)}_task/.return-meta.json`).sort(),
    );
    expect(reports.filter((report) => !report.ok)).toHaveLength(TASKS / 250);
    // The folder's listing reaches the checks with its return: the marker beside it is seen.
    const marked = reports.find((report) => report.source === `specs/${String(MARKED)}_task/.return-meta.json`);
    expect(marked?.warningCount).toBe(1);
    expect(marked?.results).toContainEqual(expect.objectContaining({ ruleId: "postflight-marker", level: "warn" }));
    expect(reports.filter((report) => report.warningCount > 0)).toHaveLength(1);
  });

  it("counts them in the table; a reader that goes away ends the scan quietly", () => {
    const root = largeProject();
    const run = returnlint(["scan"], { cwd: root });
    expect(run.status).toBe(2);
    expect(run.stdout).toMatch(/^ {2}researched +1999$/m);
    expect(run.stdout).toMatch(new RegExp(`^ {2}phantom work +${String(TASKS / 250)}$`, "m"));
    expect(run.stdout).toMatch(/^ {2}warned +1$/m);
    expect(run.stdout).toContain(`[FAIL] ${String(TASKS / 250)} of 2000 returns below specs failed validation; 1 could not be read\n`);
    // A reader that goes away (\`| head -1\`) ends the scan quietly, the thread with it.
    const head = spawnSync("sh", ["-c", `"${process.execPath}" "${BIN}" scan --format json | head -c 1`], { cwd: root, encoding: "utf8", timeout: 20_000 });
    expect(head.stdout).toBe("[");
    expect(head.stderr).not.toMatch(STACK_FRAME);
  });
});

describe("returnlint scan: terminal and usage", () => {
  it("draws no progress line when standard error is not a terminal", () => {
    const run = returnlint(["scan"], { cwd: mixedProject() });
    expect(run.stderr).toBe("");
    expect(run.stdout).not.toContain("\r");
  });

  it.runIf(existsSync("/usr/bin/script"))("finishes with a progress line on standard error when it is a terminal", () => {
    const root = mixedProject();
    const command = `${process.execPath} ${BIN} scan >/dev/null`;
    const run = spawnSync("/usr/bin/script", ["-qec", command, "/dev/null"], { cwd: root, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" }, timeout: 20_000 });
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/Scanned 4 returns below specs in \d+\.\d\d s: 2 passed, 2 failed\r?\n/);
  });

  it("prints help", () => {
    const run = returnlint(["scan", "--help"]);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("Usage: returnlint scan [DIR] [options]");
    expect(run.stdout).toContain("--concurrency N");
    expect(returnlint(["--help"]).stdout).toMatch(/^ {2}scan \[DIR\] +validate every \.return-meta\.json below DIR/m);
  });

  it.each([
    [["scan"], /^returnlint: Cannot scan specs: no such directory\. Run returnlint scan from the project root/],
    [["scan", "nowhere"], /^returnlint: Cannot scan nowhere: no such directory\.\n$/],
    [["scan", "specs/1_a/.return-meta.json"], /it is not a directory\. Use "returnlint check" for one file\./],
    [["scan", "a", "b"], /takes one directory; received 2/],
    [["scan", "--format", "sarfi"], /Unknown format "sarfi" for "returnlint scan"; available: stylish, json, sarif, junit, github\./],
    [["scan", "--concurrency", "0"], /--concurrency must be at least 1\./],
    [["scan", "--concurrency", "many"], /--concurrency must be a whole number; received "many"\./],
    [["scan", "--session-id", "s"], /Unknown option --session-id for "returnlint scan"/],
  ])("exits 2 with a sentence for %j", (args, message) => {
    const root = args.includes("specs/1_a/.return-meta.json") ? project({ "specs/1_a/.return-meta.json": returnMeta("partial", []) }) : project({});
    const run = returnlint(args, { cwd: root });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).not.toMatch(STACK_FRAME);
  });

  it("exits 2 for an invalid config, naming the problem", () => {
    const root = mixedProject();
    writeFileSync(path.join(root, "returnlint.config.json"), JSON.stringify({ rules: { "status-enun": "error" } }));
    const run = returnlint(["scan"], { cwd: root });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('unknown rule "status-enun" (did you mean "status-enum"?)');
    expect(run.stdout).toBe("");
  });
});
