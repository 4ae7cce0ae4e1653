// The projects the benchmark runs on, generated under bench/.work/ (gitignored) and
// reused while their marker says they are complete.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

const SESSION = "sess_1735460684_a1b2c3";
const metadata = (agent, command) => ({
  session_id: SESSION,
  agent_type: agent,
  duration_seconds: 1850,
  delegation_depth: 1,
  delegation_path: ["orchestrator", command, agent],
});

const REPORT = "# Research report\n\nStage 4 validation is documented but never executed; see the plan.\n";
const PLAN = "# Implementation plan\n\n1. Make Stage 4 executable.\n2. Test it on real returns.\n";

/** Case 1 and 2: a valid v7 return with two artifacts, and a phantom one, in one project. */
export function checkProject(workDir) {
  const root = path.join(workDir, "check");
  const task = "specs/280_fix_orchestrator_stage_4_validation";
  const valid = {
    status: "completed",
    summary: "Researched orchestrator Stage 4 validation and wrote a report and a two-phase plan.",
    artifacts: [
      { type: "report", path: `${task}/reports/research-001.md`, summary: "Research report" },
      { type: "plan", path: `${task}/plans/implementation-001.md`, summary: "Two-phase plan" },
    ],
    metadata: metadata("researcher", "research"),
  };
  const phantom = { ...valid, summary: "Research completed successfully.", artifacts: [] };
  writeFiles(root, {
    "return.json": `${JSON.stringify(valid, null, 2)}\n`,
    "phantom.json": `${JSON.stringify(phantom, null, 2)}\n`,
    [`${task}/reports/research-001.md`]: REPORT,
    [`${task}/plans/implementation-001.md`]: PLAN,
    // Case 4 without artifact checks: the same returns, with the rule turned off.
    "no-artifacts.config.json": `${JSON.stringify({ rules: { artifacts: "off" } })}\n`,
    // Case 2c: what a project with a config file pays for loading and validating it.
    "project.config.json": `${JSON.stringify({ preset: "v7", rules: { "summary-length": ["warn", { maxChars: 300 }] }, commands: { research: { rules: { artifacts: "error" } } } })}\n`,
  });
  return { root, session: SESSION, agent: "researcher", validText: readFileSync(path.join(root, "return.json"), "utf8") };
}

/**
 * Case 3: `count` task folders, each `specs/{N}_task_{N}/.return-meta.json` with
 * two artifacts (a report and a plan), all valid. Returns the project root.
 */
export function scanProject(workDir, count, log) {
  const root = path.join(workDir, `scan-${String(count)}`);
  const marker = path.join(root, ".complete");
  if (existsSync(marker) && readFileSync(marker, "utf8") === String(count)) return root;
  log(`generating ${String(count)} metadata files under ${path.relative(process.cwd(), root)} …`);
  rmSync(root, { recursive: true, force: true });
  for (let task = 1; task <= count; task += 1) {
    const dir = `specs/${String(task)}_task_${String(task)}`;
    mkdirSync(path.join(root, dir, "reports"), { recursive: true });
    mkdirSync(path.join(root, dir, "plans"));
    const meta = {
      status: "researched",
      artifacts: [
        { type: "report", path: `${dir}/reports/research-001.md`, summary: "Research report" },
        { type: "plan", path: `${dir}/plans/implementation-001.md`, summary: "Implementation plan" },
      ],
      next_steps: `Run /plan ${String(task)} to create the implementation plan`,
      metadata: metadata("researcher", "research"),
    };
    writeFileSync(path.join(root, dir, ".return-meta.json"), `${JSON.stringify(meta, null, 2)}\n`);
    writeFileSync(path.join(root, dir, "reports/research-001.md"), REPORT);
    writeFileSync(path.join(root, dir, "plans/implementation-001.md"), PLAN);
  }
  writeFileSync(marker, String(count));
  return root;
}

function writeFiles(root, files) {
  for (const [relative, content] of Object.entries(files)) {
    const target = path.join(root, relative);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, content);
  }
}
