import path from "node:path";
import { EXIT, ReturnlintError, relativeInside } from "@returnlint/core";
import { auditCacheDir, auditNotices, auditVerdict, renderAudit, runAudit, type AuditFormat, type AuditProgress, type AuditRun } from "@returnlint/audit";
import { integerOption, parseCommandLine } from "../args.js";
import { writeOutput } from "../atomic.js";
import { pairOutputs } from "../formatters/output.js";
import { AUDIT_CI_FORMATS, renderAuditCi, type AuditCiFormat } from "../formatters/audit.js";
import { hostImporter } from "../host.js";
import type { CommandIo } from "./io.js";
import { returnlintVersion } from "../version.js";

export const AUDIT_HELP = `Usage: returnlint audit [REPO] [options]
       returnlint audit merge FILE... [options]   (one report of many audits:
                                                  "returnlint audit merge --help")

Audits a repository's history: every committed version of every
.return-meta.json (any depth, archived task folders included) is validated
against the tree of the commit that introduced it. An artifact exists when
that commit holds it as a non-empty file (not a folder, not a submodule, not a
symlink leading out of the repository). An in_progress version that a later
version of its file replaced is early metadata, written while the agent
worked: it is not judged; the last version of a file is. Prints returns, failures and phantom
work (a success status whose artifacts do not all exist) per agent, command,
status and month, failures by rule, and the worst returns.

REPO is a clone, a folder in one, or a bare repository (default: .).

What to audit:
  --since DATE         only versions committed on or after DATE (author date, UTC):
                       2025-03-01, 2025-03, 2025, or 2025-03-01T12:00:00Z
  --until DATE         only versions committed on or before DATE (a day or month
                       counts whole: --until 2025-03 ends on March 31)
  --rev REVISION       walk the history of REVISION (default: HEAD)

Configuration:
  -c, --config FILE    use FILE instead of the config committed at the tip of the
                       history (returnlint.config.* or package.json's "returnlint"):
                       a config only in the working tree is applied only this way
  --preset NAME        v5, v7, metadata-file, handoff, multi-task, strict, auto, or a returnlint-preset-* package
  --trust-repo-config  let the committed config run code: a returnlint.config.mjs/.js,
                       and the rule and preset modules a config names. Without it
                       the repository is untrusted: its config is read as data, and
                       one that is or names code is not applied (built-in presets
                       instead); the Config line says which

Output:
  -f, --format NAME    stylish (default), json (one document), ndjson (one line
                       per version, for audit merge and jq), html (one
                       self-contained page with charts), or for CI: sarif
                       (GitHub code scanning), junit or github (annotations);
                       repeat it for several reports of one audit
  -o, --output FILE    write the --format at the same position to FILE (the
                       first -o takes the first -f, …); formats without a file
                       print to standard output
  --max-phantom N      exit 1 when more than N returns are phantom work (for CI)
  -h, --help           show this help

Cache:
  Each version's result is kept in the user's cache folder
  ($RETURNLINT_CACHE_DIR/audit, else ~/.cache/returnlint/audit), keyed on its
  blob, its commit's tree, its path and date, the config, the rules and the
  repository's folder: a second audit lints only the versions it has not seen.
  --cache-dir DIR      keep it in DIR instead (a folder CI saves between runs)
  --no-cache           lint every version, and keep nothing

A progress line is drawn on standard error when it is a terminal.

Exit codes: 0 the audit ran (whatever it found, unless --max-phantom says otherwise),
            1 more phantom work than --max-phantom allows,
            2 not a git repository, git missing, bad dates or options, an invalid
              config, a rule that crashed, or a version that could not be read.

Examples:
  returnlint audit
  returnlint audit ~/src/project --since 2025-01 --format html -o audit.html
  returnlint audit /srv/git/project.git --format json | jq '.summary.byAgent'
  returnlint audit --format ndjson -o project.ndjson && returnlint audit merge *.ndjson
  returnlint audit --since 2025-06-01 --max-phantom 0      # CI: no new phantom work
`;

const OPTIONS = {
  since: { type: "string" },
  until: { type: "string" },
  rev: { type: "string" },
  config: { type: "string", short: "c" },
  preset: { type: "string" },
  "trust-repo-config": { type: "boolean" },
  format: { type: "string", short: "f", multiple: true },
  output: { type: "string", short: "o", multiple: true },
  "max-phantom": { type: "string" },
  "cache-dir": { type: "string" },
  "no-cache": { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

const FORMATS: readonly string[] = ["stylish", "json", "ndjson", "html", ...AUDIT_CI_FORMATS];
const PROGRESS_INTERVAL_MS = 100;

export async function audit(argv: readonly string[], io: CommandIo): Promise<number> {
  if (argv[0] === "merge") return (await import("./audit-merge.js")).auditMerge(argv.slice(1), io);
  const { values, positionals } = parseCommandLine("audit", argv, OPTIONS);
  if (values.help === true) {
    io.stdout(AUDIT_HELP);
    return EXIT.passed;
  }
  if (positionals.length > 1) {
    throw new ReturnlintError("USAGE", `returnlint audit takes one repository; received ${String(positionals.length)}. Run "returnlint audit --help" for the options.`);
  }
  const outputs = pairOutputs(values.format ?? [], values.output ?? [], io.cwd, (format) => {
    if (!FORMATS.includes(format)) throw new ReturnlintError("USAGE", `Unknown format "${format}" for "returnlint audit"; available: ${FORMATS.join(", ")}.`);
  });
  const since = dateOption("since", values.since, "start");
  const until = dateOption("until", values.until, "end");
  if (since !== undefined && until !== undefined && since > until) {
    throw new ReturnlintError("USAGE", `--since ${values.since ?? ""} is after --until ${values.until ?? ""}: no commit can be in that range.`);
  }
  const maxPhantom = integerOption("max-phantom", values["max-phantom"]);
  if (values["cache-dir"] !== undefined && values["no-cache"] === true) throw new ReturnlintError("USAGE", "Pass either --cache-dir or --no-cache, not both.");
  if (values["cache-dir"] === "") throw new ReturnlintError("USAGE", "--cache-dir needs a folder; received an empty name.");
  const cacheDir = values["cache-dir"] === undefined ? auditCacheDir(io.env) : path.resolve(io.cwd, values["cache-dir"]);

  const run = await runAudit({
    repo: positionals[0] ?? ".",
    cwd: io.cwd,
    env: io.env,
    rev: values.rev,
    since,
    until,
    config: values.config,
    preset: values.preset,
    importer: hostImporter(),
    trustRepoConfig: values["trust-repo-config"] === true,
    progress: new Progress(io, io.stderrIsTTY === true),
    ...(values["no-cache"] === true ? {} : { cache: { dir: cacheDir, version: returnlintVersion() } }),
  });
  const { summary, unreadable } = run.document;
  const over = maxPhantom !== undefined && summary.phantom > maxPhantom;
  const verdict = auditVerdict(run.document, maxPhantom);
  const rendered = await Promise.all(outputs.map(async ({ format, file }) => ({ format, file, text: await render(run, format, verdict) })));

  for (const notice of [...auditNotices(run.document), ...(run.cacheProblem === null ? [] : [run.cacheProblem])]) io.stderr(`returnlint: ${notice}\n`);
  for (const { file, text } of rendered) if (file !== undefined) writeOutput(file, text);
  for (const { file, text } of rendered) if (file === undefined) io.stdout(text);
  // Every report in a file: standard output says where they went, and the verdict.
  if (rendered.every(({ file }) => file !== undefined)) {
    for (const { format, file } of rendered) io.stdout(`Wrote ${display(io.cwd, file ?? "")} (${format}).\n`);
    io.stdout(`${verdict}\n`);
  }
  if (unreadable.length > 0 || summary.internalErrors > 0) return EXIT.error;
  return over ? EXIT.failed : EXIT.passed;
}

function render(run: AuditRun, format: string, verdict: string): Promise<string> | string {
  return (AUDIT_CI_FORMATS as readonly string[]).includes(format) ? renderAuditCi(run.document, format as AuditCiFormat) : renderAudit(run, format as AuditFormat, verdict);
}

/** A path relative to the current directory when it is below it, else absolute. */
function display(cwd: string, file: string): string {
  const relative = relativeInside(cwd, file);
  return relative === undefined || relative === "" ? file : relative;
}

const DAY = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * `--since`/`--until`: a year, a month, a day (UTC), or a date and time. A day, month
 * or year given to --until counts whole: its last millisecond is the bound.
 */
export function dateOption(name: string, value: string | undefined, bound: "start" | "end"): Date | undefined {
  if (value === undefined) return undefined;
  const given = value.trim();
  const bad = () =>
    new ReturnlintError("USAGE", `--${name} must be a date: 2025-03-01, 2025-03, 2025, or a date and time such as 2025-03-01T12:00:00Z; received "${value}".`);
  const day = DAY.exec(given);
  if (day !== null) {
    const [year, month, date] = [Number(day[1]), day[2] === undefined ? undefined : Number(day[2]), day[3] === undefined ? undefined : Number(day[3])];
    const start = new Date(Date.UTC(year, (month ?? 1) - 1, date ?? 1));
    // Date.UTC rolls 2025-02-30 over into March: a date that does not round-trip does not exist.
    if (start.getUTCFullYear() !== year || start.getUTCMonth() !== (month ?? 1) - 1 || start.getUTCDate() !== (date ?? 1)) throw bad();
    if (bound === "start") return start;
    const next = new Date(start);
    if (date !== undefined) next.setUTCDate(next.getUTCDate() + 1);
    else if (month !== undefined) next.setUTCMonth(next.getUTCMonth() + 1);
    else next.setUTCFullYear(next.getUTCFullYear() + 1);
    return new Date(next.getTime() - 1);
  }
  if (!DATE_TIME.test(given)) throw bad();
  // A time without a zone is UTC, as every date here is.
  const parsed = Date.parse(/(?:Z|[+-]\d{2}:?\d{2})$/i.test(given) ? given : `${given}Z`);
  if (Number.isNaN(parsed)) throw bad();
  return new Date(parsed);
}

/** One line on standard error, redrawn in place; only on a terminal. */
class Progress implements AuditProgress {
  private last = 0;
  constructor(
    private readonly io: CommandIo,
    private readonly enabled: boolean,
  ) {}

  show(line: string): void {
    if (this.enabled) this.io.stderr(`\r\u001b[K${line}`);
  }

  /** Redraws the line at most every PROGRESS_INTERVAL_MS; `line` is computed only then. */
  tick(line: () => string): void {
    if (!this.enabled) return;
    const now = performance.now();
    if (now - this.last < PROGRESS_INTERVAL_MS) return;
    this.last = now;
    this.show(line());
  }

  done(line: string): void {
    if (!this.enabled) return;
    this.io.stderr(`\r\u001b[K${line}\n`);
  }
}
