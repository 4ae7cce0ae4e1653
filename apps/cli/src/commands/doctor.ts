import { EXIT, isReturnlintError, ReturnlintError, type LoadedConfig } from "@returnlint/core";
import { parseCommandLine } from "../args.js";
import { loadReturnlintConfig } from "../host.js";
import { DOCTORS } from "../doctor/index.js";
import type { DoctorContext, DoctorLine, HostDoctor } from "../doctor/host-doctor.js";
import type { CommandIo } from "./io.js";

export const DOCTOR_HELP = `Usage: returnlint doctor [--host NAME] [--format text|json]

Says whether each host set up in this project will really run returnlint when a
subagent stops: what to run when "nothing happens". For each host: is the hook
registered for the right event, does its matcher take the project's agents
(named), does its command run from the project (doctor runs it once, with a
stop of an agent the hook leaves alone: it writes nothing, but a vendored
copy's code cache on its first run, as any stop would), is it trusted
where the host skips untrusted hooks without a word, would a built-in agent be
sent back. Each line is a sentence: ✓ fine, ! worth knowing, ✗ cannot work.

Options:
  --host NAME          check this host, set up or not: HOSTS
                       (default: every host whose settings the project has)
  --format FORMAT      text (default) or json
  -h, --help           show this help

Exit codes: 0 every checked host can work, 1 a line says one cannot (or no host
is set up), 2 usage error.
`;

const OPTIONS = {
  host: { type: "string" },
  format: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

const MARKS = { ok: "✓", warn: "!", fail: "✗" } as const;

export async function doctor(argv: readonly string[], io: CommandIo): Promise<number> {
  const { values, positionals } = parseCommandLine("doctor", argv, OPTIONS);
  const names = DOCTORS.map((one) => one.host);
  if (values.help === true) {
    io.stdout(DOCTOR_HELP.replace("HOSTS", names.join(", ")));
    return EXIT.passed;
  }
  if (positionals.length > 0) throw new ReturnlintError("USAGE", `returnlint doctor takes no arguments; received "${positionals.join(" ")}". It checks the project in the current directory.`);
  const format = values.format ?? "text";
  if (format !== "text" && format !== "json") throw new ReturnlintError("USAGE", `--format must be text or json; received "${format}".`);
  const chosen = values.host === undefined ? undefined : DOCTORS.find((one) => one.host === values.host);
  if (values.host !== undefined && chosen === undefined) throw new ReturnlintError("USAGE", `--host must be one of ${names.join(", ")}; received "${values.host}".`);

  const context = await contextFor(io);
  const hosts: readonly HostDoctor[] = chosen === undefined ? DOCTORS.filter((one) => one.present(context)) : [chosen];
  const reports = await Promise.all(hosts.map(async (one) => ({ host: one.host, title: one.title, lines: await one.check(context) })));
  const none: DoctorLine | undefined =
    reports.length === 0 ? { level: "fail", text: `no host is set up in ${context.root}: run "returnlint init HOST" (${names.join(", ")}), or name one with --host` } : undefined;
  const ok = none === undefined && reports.every((report) => report.lines.every((line) => line.level !== "fail"));
  if (format === "json") {
    io.stdout(`${JSON.stringify({ ok, root: context.root, hosts: reports, ...(none === undefined ? {} : { problem: none.text }) }, null, 2)}\n`);
  } else {
    const text = reports.map((report) => `${report.title} (returnlint hook ${report.host})\n${report.lines.map((line) => `  ${MARKS[line.level]} ${line.text}\n`).join("")}`);
    if (none !== undefined) text.push(`${MARKS.fail} ${none.text}\n`);
    const failing = reports.filter((report) => report.lines.some((line) => line.level === "fail")).map((report) => report.title);
    if (ok) text.push("Every host checked can run returnlint.\n");
    else if (failing.length > 0) text.push(`${failing.join(", ")}: cannot run returnlint as set up (the ✗ lines say why).\n`);
    io.stdout(text.join("\n"));
  }
  return ok ? EXIT.passed : EXIT.failed;
}

/** The project as every host's checks see it: its root, its config (or why it cannot be loaded), the environment. */
async function contextFor(io: CommandIo): Promise<DoctorContext> {
  let config: LoadedConfig | undefined;
  let configError: string | undefined;
  try {
    config = await loadReturnlintConfig({ cwd: io.cwd });
  } catch (error) {
    if (!isReturnlintError(error)) throw error;
    configError = [error.message.replace(/:$/, ""), error.problems.join("; ")].filter((part) => part !== "").join(": ");
  }
  return { root: io.cwd, config, ...(configError === undefined ? {} : { configError }), env: io.env };
}
