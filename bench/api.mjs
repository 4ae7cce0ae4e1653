// Case 4, run in a child process of its own: the library API validating one small
// return over and over, in process. Prints one JSON line: returns per second per round.
//
// Usage: node bench/api.mjs ROOT CONFIG_FILE|-|--floor-parse|--floor-files SECONDS_PER_ROUND ROUNDS
//
// The two floors are what no validator of this return can avoid, timed the same way:
// --floor-parse is JSON.parse of the return alone; --floor-files adds, for each of its
// artifacts, the realpath and the stat that telling "a regular file inside the root"
// from a symlink leading out needs at the least.
import { readFileSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";

const [root, configFile, secondsArgument, roundsArgument] = process.argv.slice(2);
const { loadReturnlintConfig, validate } = await import("@returnlint/api");

const text = readFileSync(path.join(root, "return.json"), "utf8");
// Many returns in flight at once, as an orchestrator or a server validating a stream of them would.
const BATCH = 256;

/** Returns per second of `batch` (one call does BATCH returns), per round; the first round warms the JIT and the file system cache and is not reported. */
async function rates(batch) {
  const perSecond = [];
  for (let round = 0; round < Number(roundsArgument) + 1; round += 1) {
    const until = performance.now() + Number(secondsArgument) * 1000;
    const started = performance.now();
    let count = 0;
    while (performance.now() < until) {
      await batch();
      count += BATCH;
    }
    if (round > 0) perSecond.push(count / ((performance.now() - started) / 1000));
  }
  return perSecond;
}

if (configFile === "--floor-parse" || configFile === "--floor-files") {
  const withFiles = configFile === "--floor-files";
  const floor = () => {
    const value = JSON.parse(text);
    if (withFiles) for (const artifact of value.artifacts) statSync(realpathSync.native(path.join(root, artifact.path)));
    return value;
  };
  const perSecond = await rates(() => {
    for (let index = 0; index < BATCH; index += 1) floor();
  });
  console.log(JSON.stringify({ perSecond, artifactChecks: withFiles ? JSON.parse(text).artifacts.length : 0 }));
} else {
  const config = await loadReturnlintConfig({ cwd: root, ...(configFile === "-" ? {} : { configFile }) });
  const options = { cwd: root, root, config, command: "research", sessionId: "sess_1735460684_a1b2c3" };
  const first = await validate(text, options);
  if (!first.ok) throw new Error(`the benchmark return does not pass: ${JSON.stringify(first.results.filter((r) => r.level === "fail"))}`);
  const artifactChecks = first.results.filter((result) => result.ruleId === "artifacts" && result.messageId === "exists").length;
  const perSecond = await rates(() => {
    const batch = [];
    for (let index = 0; index < BATCH; index += 1) batch.push(validate(text, options));
    return Promise.all(batch);
  });
  console.log(JSON.stringify({ perSecond, artifactChecks }));
}
