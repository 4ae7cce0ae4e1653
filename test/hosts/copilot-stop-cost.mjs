// What a subagent stop costs in Copilot CLI: each hook command `returnlint init copilot` writes, run
// as Copilot CLI runs a hook (bash in the project's root, the subagentStop payload of Copilot CLI
// 1.0.102 on standard input: a known agent whose return is checked, passes and leaves its verdict),
// interleaved with `node -e 0` run the same way. Prints the medians; docs/hosts.md quotes them.
//
//   pnpm build && node test/hosts/copilot-stop-cost.mjs [RUNS]
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const REPO = fileURLToPath(new URL("../..", import.meta.url));
const CLI = path.join(REPO, "apps", "cli");
const RUNS = Number(process.argv[2] ?? 60);
const REPORT = "specs/259_prove_completeness/reports/research-001.md";

const scratch = mkdtempSync(path.join(tmpdir(), "returnlint-copilot-cost-"));
try {
  /** A project set up by `returnlint init copilot` (installed: node_modules' returnlint; else the vendored copy), with the report its agent returns. */
  const project = (name, installed) => {
    const root = path.join(scratch, name);
    mkdirSync(path.join(root, path.dirname(REPORT)), { recursive: true });
    writeFileSync(path.join(root, REPORT), "# Research\n\nThe lemmas are in place.\n");
    if (installed) {
      mkdirSync(path.join(root, "node_modules"), { recursive: true });
      symlinkSync(CLI, path.join(root, "node_modules", "returnlint"), "dir");
    }
    const init = spawnSync(process.execPath, [path.join(CLI, "dist", "returnlint.cjs"), "init", "copilot"], { cwd: root, encoding: "utf8" });
    if (init.status !== 0) throw new Error(`init copilot failed: ${init.stderr}`);
    const [entry] = JSON.parse(readFileSync(path.join(root, ".github", "hooks", "returnlint.json"), "utf8")).hooks.subagentStop;
    return { root, command: entry.bash };
  };
  const recorded = JSON.parse(readFileSync(path.join(REPO, "packages", "hooks", "src", "hosts", "fixtures", "copilot-1.0.102", "subagentStop.json"), "utf8"));
  const value = {
    status: "completed",
    summary: "Researched task 259 and wrote the report of the lemmas the proof needs.",
    artifacts: [{ type: "report", path: REPORT, summary: "Research report" }],
    metadata: { session_id: "sess_1736700000_abc123", agent_type: "lean-research-agent", delegation_depth: 1, delegation_path: ["orchestrator", "research", "lean-research-agent"] },
  };
  const payload = (root) => JSON.stringify({ ...recorded, cwd: root, response: `Research complete.\n\n\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\`` });

  const installed = project("installed", true);
  const vendored = project("vendored", false);
  const commands = [
    { name: "node -e 0", root: installed.root, command: "node -e 0" },
    { name: installed.command, root: installed.root, command: installed.command },
    { name: vendored.command, root: vendored.root, command: vendored.command },
  ];
  const once = ({ root, command }) => {
    const started = process.hrtime.bigint();
    const run = spawnSync("bash", ["-c", command], { cwd: root, input: payload(root), encoding: "utf8", env: { PATH: process.env.PATH, HOME: scratch, COPILOT_PROJECT_DIR: root } });
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (run.status !== 0 || run.stdout !== "") throw new Error(`${command} did not pass the return: exit ${String(run.status)}, ${run.stdout}${run.stderr}`);
    return ms;
  };
  // Warm-up: the vendored copy writes its code cache on its first runs, as the first real stops would.
  for (const entry of commands) for (let i = 0; i < 3; i += 1) once(entry);
  for (const { root } of [installed, vendored]) {
    const verdicts = path.join(root, ".returnlint", "verdicts");
    const written = JSON.parse(readFileSync(path.join(verdicts, `lean-research-agent--${recorded.agentId}.json`), "utf8"));
    if (written.decision !== "pass") throw new Error(`the hook in ${root} did not pass the return: ${JSON.stringify(written)}`);
  }
  const times = commands.map(() => []);
  for (let run = 0; run < RUNS; run += 1) commands.forEach((entry, index) => times[index].push(once(entry)));
  const median = (list) => {
    const sorted = [...list].sort((a, b) => a - b);
    return (sorted[Math.floor((sorted.length - 1) / 2)] + sorted[Math.ceil((sorted.length - 1) / 2)]) / 2;
  };
  const floor = median(times[0]);
  console.log(`Medians of ${String(RUNS)} interleaved runs, each through bash -c with the subagentStop payload on standard input:\n`);
  console.log("| hook command | median | ÷ node -e 0 |\n| --- | ---: | ---: |");
  commands.forEach((entry, index) => console.log(`| \`${entry.name}\` | ${median(times[index]).toFixed(1)} ms | ${(median(times[index]) / floor).toFixed(2)}× |`));
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
