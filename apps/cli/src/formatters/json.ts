import type { Formatter } from "./types.js";

/** DESIGN.md's contract: one JSON object, the verdict first. */
export const json: Formatter = ({ report, source, quiet }) => {
  const results = quiet ? report.results.filter((result) => result.level === "fail") : report.results;
  return `${JSON.stringify({
    ok: report.ok,
    command: report.command,
    format: report.format,
    status: report.status,
    errorCount: report.errorCount,
    warningCount: report.warningCount,
    source,
    agent: report.agent,
    preset: report.preset,
    origin: report.origin,
    results,
  })}\n`;
};
