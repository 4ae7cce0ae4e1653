// The bin and its code cache.
// - dist/returnlint.cjs, the `bin`: a loader that compiles cli.cjs with V8's code cache,
//   dist/cli.cjs.cache, made here by training runs of real checks (train-code-cache.cjs). Compiling the bundle is
//   otherwise a few milliseconds of every run. A cache made by another Node version is
//   rejected by V8 and the loader compiles from source as usual.
// - dist/cli.cjs is rewritten as the script the loader compiles: the bundle inside the loader's
//   CommonJS wrapper, so that the loader hands V8 the text it reads as it is.
// - dist/returnlint.js: the same CLI for `node dist/returnlint.js` (README, scripts), a
//   two-line ESM file that loads returnlint.cjs.
import { spawnSync } from "node:child_process";
import { transformSync } from "esbuild";
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The loader as it ships: src/loader.cjs without its comments and indentation. Node compiles the
 * bin from source at every start (it has no code cache), so its comments cost every run; the names
 * stay, and so do the lines the vendored copy fills in, as `const NAME=VALUE;`.
 */
export function shippedLoader(cli) {
  return transformSync(readFileSync(new URL("src/loader.cjs", cli), "utf8"), { loader: "js", minifyWhitespace: true, target: "node20" }).code;
}

/** Writes dist/returnlint.cjs (src/loader.cjs, `shippedLoader`) and dist/returnlint.js, and wraps dist/cli.cjs; returns the loader's URL. */
export function writeBin(cli, dist) {
  const esmEntry = new URL("returnlint.js", dist);
  writeFileSync(esmEntry, `#!/usr/bin/env node\nimport { createRequire } from "node:module";\ncreateRequire(import.meta.url)("./returnlint.cjs");\n`);
  chmodSync(esmEntry, 0o755);
  const loader = new URL("returnlint.cjs", dist);
  const loaderSource = readFileSync(new URL("src/loader.cjs", cli), "utf8");
  writeFileSync(loader, shippedLoader(cli));
  chmodSync(loader, 0o755);
  wrapBundle(new URL("cli.cjs", dist), loaderSource);
  return loader;
}

/**
 * Rewrites the bundle as the loader's wrapper around it, the wrapper taken from the loader's
 * `WRAPPER` line so that the two cannot differ. Its hashbang, valid only at the very start of a
 * script, becomes a comment.
 */
function wrapBundle(bundle, loaderSource) {
  const line = /^const WRAPPER = ("[^"\n]*");$/m.exec(loaderSource);
  if (line === null) throw new Error("src/loader.cjs has no `const WRAPPER = \"…\";` line: the build takes the bundle's wrapper from it");
  const wrapper = JSON.parse(line[1]);
  const text = readFileSync(bundle, "utf8");
  if (text.startsWith(wrapper)) throw new Error(`${fileURLToPath(bundle)} is wrapped already: was the build run twice over one bundle?`);
  writeFileSync(bundle, `${wrapper}${text.startsWith("#!") ? `//${text.slice(2)}` : text}\n});`);
}

/**
 * The training: checks of the example return, as the usual runs make them, in one process (the
 * cache keeps what they compiled): printed as stylish and written as JSON (to a temporary file)
 * with a session id and an agent to compare; with a config file that sets a rule's options and a
 * command's rules; a phantom-work return, whose failures are said; and, last, Claude Code's
 * SubagentStop hook passing the example return (every subagent stop pays for the hook's start-up:
 * it reads its payload from standard input, so one hook run, the last, reads what training is given).
 */
export function trainCodeCache(cli, dist, loader) {
  const example = fileURLToPath(new URL("../../examples/valid-v7/", cli));
  const valid = JSON.parse(readFileSync(path.join(example, "return.json"), "utf8"));
  const { session_id: session, agent_type: agent } = valid.metadata;
  const scratch = mkdtempSync(path.join(tmpdir(), "returnlint-build-"));
  const config = path.join(scratch, "returnlint.config.json");
  writeFileSync(config, JSON.stringify({ preset: "v7", rules: { "summary-length": ["warn", { maxChars: 300 }] }, commands: { research: { rules: { artifacts: "error" } } } }));
  writeFileSync(path.join(scratch, "phantom.json"), JSON.stringify({ ...valid, status: "completed", artifacts: [] }));
  // The hook's project: the example's artifacts, and .returnlint/ written here, not into examples/.
  const project = path.join(scratch, "project");
  cpSync(path.join(example, "specs"), path.join(project, "specs"), { recursive: true });
  const payload = {
    session_id: "9f3c2a51-6d0e-4b8a-9a41-2f7c1e0d5b66",
    transcript_path: path.join(scratch, "session.jsonl"),
    cwd: project,
    permission_mode: "default",
    hook_event_name: "SubagentStop",
    stop_hook_active: false,
    agent_id: "a4e1f2c3",
    agent_transcript_path: path.join(scratch, "agent-a4e1f2c3.jsonl"),
    agent_type: agent,
    last_assistant_message: `Research complete.\n\n\`\`\`json\n${JSON.stringify(valid, null, 2)}\n\`\`\``,
  };
  // As Claude Code leaves them at a stop: the agent's definition, and its transcript ending with the final message.
  mkdirSync(path.join(project, ".claude", "agents"), { recursive: true });
  writeFileSync(path.join(project, ".claude", "agents", `${agent}.md`), `---\nname: ${agent}\ndescription: Researches a task\n---\nResearch the task and return the JSON object of the v7 format.\n`);
  const finalMessage = { type: "assistant", sessionId: payload.session_id, agentId: payload.agent_id, message: { role: "assistant", content: [{ type: "text", text: payload.last_assistant_message }] } };
  writeFileSync(payload.agent_transcript_path, `${JSON.stringify(finalMessage)}\n`);
  const compare = ["--command", "research", "--session-id", session, "--agent", agent];
  // A contract's check: the first compiles it into the scratch cache, the second finds it there (what every later check does).
  const contract = path.join(scratch, "contract.config.json");
  writeFileSync(contract, JSON.stringify({ contract: fileURLToPath(new URL("../../examples/contract-v7/contracts/v7-return.schema.json", cli)) }));
  const underContract = { cwd: example, args: ["check", "return.json", ...compare, "--config", contract], status: 0 };
  // The config `returnlint init` writes is YAML: its parser is a chunk of its own, with its own code cache.
  const yamlConfig = path.join(scratch, "returnlint.config.yaml");
  writeFileSync(yamlConfig, "# returnlint's config\npreset: v7\nrules:\n  summary-length: [warn, { maxChars: 300 }]\ncommands:\n  research:\n    rules:\n      artifacts: error\n");
  const checks = [
    { cwd: example, args: ["check", "return.json", ...compare, "-f", "json", "-o", path.join(scratch, "report.json"), "-f", "stylish"], status: 0 },
    { cwd: example, args: ["check", "return.json", ...compare, "--config", config], status: 0 },
    { cwd: scratch, args: ["check", "phantom.json", ...compare], status: 1 },
    underContract,
    underContract,
    { cwd: example, args: ["check", "return.json", ...compare, "--config", yamlConfig], status: 0 },
  ];
  const hook = { cwd: project, args: ["hook", "claude"], status: 0 };
  // The check's and the hook's own caches of cli.cjs (the loader's COMMANDS_WITH_A_CACHE), then
  // the one every other command takes, with the chunks' caches, from all the runs.
  const trainings = [
    { command: "check", runs: checks },
    { command: "hook", runs: [hook] },
    { command: "", runs: [...checks, hook] },
  ];
  try {
    for (const { command, runs } of trainings) {
      // Named as the loader's `cacheOf` names them.
      const written = new URL(command === "" ? "cli.cjs.cache" : `cli.cjs.${command}.cache`, dist);
      rmSync(written, { force: true });
      const training = spawnSync(process.execPath, [fileURLToPath(new URL("build/train-code-cache.cjs", cli)), fileURLToPath(loader)], {
        env: { ...process.env, RETURNLINT_CODE_CACHE_RUNS: JSON.stringify(runs), RETURNLINT_CODE_CACHE_COMMAND: command, RETURNLINT_CACHE_DIR: path.join(scratch, "cache"), NO_COLOR: "1" },
        input: JSON.stringify(payload),
        encoding: "utf8",
      });
      if (training.status !== 0 || !existsSync(written)) {
        throw new Error(`the code cache's training (${command || "every command"}) failed (exit ${String(training.status)}): ${training.stderr}${training.stdout.slice(0, 500)}`);
      }
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
