import { spawnSync } from "node:child_process";
import type { DoctorLine } from "./host-doctor.js";

/** How long a probe may take: a hook that takes longer is a problem of its own (hosts time hooks out at 30 to 60 s). */
const PROBE_TIMEOUT_MS = 15_000;

/** An agent no config maps and no name rule reads as a command: the hook lets it through without writing anything. */
export const PROBE_AGENT = "returnlint-doctor-probe";

/**
 * Runs a hook command as the host would (`sh -c` in the project, the host's environment, the
 * payload on standard input) with a payload for an agent the hook leaves alone, and says whether it
 * ran: a command that cannot be found, a file that is not there, a hook that says something instead
 * of letting that agent through. Nothing is written: the hook stops before it keeps any state.
 */
export function probeHookCommand(input: {
  readonly command: string;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly payload: unknown;
  /** What the host expects on standard output when the hook lets the agent through ("" or "{}"). */
  readonly passOutput?: readonly string[];
}): DoctorLine {
  const started = process.hrtime.bigint();
  const run = spawnSync("sh", ["-c", input.command], {
    cwd: input.cwd,
    env: input.env,
    input: JSON.stringify(input.payload),
    encoding: "utf8",
    timeout: PROBE_TIMEOUT_MS,
    killSignal: "SIGKILL",
    maxBuffer: 1024 * 1024,
  });
  const ms = Number((process.hrtime.bigint() - started) / 1_000_000n);
  const said = telling(run.stderr) ?? telling(run.stdout);
  if (run.error !== undefined && (run.error as NodeJS.ErrnoException).code === "ETIMEDOUT") {
    return { level: "fail", text: `the hook command did not finish in ${String(PROBE_TIMEOUT_MS / 1000)} s when tried with a stop of an agent it leaves alone: ${input.command}` };
  }
  if (run.error !== undefined) return { level: "fail", text: `the hook command could not be started (${run.error.message}): ${input.command}` };
  const passed = run.status === 0 && (input.passOutput ?? [""]).includes(run.stdout.trim());
  if (passed) return { level: "ok", text: `the hook command runs from the project (tried with a stop of an agent it leaves alone: exit 0 in ${String(ms)} ms)` };
  return {
    level: "fail",
    text: `the hook command does not run as a hook from the project (tried with a stop of an agent it leaves alone: exit ${String(run.status ?? run.signal)}${said === undefined ? "" : `, "${said}"`}): ${input.command}`,
  };
}

/** The line of a failed run that says why: an error's message (not the stack's first line, which only says where), else the first. */
function telling(text: string | null): string | undefined {
  const lines = (text ?? "")
    .split("\n")
    .map((part) => part.trim())
    .filter((part) => part !== "");
  const line = lines.find((part) => /^(?:\w*Error\b|returnlint\b)|not found|No such file/i.test(part)) ?? lines[0];
  return line === undefined ? undefined : line.length > 300 ? `${line.slice(0, 300)}…` : line;
}
