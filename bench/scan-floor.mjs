// Case 3's floor, run as a process of its own and timed like `returnlint scan`: the least
// any scanner of these projects does in one Node process. It walks the folders below
// specs/ (one readdir each, symlinks not followed), reads and parses every
// .return-meta.json, and stats each artifact the return names. Prints how many returns
// and artifacts it saw, so that the benchmark can check it did the same work as scan.
//
// Usage: node bench/scan-floor.mjs [DIR]   (DIR: the project root, default the cwd)
import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

const root = path.resolve(process.argv[2] ?? ".");
let returns = 0;
let artifacts = 0;
const pending = [path.join(root, "specs")];
for (let dir = pending.pop(); dir !== undefined; dir = pending.pop()) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const child = path.join(dir, entry.name);
    if (entry.isDirectory()) pending.push(child);
    else if (entry.isFile() && entry.name === ".return-meta.json") {
      const value = JSON.parse(readFileSync(child, "utf8"));
      returns += 1;
      for (const artifact of Array.isArray(value.artifacts) ? value.artifacts : []) {
        if (statSync(path.join(root, artifact.path)).isFile()) artifacts += 1;
      }
    }
  }
}
process.stdout.write(`${JSON.stringify({ returns, artifacts })}\n`);
