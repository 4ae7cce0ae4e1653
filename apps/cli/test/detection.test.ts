import { describe, expect, it } from "vitest";
import { metadata, project, returnlint } from "./helpers.js";

/** What real metadata files look like when they were misread as v5: a top-level session_id and a contextual status, no summary. */
const implementedWithTopLevelSession = {
  status: "implemented",
  session_id: "sess_1768788507_c30ebc",
  artifacts: [{ type: "implementation", path: "src/x.ts", summary: "The change" }],
  metadata: { agent_type: "general-implementation-agent", delegation_depth: 1, delegation_path: ["orchestrator", "implement", "general-implementation-agent"] },
  completion_data: { completion_summary: "Implemented x." },
};
const v7WithoutSummary = { status: "completed", artifacts: [{ type: "report", path: "r.md", summary: "Report" }], metadata: metadata("researcher") };

function reportOf(args: readonly string[], options: { cwd?: string; input?: string } = {}) {
  const run = returnlint([...args, "-f", "json"], options);
  return JSON.parse(run.stdout) as { format: string; preset: string; results: { ruleId: string; messageId: string; message: string; level: string }[] };
}

describe("format detection follows the evidence, and says why", () => {
  it("a .return-meta.json path is a metadata file, whatever it holds (check FILE, check --task, scan)", () => {
    const root = project({ "specs/5_x/.return-meta.json": implementedWithTopLevelSession, "src/x.ts": "export {};\n" });
    const byFile = reportOf(["check", "specs/5_x/.return-meta.json", "--command", "implement"], { cwd: root });
    expect(byFile.format).toBe("metadata-file");
    // Never v5's "Missing required field: summary" nor "Invalid status: implemented".
    expect(byFile.results.filter((result) => result.level === "fail").map((result) => `${result.ruleId}/${result.messageId}`)).toEqual(["required-fields/missingMetadataField", "session-id/misplaced"]);
    expect(reportOf(["check", "--task", "5", "--command", "implement"], { cwd: root }).format).toBe("metadata-file");
    const scanned = JSON.parse(returnlint(["scan", "-f", "json"], { cwd: root }).stdout) as { format: string }[];
    expect(scanned.map((report) => report.format)).toEqual(["metadata-file"]);
    const transcript = returnlint(["check", "specs/5_x/.return-meta.json"], { cwd: root }).stdout;
    expect(transcript.split("\n")[1]).toBe("[INFO] Format metadata-file (auto): read from specs/5_x/.return-meta.json");
  });

  it("a contextual status is never v5, even from standard input with a top-level session_id", () => {
    for (const status of ["implemented", "in_progress", "researched", "planned"]) {
      const report = reportOf(["check", "-"], { input: JSON.stringify({ ...implementedWithTopLevelSession, status }) });
      expect(report.format, status).toBe("metadata-file");
      expect(report.results.map((result) => result.message).join("\n"), status).not.toMatch(/Missing required field: summary|Invalid status/);
    }
    const transcript = returnlint(["check", "-"], { input: JSON.stringify(implementedWithTopLevelSession) }).stdout;
    expect(transcript.split("\n")[1]).toBe('[INFO] Format metadata-file (auto): status "implemented" is contextual');
  });

  it("a v7 return that forgot its summary is a v7 return missing a field, not a metadata file with a wrong status", () => {
    const report = reportOf(["check", "-"], { input: JSON.stringify(v7WithoutSummary) });
    expect(report.format).toBe("v7");
    const failures = report.results.filter((result) => result.level === "fail").map((result) => result.message);
    expect(failures).toContain("Missing required field: summary");
    expect(failures.join("\n")).not.toContain('use "researched"');
    expect(returnlint(["check", "-"], { input: JSON.stringify(v7WithoutSummary) }).stdout.split("\n")[1]).toBe('[INFO] Format v7 (auto): status "completed" is legacy');
  });

  it("v5 by its top-level session_id; no reason line when a preset was chosen", () => {
    const v5 = { status: "completed", summary: "Done.", session_id: "sess_1", artifacts: [], metadata: { agent_type: "researcher" } };
    expect(returnlint(["check", "-"], { input: JSON.stringify(v5) }).stdout.split("\n")[1]).toBe('[INFO] Format v5 (auto): status "completed" is legacy and session_id is at the top level');
    expect(returnlint(["check", "-", "--preset", "v5"], { input: JSON.stringify(v5) }).stdout).not.toContain("(auto)");
  });
});
