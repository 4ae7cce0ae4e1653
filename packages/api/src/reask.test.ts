import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";
import type { Result } from "@returnlint/core";
import { instructedFindings, reaskLine } from "./reask.js";

const INSTRUCTED = instructedFindings();
import { loadBuiltinRules } from "./registry.js";

const BUILTIN_RULES = await loadBuiltinRules();
import { validate, type ValidateOptions } from "./validate.js";

const root = mkdtempSync(path.join(tmpdir(), "returnlint-reask-"));
mkdirSync(path.join(root, "reports", "folder"), { recursive: true });
writeFileSync(path.join(root, "reports", "empty.md"), "");
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

const metadata = { session_id: "sess_1", agent_type: "researcher", delegation_depth: 1, delegation_path: ["orchestrator", "researcher"] };
const ERROR = { type: "execution", message: "m", recoverable: true, recommendation: "r" };
const v7 = (fields: Record<string, unknown>) => JSON.stringify({ status: "completed", summary: "Done.", artifacts: [], metadata, ...fields });

/** Returns that break each built-in check the reask lines know, with what the caller knew. */
const RETURNS: readonly [string, string, ValidateOptions][] = [
  ["prose", "I did the research.", {}],
  ["empty", "", {}],
  ["syntax", '{"status": "completed",,}', {}],
  ["trailing", '{"status": "completed"} and more', {}],
  ["not an object", "[1, 2]", {}],
  ["no metadata file", "", { missingFile: true, source: "specs/7_x/.return-meta.json", preset: "metadata-file" }],
  ["missing and mistyped fields", JSON.stringify({ summary: 5, artifacts: [], metadata: { ...metadata, agent_type: undefined } }), {}],
  ["a status in the wrong case", v7({ status: "Completed" }), {}],
  ["a status nothing resembles", v7({ status: "zzzzzzzz" }), {}],
  ["a planned return to /research", v7({ status: "planned" }), { preset: "metadata-file", command: "research" }],
  ["a status that is a number", v7({ status: 1 }), {}],
  ["another session", v7({}), { sessionId: "sess_2" }],
  ["a session id where v7 does not keep it", JSON.stringify({ status: "blocked", summary: "s", artifacts: [], errors: [ERROR], session_id: "sess_1", metadata: { ...metadata, session_id: undefined } }), {}],
  ["phantom work", v7({}), {}],
  [
    "every kind of bad artifact",
    v7({
      artifacts: [
        "reports/bare.md",
        7,
        { type: "report" },
        { type: "report", path: 3 },
        { type: "report", path: "/etc/passwd" },
        { type: "report", path: "../outside.md" },
        { type: "report", path: "reports/gone.md" },
        { type: "report", path: "reports/folder" },
        { type: "report", path: "reports/empty.md" },
      ],
    }),
    {},
  ],
  ["a long summary", v7({ status: "partial", summary: "x".repeat(500), errors: [ERROR] }), {}],
  [
    "a delegation that loops, with errors[] half written",
    v7({ status: "failed", errors: [{ type: "execution", recoverable: "yes" }], metadata: { ...metadata, delegation_depth: 2, delegation_path: ["orchestrator", "researcher", "researcher"] } }),
    {},
  ],
  ["unfinished at a gate", JSON.stringify({ status: "in_progress", started_at: "2026-01-01T00:00:00Z", artifacts: [], metadata }), { preset: "metadata-file", command: "research" }],
];

async function problemsOf(text: string, options: ValidateOptions) {
  const report = await validate(text, { cwd: root, root, preset: "v7", ...options });
  return { report, problems: report.results.filter((result) => result.level === "fail" || result.level === "warn") };
}

/** The same finding with every word of its message changed: its data, id and pointer kept. */
function reworded(result: Result): Result {
  return { ...result, message: "Reworded headline: 1", detail: "Error: reworded (2)\nExpected: at nothing", recommendation: "Fix the subagent to do something else" };
}

describe("reask lines come from the findings' data, not their wording", () => {
  it("no regular expression in reask.ts: nothing there can parse a rule's message", () => {
    const file = fileURLToPath(new URL("./reask.ts", import.meta.url));
    const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
    const found: string[] = [];
    const visit = (node: ts.Node): void => {
      if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) found.push(node.getText(source));
      if (ts.isIdentifier(node) && node.text === "RegExp") found.push("RegExp");
      ts.forEachChild(node, visit);
    };
    visit(source);
    expect(found).toEqual([]);
  });

  it("every built-in finding gives the same line however its message is worded", async () => {
    const covered = new Set<string>();
    for (const [name, text, options] of RETURNS) {
      const { report, problems } = await problemsOf(text, options);
      expect(problems.length, name).toBeGreaterThan(0);
      for (const result of problems) {
        covered.add(`${result.ruleId}/${result.messageId}`);
        expect(reaskLine(reworded(result), report.value, report.agent), `${name}: ${result.ruleId}/${result.messageId}`).toBe(reaskLine(result, report.value, report.agent));
      }
    }
    expect([...covered]).toEqual(
      expect.arrayContaining([
        "artifacts/absolutePath",
        "artifacts/bareString",
        "artifacts/empty",
        "artifacts/escapesRoot",
        "artifacts/missingPath",
        "artifacts/notAFile",
        "artifacts/notAnObject",
        "artifacts/notFound",
        "artifacts/pathNotString",
        "artifacts/phantomWork",
        "early-metadata/notFinished",
        "json-structure/emptyInput",
        "json-structure/missingFile",
        "json-structure/noReturn",
        "json-structure/notAnObject",
        "json-structure/syntaxError",
        "json-structure/trailingText",
        "required-fields/missingField",
        "required-fields/missingMetadataField",
        "required-fields/wrongType",
        "session-id/mismatch",
        "session-id/misplaced",
        "status-enum/invalidStatus",
        "status-enum/notAString",
        "summary-length/tooLong",
        "delegation/cycleDetected",
        "error-details/missingField",
        "error-details/invalidField",
      ]),
    );
  });

  it("says what the data says: the suggested status, the expected place, the kind of file, where parsing stopped", async () => {
    const lines = async (text: string, options: ValidateOptions = {}) => {
      const { report, problems } = await problemsOf(text, options);
      return problems.map((result) => reaskLine(result, report.value, report.agent));
    };
    expect(await lines(v7({ status: "Completed" }))).toContain('/status: "status" must be one of completed, partial, failed, blocked; received "Completed"; set "status" to "completed".');
    expect(await lines(v7({ status: "planned" }), { preset: "metadata-file", command: "research" })).toContain(
      '/status: "status" must be one of researched, partial, failed, blocked, in_progress for /research; received "planned", the success status of /plan; use "researched".',
    );
    expect(await lines(JSON.stringify({ status: "blocked", summary: "s", artifacts: [], errors: [ERROR], session_id: "sess_1", metadata: { ...metadata, session_id: undefined } }))).toContain(
      "/session_id: the session id is at session_id, but this format keeps it at metadata.session_id; move it there.",
    );
    expect(await lines(v7({ artifacts: [{ type: "report", path: "reports/folder" }] }))).toEqual(['/artifacts/0/path: "reports/folder" is a directory, not a file; point "path" at the file you wrote.']);
    expect(await lines('{"status": "completed",,}')).toEqual([
      "(the whole return): the return is not valid JSON (expected a property name in double quotes, found ',' at line 1, column 24); fix the JSON there and send the whole object again.",
    ]);
    expect(await lines("", { missingFile: true, source: "specs/7_x/.return-meta.json", preset: "metadata-file" })).toEqual([
      "(the whole return): you wrote no return metadata file; write specs/7_x/.return-meta.json (status, artifacts, metadata) before you finish.",
    ]);
  });

  it("every built-in finding addressed to the subagent has a line: worded here from its data, or by its rule's reask template", () => {
    // Addressed to whoever runs returnlint (its config, --git-base, --transcript, a postflight that never finished), or information only: the fallback's words are right.
    const forTheCaller = new Set(["artifact-content/badPattern", "artifact-evidence/unknownRevision", "artifact-evidence/shallowClone", "artifact-evidence/transcriptUnreadable", "early-metadata/interrupted", "postflight-marker/markerLeft"]);
    const unworded = [...BUILTIN_RULES.values()].flatMap(({ rule }) =>
      Object.entries(rule.meta.messages)
        .filter(([id, spec]) => spec.recommendation !== undefined && spec.reask === undefined && !INSTRUCTED.has(`${rule.id}/${id}`) && !forTheCaller.has(`${rule.id}/${id}`))
        .map(([id]) => `${rule.id}/${id}`),
    );
    expect(unworded).toEqual([]);
    for (const key of INSTRUCTED) {
      const [ruleId = "", messageId = ""] = key.split("/");
      expect(BUILTIN_RULES.get(ruleId)?.rule.meta.messages[messageId], key).toBeDefined();
    }
  });

  it("a rule's own reask template is filled from its data: the delegation cycle and the error entry", async () => {
    const { report, problems } = await problemsOf(
      v7({ status: "failed", errors: [{ type: "execution", recoverable: "yes" }], metadata: { ...metadata, delegation_depth: 2, delegation_path: ["orchestrator", "researcher", "researcher"] } }),
      {},
    );
    expect(problems.map((result) => reaskLine(result, report.value, report.agent))).toEqual([
      "/metadata/delegation_path/2: researcher appears twice in the delegation path orchestrator → researcher → researcher; never delegate back to an agent already in your chain.",
      "/errors/0/message: errors[0] has no message; add it as a non-empty string.",
      "/errors/0/recoverable: errors[0].recoverable is string \"yes\"; make it a boolean (true when a retry may succeed).",
      "/errors/0/recommendation: errors[0] has no recommendation; add it as a non-empty string.",
    ]);
  });

  it("a finding it has no line for keeps its rule's words, turned to the subagent", () => {
    const custom: Result = {
      ruleId: "no-todo",
      level: "fail",
      messageId: "todo",
      message: "Artifact has a TODO",
      detail: "Error: reports/r.md still says TODO",
      recommendation: "Fix researcher subagent to finish the report",
      data: { path: "reports/r.md" },
      pointer: "/artifacts/0/path",
    };
    expect(reaskLine(custom, {}, "researcher")).toBe("/artifacts/0/path: reports/r.md still says TODO; finish the report.");
    expect(reaskLine({ ...custom, reask: "remove the TODO from {path}" }, {}, "researcher")).toBe("/artifacts/0/path: remove the TODO from {path}.");
  });
});
