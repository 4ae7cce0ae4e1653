import { formatterInput, reportObject, type FormatterInput } from "@returnlint/api";
import type { FormatterLoader } from "../formatters/index.js";
import type { Outcome } from "./check-one.js";
import { failureLine, renderSummary } from "./stylish.js";
import type { Summary } from "./summary.js";

/**
 * One `--format` of a scan, fed each return as it is checked: `add` gives the text it can write at
 * once (stylish's failure line, json's object: a large scan streams), `end` the rest. A CI format
 * (sarif, junit, github) is one document for every return: `check`'s formatter, handed them all at the end.
 */
export interface ScanReport {
  add(outcome: Outcome): string;
  end(summary: Summary): string | Promise<string>;
}

export interface ScanReportOptions {
  readonly cwd: string;
  readonly dir: string;
  readonly quiet: boolean;
  readonly color: boolean;
  readonly maxWarnings?: number;
}

export function scanReport(format: string, load: FormatterLoader, options: ScanReportOptions): ScanReport {
  if (format === "stylish") return stylishReport(options);
  if (format === "json") return jsonReport(options);
  return documentReport(load, options);
}

/** A line per failing return, then the summary's tables and verdict. */
function stylishReport({ dir, quiet, color, maxWarnings }: ScanReportOptions): ScanReport {
  return {
    add: (outcome) => ("unreadable" in outcome || outcome.ok ? "" : failureLine(outcome.report, outcome.source.name, color, maxWarnings)),
    end: (summary) => renderSummary(summary, dir, quiet, color),
  };
}

/** One JSON array, one report per line: the object `check --format json` prints, one per return. */
function jsonReport({ quiet }: ScanReportOptions): ScanReport {
  let printed = 0;
  return {
    add(outcome) {
      if ("unreadable" in outcome) return "";
      const { ok, report, facts, source } = outcome;
      if (quiet && ok) return "";
      const printedReport = JSON.stringify(reportObject(report, source.name, { ok, quiet, facts, ...(source.task === undefined ? {} : { task: source.task }) }));
      return `${printed++ === 0 ? "[\n" : ",\n"}${printedReport}`;
    },
    end: () => (printed === 0 ? "[]\n" : "\n]\n"),
  };
}

function documentReport(load: FormatterLoader, { cwd, quiet, maxWarnings }: ScanReportOptions): ScanReport {
  const inputs: FormatterInput[] = [];
  return {
    add(outcome) {
      if (!("unreadable" in outcome)) inputs.push({ ...formatterInput(outcome, { cwd, quiet, ...(maxWarnings === undefined ? {} : { maxWarnings }) }), color: false });
      return "";
    },
    end: async () => (await load())(inputs, { several: true, command: "scan" }),
  };
}
