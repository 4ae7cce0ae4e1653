// Case 8, run in a child process of its own: a subagent's return handed to each framework adapter
// in process, the way its framework calls it, next to validate() alone on the same return with the
// same config. The subjects take turns within each round (the order rotating), so that the load
// of a shared machine falls on all of them alike. Prints one JSON line: returns per second per
// round, by subject.
//
// Usage: node bench/frameworks.mjs ROOT SECONDS_PER_ROUND ROUNDS
import { readFileSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";

const [root, secondsArgument, roundsArgument] = process.argv.slice(2);
const SUBJECTS = ["validate", "claude-agent-sdk", "openai-agents", "ai-sdk", "mastra"];
const adapter = (name) => import(new URL(`../packages/${name}/dist/index.js`, import.meta.url).href);

// The subagent's final message: the return in a fence after a line of prose, as subagents end.
const message = `Research complete.\n\n\`\`\`json\n${readFileSync(path.join(root, "return.json"), "utf8")}\`\`\``;
const AGENT = "researcher";
// Many returns in flight at once, as an orchestrator running subagents side by side would.
const BATCH = 256;

/** One return through `subject`, resolving with whether it passed. */
async function oneReturn(subject) {
  switch (subject) {
    case "validate": {
      const { loadReturnlintConfig, validate } = await import("@returnlint/api");
      const options = { cwd: root, root, config: await loadReturnlintConfig({ cwd: root }), command: "research" };
      return async () => (await validate(message, options)).ok;
    }
    case "claude-agent-sdk": {
      const [callback] = (await adapter(subject)).returnlintHooks().SubagentStop[0].hooks;
      const input = { hook_event_name: "SubagentStop", session_id: "bench", cwd: root, agent_id: "a1", agent_type: AGENT, last_assistant_message: message };
      const { signal } = new globalThis.AbortController();
      return async () => (await callback(input, undefined, { signal })).decision === undefined;
    }
    case "openai-agents": {
      const guardrail = (await adapter(subject)).returnlintGuardrail({ cwd: root });
      return async () => (await guardrail.run({ toolCall: { name: AGENT }, output: message })).behavior.type === "allow";
    }
    case "ai-sdk": {
      const execute = (await adapter(subject)).returnlintExecute(AGENT, () => message, { cwd: root });
      return async () => (await execute({}, {})) === message;
    }
    case "mastra": {
      const delegation = (await adapter(subject)).returnlintDelegation({ cwd: root });
      const context = { primitiveId: AGENT, primitiveType: "agent", result: { text: message }, success: true, runId: "bench" };
      return async () => (await delegation.onDelegationComplete(context)) === undefined;
    }
    default:
      throw new Error(`bench/frameworks.mjs: no subject ${subject}`);
  }
}

const checks = {};
for (const subject of SUBJECTS) {
  checks[subject] = await oneReturn(subject);
  if (!(await checks[subject]())) throw new Error(`the benchmark return does not pass through ${subject}`);
}

/** Returns per second of `check` for one round's time, BATCH returns in flight. */
async function rate(check) {
  const until = performance.now() + Number(secondsArgument) * 1000;
  const started = performance.now();
  let count = 0;
  while (performance.now() < until) {
    const batch = [];
    for (let index = 0; index < BATCH; index += 1) batch.push(check());
    await Promise.all(batch);
    count += BATCH;
  }
  return count / ((performance.now() - started) / 1000);
}

const perSecond = Object.fromEntries(SUBJECTS.map((subject) => [subject, []]));
// The first round warms the JIT and the file system cache and is not reported.
for (let round = 0; round < Number(roundsArgument) + 1; round += 1) {
  const order = [...SUBJECTS.slice(round % SUBJECTS.length), ...SUBJECTS.slice(0, round % SUBJECTS.length)];
  for (const subject of order) {
    const measured = await rate(checks[subject]);
    if (round > 0) perSecond[subject].push(measured);
  }
}
console.log(JSON.stringify({ perSecond }));
