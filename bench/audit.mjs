// Case 9 (issue 36): what auditing many repositories costs. As a module, the fixtures: a history of
// N versions with a branch 1 % behind its tip (the state of the last audit), and a folder of
// ndjson files to merge. As a process, the audit's floor:
//
//   node bench/audit.mjs floor REPO
//
// the least an audit of REPO's .return-meta.json history does in one Node process: the same
// `git log --raw` walk for the versions, `git cat-file --batch` reading each version's blob, and
// JSON.parse of each. Prints how many versions it parsed, so that the benchmark can check it did
// the work the audit did.
import { Buffer } from "node:buffer";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** Commits the cached audit has not seen: 1 % of the history. */
export const NEW_SHARE = 0.01;

/** Names the commit `NEW_SHARE` of `versions` commits before the tip of `root` as `refs/heads/seen` (one version per commit): what the last audit read. */
export function markSeen(root, versions) {
  const behind = Math.round(versions * NEW_SHARE);
  const run = spawnSync("git", ["--git-dir", root, "update-ref", "refs/heads/seen", `main~${String(behind)}`], { encoding: "utf8" });
  if (run.status !== 0) throw new Error(`git update-ref failed: ${run.stderr}`);
  return { seen: versions - behind, added: behind };
}

/**
 * `count` ndjson files of `linesEach` lines, from the lines of one audit (`ndjson`), each file
 * naming a repository of its own: what a fleet's matrix leaves for `audit merge`.
 */
export function ndjsonFleet(dir, ndjson, count, linesEach) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const lines = ndjson.trimEnd().split("\n");
  const files = [];
  for (let index = 0; index < count; index += 1) {
    const repository = `https://github.com/fleet/repository-${String(index).padStart(4, "0")}`;
    const own = Array.from({ length: linesEach }, (_, line) => {
      const value = JSON.parse(lines[(index * linesEach + line) % lines.length]);
      return JSON.stringify({ ...value, repository });
    });
    const file = path.join(dir, `audit-${String(index).padStart(4, "0")}.ndjson`);
    writeFileSync(file, `${own.join("\n")}\n`);
    files.push(file);
  }
  return files;
}

/** The floor: the versions' blobs, as the audit's walk finds them, read with one `git cat-file --batch` and parsed. */
async function floor(root) {
  const log = spawnSync(
    "git",
    ["--git-dir", root, "log", "--reverse", "--topo-order", "-m", "--raw", "-z", "--no-abbrev", "--no-renames", "--format=%x1e%H", "main", "--", ":(glob)**/.return-meta.json"],
    { encoding: "buffer", maxBuffer: 1024 * 1024 * 1024 },
  );
  if (log.status !== 0) throw new Error(`git log failed: ${log.stderr.toString()}`);
  const blobs = [];
  const seen = new Set();
  for (const token of log.stdout.toString("latin1").split("\0")) {
    const raw = /^:\d+ 100\d+ [0-9a-f]+ ([0-9a-f]+) [AMT]/.exec(token.replace(/^\n/, ""));
    if (raw !== null && !seen.has(raw[1])) {
      seen.add(raw[1]);
      blobs.push(raw[1]);
    }
  }
  const batch = spawn("git", ["--git-dir", root, "cat-file", "--batch"], { stdio: ["pipe", "pipe", "inherit"] });
  batch.stdin.end(`${blobs.join("\n")}\n`);
  let parsed = 0;
  let pending = Buffer.alloc(0);
  for await (const chunk of batch.stdout) {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    for (;;) {
      const newline = pending.indexOf(10);
      if (newline === -1) break;
      const size = Number(pending.toString("latin1", 0, newline).split(" ")[2]);
      if (pending.length < newline + 1 + size + 1) break;
      JSON.parse(pending.toString("utf8", newline + 1, newline + 1 + size));
      parsed += 1;
      pending = pending.subarray(newline + 1 + size + 1);
    }
  }
  process.stdout.write(`${JSON.stringify({ versions: parsed })}\n`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [mode, root] = process.argv.slice(2);
  if (mode !== "floor" || root === undefined || !existsSync(root)) {
    process.stderr.write("usage: node bench/audit.mjs floor REPO\n");
    process.exit(2);
  }
  await floor(root);
}
