// The projects the benchmark runs on, generated under bench/.work/ (gitignored) and
// reused while their marker says they are complete.
import { Buffer } from "node:buffer";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
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
const TASK = "specs/280_fix_orchestrator_stage_4_validation";
const REPORT_PATH = `${TASK}/reports/research-001.md`;
const PLAN_PATH = `${TASK}/plans/implementation-001.md`;

/** A research return of `agent` with `status` that claims the report and the plan (written by the caller, or not). */
function researchReturn(agent, status) {
  return {
    status,
    summary: "Researched orchestrator Stage 4 validation and wrote a report and a two-phase plan.",
    artifacts: [
      { type: "report", path: REPORT_PATH, summary: "Research report" },
      { type: "plan", path: PLAN_PATH, summary: "Two-phase plan" },
    ],
    metadata: metadata(agent, "research"),
  };
}

/** Case 1 and 2: a valid v7 return with two artifacts, and a phantom one, in one project. */
export function checkProject(workDir) {
  const root = path.join(workDir, "check");
  const valid = researchReturn("researcher", "completed");
  const phantom = { ...valid, summary: "Research completed successfully.", artifacts: [] };
  writeFiles(root, {
    "return.json": `${JSON.stringify(valid, null, 2)}\n`,
    "phantom.json": `${JSON.stringify(phantom, null, 2)}\n`,
    [REPORT_PATH]: REPORT,
    [PLAN_PATH]: PLAN,
    // Case 4 without artifact checks: the same returns, with the rule turned off.
    "no-artifacts.config.json": `${JSON.stringify({ rules: { artifacts: "off" } })}\n`,
    // Case 2c: what a project with a config file pays for loading and validating it.
    "project.config.json": `${JSON.stringify({ preset: "v7", rules: { "summary-length": ["warn", { maxChars: 300 }] }, commands: { research: { rules: { artifacts: "error" } } } })}\n`,
    // Case 2e: the same config in YAML, as `returnlint init` writes configs (comments and all).
    "project.config.yaml": "# yaml-language-server: $schema=https://unpkg.com/returnlint/dist/config.schema.json\n# The format your subagents return:\npreset: v7\n\n# Rules over the preset:\nrules:\n  summary-length: [warn, { maxChars: 300 }]\n\n# Per orchestrator command:\ncommands:\n  research:\n    rules:\n      artifacts: error\n",
    // Case 2d: the same return under the v7 preset written as a contract (examples/contract-v7, issue 33).
    "contract.config.json": `${JSON.stringify({ contract: "./v7-return.contract.json" })}\n`,
    "v7-return.contract.json": readFileSync(new URL("../examples/contract-v7/contracts/v7-return.schema.json", import.meta.url), "utf8"),
  });
  return { root, session: SESSION, agent: "researcher", validText: readFileSync(path.join(root, "return.json"), "utf8") };
}

/**
 * Case 7: a project of the family as Claude Code's SubagentStop hook sees it: an agent under
 * .claude/agents/, the artifacts of the subagent's return written, the subagent's transcript, and
 * the payload Claude Code writes on the hook's standard input (a subagent return that is checked:
 * a known agent, its final message with the return in a ```json fence). returnlint is there both
 * ways the docs give: in node_modules (this build, linked as npm would install it, with
 * node_modules/.bin/returnlint) and as the vendored copy `init claude --vendor` writes.
 */
export function hookProject(workDir, cli, { initConfig = false } = {}) {
  const root = path.join(workDir, initConfig ? "hook-config" : "hook");
  rmSync(root, { recursive: true, force: true });
  // With the config `returnlint init` writes for this project (the v7 preset: no return file under
  // specs/), the agent returns what v7 asks: "completed".
  const value = researchReturn("lean-research-agent", initConfig ? "completed" : "researched");
  const message = `Research complete.\n\n\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\``;
  const sessionId = "9f3c2a51-6d0e-4b8a-9a41-2f7c1e0d5b66";
  const agentId = "a4e1f2c3";
  const transcript = path.join(root, ".transcripts", sessionId, "subagents", `agent-${agentId}.jsonl`);
  writeFiles(root, {
    ".claude/agents/lean-research-agent.md": "---\nname: lean-research-agent\ndescription: Researches a task\n---\nResearch the task.\n",
    [REPORT_PATH]: REPORT,
    [PLAN_PATH]: PLAN,
    [path.relative(root, transcript)]: `${JSON.stringify({ type: "assistant", sessionId, agentId, message: { role: "assistant", content: [{ type: "text", text: message }] } })}\n`,
    ".claude/hooks/returnlint.cjs": readFileSync(path.join(cli, "dist", "returnlint-vendored.cjs")),
    ".claude/hooks/returnlint.pack": readFileSync(path.join(cli, "dist", "returnlint-vendored.pack")),
  });
  mkdirSync(path.join(root, "node_modules", ".bin"), { recursive: true });
  symlinkSync(cli, path.join(root, "node_modules", "returnlint"), "dir");
  symlinkSync(path.join("..", "returnlint", "dist", "returnlint.cjs"), path.join(root, "node_modules", ".bin", "returnlint"));
  if (initConfig) {
    const init = spawnSync(process.execPath, [path.join(cli, "dist", "returnlint.cjs"), "init"], { cwd: root, encoding: "utf8" });
    if (init.status !== 0 || !existsSync(path.join(root, "returnlint.config.yaml"))) throw new Error(`bench: returnlint init failed in ${root}: ${init.stderr}`);
  }
  const payload = {
    session_id: sessionId,
    transcript_path: path.join(root, ".transcripts", `${sessionId}.jsonl`),
    cwd: root,
    permission_mode: "default",
    hook_event_name: "SubagentStop",
    stop_hook_active: false,
    agent_id: agentId,
    agent_transcript_path: transcript,
    agent_type: "lean-research-agent",
    last_assistant_message: message,
  };
  return { root, payload: JSON.stringify(payload) };
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

const AUDIT_AGENTS = [
  ["research", "researched", "lean-research-agent"],
  ["plan", "planned", "planner-agent"],
  ["implement", "implemented", "general-implementation-agent"],
  ["research", "researched", "general-research-agent"],
];

/**
 * Case 5: a bare repository whose history holds `versions` versions of metadata files
 * (`specs/{N}_task_{N}/.return-meta.json`), two per task: the early metadata
 * (`in_progress`), then the final return with a report and a summary, written in the
 * same commit. One commit per version, four hours apart from 2025-01-01. Every tenth
 * task's final return claims artifacts that are never written, and every 25th that is
 * not a tenth writes one of them a commit later: phantom work either way. Written with
 * one `git fast-import`. Returns the repository and how many versions are phantom work.
 */
export function auditRepository(workDir, versions, log) {
  const root = path.join(workDir, `audit-${String(versions)}.git`);
  const marker = path.join(workDir, `audit-${String(versions)}.complete`);
  const tasks = versions / 2;
  const isPhantom = (task) => task % 10 === 0 || task % 25 === 0;
  let phantom = 0;
  for (let task = 1; task <= tasks; task += 1) if (isPhantom(task)) phantom += 1;
  if (existsSync(marker) && readFileSync(marker, "utf8") === String(versions)) return { root, phantom };
  log(`generating a history of ${String(versions)} metadata-file versions in ${path.relative(process.cwd(), root)} …`);
  rmSync(root, { recursive: true, force: true });
  rmSync(marker, { force: true });
  mkdirSync(root, { recursive: true });
  const git = (args, input) => {
    const run = spawnSync("git", args, { cwd: root, input, encoding: "utf8", maxBuffer: 1024 * 1024 * 1024 });
    if (run.status !== 0) throw new Error(`git ${args.join(" ")} failed: ${run.stderr}`);
  };
  git(["init", "-q", "--bare", "--initial-branch=main"]);

  const chunks = [];
  const data = (text) => `data ${String(Buffer.byteLength(text))}\n${text}\n`;
  let mark = 0;
  let time = Date.UTC(2025, 0, 1) / 1000;
  /** A late artifact, written by the next commit. */
  let pending;
  const commit = (message, files) => {
    mark += 1;
    time += 4 * 3600;
    chunks.push(`commit refs/heads/main\nmark :${String(mark)}\nauthor Bench <bench@returnlint.invalid> ${String(time)} +0000\ncommitter Bench <bench@returnlint.invalid> ${String(time)} +0000\n${data(message)}`);
    if (mark > 1) chunks.push(`from :${String(mark - 1)}\n`);
    for (const [file, content] of Object.entries(files)) chunks.push(`M 100644 inline ${file}\n${data(content)}`);
    chunks.push("\n");
  };
  for (let task = 1; task <= tasks; task += 1) {
    const [command, status, agent] = AUDIT_AGENTS[task % AUDIT_AGENTS.length];
    const dir = `specs/${String(task)}_task_${String(task)}`;
    const started = new Date((time + 4 * 3600) * 1000).toISOString();
    const early = { status: "in_progress", started_at: started, artifacts: [], partial_progress: { stage: "initializing", details: "Agent started" }, metadata: metadata(agent, command) };
    commit(`task ${String(task)}: early metadata`, { [`${dir}/.return-meta.json`]: `${JSON.stringify(early, null, 2)}\n`, ...(pending ?? {}) });
    pending = undefined;
    const report = `${dir}/reports/${command}-001.md`;
    const summary = `${dir}/summaries/${command}-summary.md`;
    const final = {
      status,
      artifacts: [
        { type: "report", path: report, summary: "Report" },
        { type: "summary", path: summary, summary: "Summary" },
      ],
      ...(status === "implemented" ? { completion_data: { completion_summary: "Implemented the plan's phases and their tests." } } : {}),
      next_steps: `Run the next command for task ${String(task)}`,
      metadata: metadata(agent, command),
    };
    const late = task % 25 === 0 && task % 10 !== 0;
    const artifacts = task % 10 === 0 ? {} : late ? { [report]: REPORT } : { [report]: REPORT, [summary]: PLAN };
    if (late) pending = { [summary]: PLAN };
    commit(`task ${String(task)}: ${status}`, { [`${dir}/.return-meta.json`]: `${JSON.stringify(final, null, 2)}\n`, ...artifacts });
  }
  git(["fast-import", "--quiet"], chunks.join(""));
  writeFileSync(marker, String(versions));
  return { root, phantom };
}
