import path from "node:path";
import { EXIT, FileRefusedError, ReturnlintError, readRegularFile, relativeInside } from "@returnlint/core";
import { mergeAudits, mergedVerdict, renderMerged, type MergeFormat } from "@returnlint/audit";
import { parseCommandLine } from "../args.js";
import { writeOutput } from "../atomic.js";
import type { CommandIo } from "./io.js";

export const AUDIT_MERGE_HELP = `Usage: returnlint audit merge FILE... [options]

Builds one report from the audits of many repositories: each FILE is what
"returnlint audit --format ndjson" wrote (one line per version, each naming
its repository). Prints a table of repositories (returns, failed, phantom
work and its rate), the agents over all, and each repository's agents. A
version listed twice (an audit run again) counts once.

Options:
  -f, --format NAME    stylish (default), json (one document) or html (one
                       self-contained page)
  -o, --output FILE    write the report to FILE instead of standard output
  -h, --help           show this help

Exit codes: 0 the report was made,
            2 a FILE missing or unreadable, or a line that is not an audit's.

Examples:
  returnlint audit ~/src/a --format ndjson -o a.ndjson
  returnlint audit ~/src/b --format ndjson -o b.ndjson
  returnlint audit merge a.ndjson b.ndjson --format html -o fleet.html
`;

const OPTIONS = {
  format: { type: "string", short: "f" },
  output: { type: "string", short: "o" },
  help: { type: "boolean", short: "h" },
} as const;

const FORMATS: readonly MergeFormat[] = ["stylish", "json", "html"];

/** The largest ndjson file read: an audit of a million versions is a few hundred megabytes. */
const MAX_FILE_BYTES = 1024 * 1024 * 1024;

export async function auditMerge(argv: readonly string[], io: CommandIo): Promise<number> {
  const { values, positionals } = parseCommandLine("audit merge", argv, OPTIONS);
  if (values.help === true) {
    io.stdout(AUDIT_MERGE_HELP);
    return EXIT.passed;
  }
  const format = (values.format ?? "stylish") as MergeFormat;
  if (!(FORMATS as readonly string[]).includes(format)) {
    throw new ReturnlintError("USAGE", `Unknown format "${format}" for "returnlint audit merge"; available: ${FORMATS.join(", ")}.`);
  }
  if (positionals.length === 0) throw new ReturnlintError("USAGE", 'returnlint audit merge needs the files "returnlint audit --format ndjson" wrote; received none. Run "returnlint audit merge --help".');
  if (values.output === "") throw new ReturnlintError("USAGE", "--output needs a file name; received an empty one.");

  const files = positionals.map((name) => ({ name, text: readAudit(path.resolve(io.cwd, name), name) }));
  const merged = mergeAudits(files);
  const text = await renderMerged(merged, format, new Date());
  if (values.output === undefined) {
    io.stdout(text);
  } else {
    const file = path.resolve(io.cwd, values.output);
    writeOutput(file, text);
    const relative = relativeInside(io.cwd, file);
    io.stdout(`Wrote ${relative === undefined || relative === "" ? file : relative} (${format}).\n${mergedVerdict(merged)}\n`);
  }
  return EXIT.passed;
}

function readAudit(file: string, shown: string): string {
  try {
    return readRegularFile(file, { maxBytes: MAX_FILE_BYTES }).bytes.toString("utf8");
  } catch (error) {
    if (!(error instanceof FileRefusedError)) throw error;
    throw new ReturnlintError("USAGE", `Cannot read ${shown}: ${error.reason}.`);
  }
}
