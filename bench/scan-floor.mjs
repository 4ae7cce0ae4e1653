// Case 3's floor, run as a process of its own and timed like `returnlint scan`: the least
// any scanner of these projects does in one Node process. It walks the folders below
// specs/ (one readdir each, symlinks not followed), reads and parses every
// .return-meta.json, and stats each artifact the return names. Prints how many returns
// and artifacts it saw, so that the benchmark can check it did the same work as scan.
//
// --contained: each artifact is looked up as scan's file view looks it up, so that a symlink
// leading out of the root is told from a file inside it whatever is swapped meanwhile (core's
// safe-fs.ts, `openPath`): a handle that reads nothing (O_PATH), fstat, the kernel's word on where
// it is (readlink of /proc/self/fd/N), close; realpath then stat where /proc is not mounted. Not a
// target's floor: it says what that guarantee costs beside a plain stat (BENCHMARKS.md, Case 3).
//
// Usage: node bench/scan-floor.mjs [--contained] [DIR]   (DIR: the project root, default the cwd)
import { closeSync, existsSync, fstatSync, openSync, readFileSync, readdirSync, readlinkSync, realpathSync, statSync } from "node:fs";
import path from "node:path";

const args = process.argv.slice(2);
const contained = args.includes("--contained");
const root = path.resolve(args.find((arg) => arg !== "--contained") ?? ".");
const realRoot = contained ? realpathSync.native(root) + path.sep : "";
/** Linux's O_PATH, which fs.constants does not name. */
const O_PATH = 0o10000000;
const throughProc = process.platform === "linux" && existsSync("/proc/self/fd");

/** Whether `file` is a regular file inside the root, judged as scan judges it. */
function regularFileInside(file) {
  if (!throughProc) {
    const real = realpathSync.native(file);
    return real.startsWith(realRoot) && statSync(real).isFile();
  }
  const fd = openSync(file, O_PATH);
  try {
    return fstatSync(fd).isFile() && readlinkSync(`/proc/self/fd/${String(fd)}`).startsWith(realRoot);
  } finally {
    closeSync(fd);
  }
}

const isArtifact = contained ? regularFileInside : (file) => statSync(file).isFile();
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
        if (isArtifact(path.join(root, artifact.path))) artifacts += 1;
      }
    }
  }
}
process.stdout.write(`${JSON.stringify({ returns, artifacts })}\n`);
