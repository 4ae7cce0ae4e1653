// What a subagent stop costs with each Codex hook command of docs/hosts.md, beside `node -e 0`: each
// run as Codex runs a hook ($SHELL -lc in the project, a SubagentStop payload on standard input, for
// an agent the hook lets stop), N times, the median. Usage: node test/hosts/codex-stop-cost.mjs
// PROJECT [N], in a project set up by `returnlint init codex --vendor` with returnlint installed.
import { spawnSync } from "node:child_process";
const [root = process.cwd(), n = "21"] = process.argv.slice(2);
const payload = JSON.stringify({ session_id: "s", turn_id: "t", transcript_path: null, agent_transcript_path: null, cwd: root, hook_event_name: "SubagentStop", model: "m", permission_mode: "default", stop_hook_active: false, agent_id: "a1", agent_type: "explorer", last_assistant_message: "Found it, in prose." });
const shell = process.env.SHELL ?? "/bin/sh";
const commands = {
  "node -e 0": "node -e 0",
  "installed (init codex)": `node "$(git rev-parse --show-toplevel 2>/dev/null || pwd)"/node_modules/returnlint/dist/returnlint.cjs hook codex`,
  "vendored (init codex --vendor)": `node "$(git rev-parse --show-toplevel 2>/dev/null || pwd)"/.codex/hooks/returnlint.cjs hook codex`,
  "npx --no-install": "npx --no-install returnlint hook codex",
};
for (const [name, command] of Object.entries(commands)) {
  const times = [];
  for (let i = 0; i < Number(n); i++) {
    const t = process.hrtime.bigint();
    const r = spawnSync(shell, ["-lc", command], { cwd: root, input: payload, encoding: "utf8" });
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
    if (r.status !== 0 || r.stdout.trim() !== "") { console.log(name, "FAILED", r.status, r.stdout, r.stderr.slice(0, 300)); break; }
  }
  times.sort((a, b) => a - b);
  console.log(`${name.padEnd(32)} median ${times[Math.floor(times.length / 2)].toFixed(0)} ms  (min ${times[0].toFixed(0)}, max ${times.at(-1).toFixed(0)}, n=${times.length})`);
}
