// Case 4, run in a child process of its own: the library API validating one small
// return over and over, in process. Prints one JSON line: returns per second per round.
//
// Usage: node bench/api.mjs ROOT CONFIG_FILE|- SECONDS_PER_ROUND ROUNDS
import { readFileSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";

const [root, configFile, secondsArgument, roundsArgument] = process.argv.slice(2);
const { loadReturnlintConfig, validate } = await import(new URL("../apps/cli/dist/index.js", import.meta.url).href);

const text = readFileSync(path.join(root, "return.json"), "utf8");
const config = await loadReturnlintConfig({ cwd: root, ...(configFile === "-" ? {} : { configFile }) });
const options = { cwd: root, root, config, command: "research", sessionId: "sess_1735460684_a1b2c3" };

// Many returns in flight at once, as an orchestrator or a server validating a stream of them would.
const BATCH = 256;

const first = await validate(text, options);
if (!first.ok) throw new Error(`the benchmark return does not pass: ${JSON.stringify(first.results.filter((r) => r.level === "fail"))}`);
const artifactChecks = first.results.filter((result) => result.ruleId === "artifacts" && result.messageId === "exists").length;

const perSecond = [];
for (let round = 0; round < Number(roundsArgument) + 1; round += 1) {
  const until = performance.now() + Number(secondsArgument) * 1000;
  const started = performance.now();
  let count = 0;
  while (performance.now() < until) {
    const batch = [];
    for (let index = 0; index < BATCH; index += 1) batch.push(validate(text, options));
    await Promise.all(batch);
    count += BATCH;
  }
  // The first round warms the JIT and the file system cache; it is not reported.
  if (round > 0) perSecond.push(count / ((performance.now() - started) / 1000));
}
console.log(JSON.stringify({ perSecond, artifactChecks }));
