// Whether standard output is a terminal decides the colours. Asking node:tty loads Node's stream and
// net modules (several milliseconds of every run), so the bin asks it only for a character device
// that may be a terminal: never for a pipe, a file or /dev/null, where scripts send a check whose
// exit code is all they want (`returnlint check x >/dev/null && …`).
import { spawnSync } from "node:child_process";
import { closeSync, existsSync, openSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { EXAMPLES, project } from "./helpers.js";

const LOADER = fileURLToPath(new URL("../dist/returnlint.cjs", import.meta.url));
const EXAMPLE = path.join(EXAMPLES, "valid-v7");
/** The environment of a user's shell: no NO_COLOR, no FORCE_COLOR, a terminal type. */
const SHELL_ENV = Object.fromEntries(Object.entries(process.env).filter(([name]) => !["NO_COLOR", "FORCE_COLOR", "NODE_OPTIONS"].includes(name)));

/**
 * Runs `returnlint check return.json` in the valid example with standard output and error on
 * /dev/null, and gives its exit code and the built-in modules the process loaded (written at exit
 * by a module it preloads).
 */
function checkIntoDevNull(): { status: number | null; modules: string[] } {
  const folder = project();
  const list = path.join(folder, "modules.txt");
  const preload = path.join(folder, "list-modules.cjs");
  writeFileSync(preload, `process.on("exit", () => require("node:fs").writeFileSync(${JSON.stringify(list)}, process.moduleLoadList.join("\\n")));\n`);
  const devNull = openSync("/dev/null", "w");
  try {
    const run = spawnSync(process.execPath, ["--require", preload, LOADER, "check", "return.json"], {
      cwd: EXAMPLE,
      env: { ...SHELL_ENV, TERM: "xterm-256color" },
      stdio: ["ignore", devNull, devNull],
      timeout: 20_000,
    });
    return { status: run.status, modules: existsSync(list) ? readFileSync(list, "utf8").split("\n") : [] };
  } finally {
    closeSync(devNull);
  }
}

describe("standard output's terminal", () => {
  it.skipIf(!existsSync("/dev/null"))("is never asked of node:tty when the output goes to /dev/null: the check exits 0 without loading it", () => {
    const { status, modules } = checkIntoDevNull();
    expect(status).toBe(0);
    // The preload saw the run through: Node's own modules and the bin's are listed.
    expect(modules).toContain("NativeModule vm");
    expect(modules).not.toContain("NativeModule tty");
    expect(modules).not.toContain("NativeModule net");
  });

  // util-linux's `script` gives the run a pseudo-terminal, as a user's shell does.
  const script = ["/usr/bin/script", "/bin/script"].find((file) => existsSync(file));
  it.skipIf(script === undefined)("is still seen on a real terminal: the verdicts are coloured", () => {
    const run = spawnSync(script ?? "script", ["-qec", `"${process.execPath}" "${LOADER}" check return.json`, "/dev/null"], {
      cwd: EXAMPLE,
      env: { ...SHELL_ENV, TERM: "xterm-256color" },
      encoding: "utf8",
      timeout: 20_000,
    });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("\u001b[32m[PASS]\u001b[39m Return is valid JSON");
  });
});
