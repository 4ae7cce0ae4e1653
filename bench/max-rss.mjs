// Preloaded (`node --import`) into a timed Node process when /usr/bin/time is missing:
// reports the process's own peak resident memory on standard error as it exits.
import { writeSync } from "node:fs";

process.on("exit", () => {
  writeSync(2, `returnlint-bench-max-rss-kb=${String(process.resourceUsage().maxRSS)}\n`);
});
