import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";
import type { Result } from "@returnlint/core";
import { formatterInput, lintSource } from "./lint.js";
import { reask, reaskLine } from "./reask.js";
import { loadBuiltinRules } from "./registry.js";
import { textSource, type ReturnSource } from "./source.js";
import type { ValidateOptions } from "./validate.js";

const BUILTIN_RULES = await loadBuiltinRules();

const root = mkdtempSync(path.join(tmpdir(), "returnlint-reask-"));
mkdirSync(path.join(root, "reports", "folder"), { recursive: true });
writeFileSync(path.join(root, "reports", "empty.md"), "");
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

const metadata = { session_id: "sess_1", agent_type: "researcher", delegation_depth: 1, delegation_path: ["orchestrator", "researcher"] };
const ERROR = { type: "execution", message: "m", recoverable: true, recommendation: "r" };
const v7 = (fields: Record<string, unknown>) => JSON.stringify({ status: "completed", summary: "Done.", artifacts: [], metadata, ...fields });

/** Returns that break the built-in checks addressed to the subagent, with what the caller knew. */
const RETURNS: readonly [string, string | ReturnSource, ValidateOptions][] = [
  ["prose", "I did the research.", {}],
  ["empty", "", {}],
  ["syntax", '{"status": "completed",,}', {}],
  ["trailing", '{"status": "completed"} and more', {}],
  ["not an object", "[1, 2]", {}],
  ["no metadata file", { kind: "missing", name: "specs/7_x/.return-meta.json" }, { preset: "metadata-file" }],
  ["missing and mistyped fields", JSON.stringify({ summary: 5, artifacts: [], metadata: { ...metadata, agent_type: undefined } }), {}],
  ["a status in the wrong case", v7({ status: "Completed" }), {}],
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

/** Findings addressed to whoever runs returnlint (its config, --git-base, --transcript, a postflight that never finished), or information only: the generic line is right for them. */
const FOR_THE_CALLER = new Set([
  "artifact-content/badPattern",
  "artifact-evidence/unknownRevision",
  "artifact-evidence/shallowClone",
  "artifact-evidence/transcriptUnreadable",
  "command-claims/transcriptUnreadable",
  "test-claims/transcriptUnreadable",
  "write-claims/transcriptUnreadable",
  "subagent-claims/transcriptUnreadable",
  "early-metadata/interrupted",
  "postflight-marker/markerLeft",
]);

async function problemsOf(given: string | ReturnSource, options: ValidateOptions) {
  const { report } = await lintSource(typeof given === "string" ? textSource(given) : given, { cwd: root, root, preset: "v7", ...options });
  return { report, problems: report.results.filter((result) => result.level === "fail" || result.level === "warn") };
}

/** What `check --format reask` prints for a return (`--max-warnings` given or not). */
async function reaskOf(text: string, options: ValidateOptions, maxWarnings?: number): Promise<string> {
  const result = await lintSource(textSource(text), { cwd: root, root, preset: "v7", ...options });
  return reask([{ ...formatterInput(result, { cwd: root, quiet: false, ...(maxWarnings === undefined ? {} : { maxWarnings }) }), color: false }], { several: false });
}

/** Every string written in a source file: literals, template parts, and the names of object keys. */
function wordsOf(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) found.push(node.text);
    if ((ts.isPropertyAssignment(node) || ts.isPropertyAccessExpression(node)) && ts.isIdentifier(node.name)) found.push(node.name.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const REASK_TS = fileURLToPath(new URL("./reask.ts", import.meta.url));

describe("the reask formatter knows no rule: each rule words its own line", () => {
  it("reask.ts names no built-in rule id and no built-in message id, and imports no rule", () => {
    const ruleIds = new Set(BUILTIN_RULES.keys());
    const messageIds = new Set([...BUILTIN_RULES.values()].flatMap(({ rule }) => Object.keys(rule.meta.messages)));
    const named = wordsOf(REASK_TS).filter((word) => ruleIds.has(word) || messageIds.has(word) || [...ruleIds].some((id) => word.includes(`${id}/`)));
    expect(named).toEqual([]);
    expect(readFileSync(REASK_TS, "utf8")).not.toMatch(/@returnlint\/rule-/);
  });

  it("no regular expression in reask.ts: nothing there can parse a rule's message", () => {
    const source = ts.createSourceFile(REASK_TS, readFileSync(REASK_TS, "utf8"), ts.ScriptTarget.Latest, true);
    const found: string[] = [];
    const visit = (node: ts.Node): void => {
      if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) found.push(node.getText(source));
      if (ts.isIdentifier(node) && node.text === "RegExp") found.push("RegExp");
      ts.forEachChild(node, visit);
    };
    visit(source);
    expect(found).toEqual([]);
  });

  it("every built-in message addressed to the subagent has its rule's reask template", () => {
    const unworded = [...BUILTIN_RULES.values()].flatMap(({ rule }) =>
      Object.entries(rule.meta.messages)
        .filter(([id, spec]) => spec.recommendation !== undefined && spec.reask === undefined && !FOR_THE_CALLER.has(`${rule.id}/${id}`))
        .map(([id]) => `${rule.id}/${id}`),
    );
    expect(unworded).toEqual([]);
    for (const key of FOR_THE_CALLER) {
      const [ruleId = "", messageId = ""] = key.split("/");
      expect(BUILTIN_RULES.get(ruleId)?.rule.meta.messages[messageId], key).toBeDefined();
    }
  });

  it("every built-in finding a subagent can fix is given as its rule filled it, after its pointer", async () => {
    const covered = new Set<string>();
    for (const [name, text, options] of RETURNS) {
      const { report, problems } = await problemsOf(text, options);
      expect(problems.length, name).toBeGreaterThan(0);
      for (const result of problems) {
        const finding = `${result.ruleId}/${result.messageId}`;
        covered.add(finding);
        expect(result.reask, `${name}: ${finding}`).toBeDefined();
        const pointer = result.pointer === undefined || result.pointer === "" ? "(the whole return)" : result.pointer;
        expect(reaskLine(result, report.value, report.agent), `${name}: ${finding}`).toBe(`${pointer}: ${result.reask ?? ""}.`);
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

  it("a return checked as a whole: one line per problem, each after its pointer, warnings once --max-warnings fails them, and the session id it expected never given away", async () => {
    const looping = v7({ status: "failed", errors: [{ type: "execution", recoverable: "yes" }], metadata: { ...metadata, session_id: "sess_9", delegation_depth: 2, delegation_path: ["orchestrator", "researcher", "researcher"] } });
    const text = await reaskOf(looping, { sessionId: "sess_expected" }, 0);
    expect(await reaskOf(looping, { sessionId: "sess_expected" })).toBe(text.split("\n").slice(0, 2).join("\n") + "\n");
    expect(text).toBe(
      [
        '- /metadata/session_id: the session id "sess_9" is not the one you were delegated; return the session id from your delegation context, unchanged.',
        "- /metadata/delegation_path/2: researcher appears twice in the delegation path orchestrator → researcher → researcher; never delegate back to an agent already in your chain.",
        "- /errors/0/message: errors[0] has no message; add it as a non-empty string.",
        '- /errors/0/recoverable: errors[0].recoverable is string "yes"; make it a boolean (true when a retry may succeed).',
        "- /errors/0/recommendation: errors[0] has no recommendation; add it as a non-empty string.",
        "",
      ].join("\n"),
    );
    expect(text).not.toContain("sess_expected");
  });

  it("a return with nothing to fix gets one line saying so", async () => {
    expect(await reaskOf(v7({ status: "partial", errors: [ERROR] }), {})).toBe('The return is valid (status "partial"); nothing to fix.\n');
  });
});

describe("the generic line, for a rule that words none", () => {
  const custom: Result = {
    ruleId: "no-todo",
    level: "fail",
    messageId: "todo",
    message: "Artifact has a TODO",
    detail: "Note: found by a custom rule\nError: reports/r.md still says TODO",
    recommendation: "Fix researcher subagent to finish the report",
    data: { path: "reports/r.md" },
    pointer: "/artifacts/0/path",
  };

  it("an unknown custom rule's finding: its Error line, then its recommendation turned to the subagent", () => {
    expect(reaskLine(custom, {}, "researcher")).toBe("/artifacts/0/path: reports/r.md still says TODO; finish the report.");
  });

  it("a recommendation addressed to no one is kept as written; no detail falls back to the headline; no recommendation says to fix it", () => {
    expect(reaskLine({ ...custom, recommendation: "Remove the TODO" }, {}, "researcher")).toBe("/artifacts/0/path: reports/r.md still says TODO; remove the TODO.");
    const { detail: _detail, recommendation: _recommendation, ...bare } = custom;
    expect(reaskLine(bare, {}, "researcher")).toBe("/artifacts/0/path: artifact has a TODO; fix it.");
  });

  it("a custom rule's own reask is taken at its word, as one sentence", () => {
    expect(reaskLine({ ...custom, pointer: "", reask: "remove the TODO from\n  reports/r.md..." }, {}, "researcher")).toBe("(the whole return): remove the TODO from reports/r.md.");
  });
});
