// What a subagent stop costs with each Cursor hook command of docs/hosts.md, beside `node -e 0`: each
// command run as Cursor runs a hook (`sh -c` in the project, CURSOR_PROJECT_DIR set, a documented
// subagentStop payload on standard input whose return passes, so that the return is checked and its
// verdict written), the commands interleaved, N runs each (npx every tenth), the medians.
// Usage: node test/hosts/cursor-stop-cost.mjs [N], after `pnpm build`; it makes its own project.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const REPO = fileURLToPath(new URL("../..", import.meta.url));
const BIN = path.join(REPO, "apps", "cli", "dist", "returnlint.js");
const REPORT = "specs/259_prove_completeness/reports/research-001.md";
const runs = Number(process.argv[2] ?? "100");

const root = mkdtempSync(path.join(tmpdir(), "returnlint-cursor-cost-"));
const write = (file, content) => {
  mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  writeFileSync(path.join(root, file), content);
};
write(REPORT, "# Research\n");
write(".cursor/agents/lean-research-agent.md", "---\nname: lean-research-agent\n---\nResearch the task.\n");
// returnlint as npm installs it: this build's apps/cli, and its bin for npx.
mkdirSync(path.join(root, "node_modules", ".bin"), { recursive: true });
symlinkSync(path.join(REPO, "apps", "cli"), path.join(root, "node_modules", "returnlint"));
symlinkSync("../returnlint/dist/returnlint.cjs", path.join(root, "node_modules", ".bin", "returnlint"));

const commandOf = (args) => {
  execFileSync(process.execPath, [BIN, "init", "cursor", ...args], { cwd: root });
  return JSON.parse(readFileSync(path.join(root, ".cursor", "hooks.json"), "utf8")).hooks.subagentStop[0].command;
};
const commands = {
  "node -e 0": "node -e 0",
  "installed (init cursor)": commandOf([]),
  "the vendored copy (init cursor --vendor)": commandOf(["--vendor"]),
  "npx --no-install": "npx --no-install returnlint hook cursor",
};

const value = {
  status: "researched",
  summary: "Researched task 259.",
  artifacts: [{ type: "report", path: REPORT, summary: "Research report" }],
  metadata: { session_id: "sess_1736700000_abc123", agent_type: "lean-research-agent", delegation_depth: 1, delegation_path: ["orchestrator", "research", "lean-research-agent"] },
};
const payload = JSON.stringify({
  conversation_id: "c7d2a9e4",
  generation_id: "0e5f3b7a",
  model: "m",
  hook_event_name: "subagentStop",
  cursor_version: "2.4.21",
  workspace_roots: [root],
  user_email: null,
  transcript_path: null,
  subagent_id: "sa_1",
  subagent_type: "lean-research-agent",
  status: "completed",
  task: "Research task 259.",
  description: "Research task 259",
  summary: `Done.\n\n\`\`\`json\n${JSON.stringify(value)}\n\`\`\``,
  duration_ms: 1,
  message_count: 1,
  tool_call_count: 1,
  loop_count: 0,
  modified_files: [],
  agent_transcript_path: null,
});
const env = { PATH: process.env.PATH, HOME: process.env.HOME, CURSOR_PROJECT_DIR: root };

function once(name, command) {
  const started = process.hrtime.bigint();
  const run = spawnSync("sh", ["-c", command], { cwd: root, env, input: payload, encoding: "utf8" });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (name !== "node -e 0" && (run.status !== 0 || run.stdout !== "{}\n")) throw new Error(`${name} did not pass the return: exit ${String(run.status)} ${run.stdout} ${run.stderr}`);
  return ms;
}

try {
  // Warm-up: the vendored copy writes its code caches beside itself on its first runs.
  for (const [name, command] of Object.entries(commands)) for (let i = 0; i < 3; i += 1) once(name, command);
  const times = Object.fromEntries(Object.keys(commands).map((name) => [name, []]));
  for (let i = 0; i < runs; i += 1) {
    for (const [name, command] of Object.entries(commands)) if (name !== "npx --no-install" || i % 10 === 0) times[name].push(once(name, command));
  }
  const median = (list) => {
    const sorted = [...list].sort((a, b) => a - b);
    const middle = sorted.length >> 1;
    return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  };
  const base = median(times["node -e 0"]);
  for (const [name, list] of Object.entries(times)) console.log(`${name.padEnd(42)} ${String(list.length).padStart(3)} runs  median ${median(list).toFixed(1)} ms  ${(median(list) / base).toFixed(2)}×`);
  console.log(`load average at the end: ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")}`);
} finally {
  rmSync(root, { recursive: true, force: true });
}
