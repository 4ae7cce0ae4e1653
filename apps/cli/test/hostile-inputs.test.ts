import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadReturnlintConfig, validate } from "@returnlint/api";
import { BUILTIN_RULES } from "@returnlint/api";
import { STACK_FRAME, metadata, project, returnlint, type Run } from "./helpers.js";

interface JsonResult {
  ruleId: string;
  level: string;
  messageId: string;
  pointer?: string;
  detail?: string;
}

const DEPTH = 100_000;
const good = { status: "partial", summary: "Half done.", artifacts: [], errors: [{ type: "timeout", message: "ran out of time", recoverable: true, recommendation: "resume" }], metadata: metadata("researcher") };

function check(input: string | Buffer, args: readonly string[] = [], env: Record<string, string> = {}): Run & { results: JsonResult[] } {
  const run = returnlint(["check", "-", "--format", "json", ...args], { input, env });
  expect(run.stdout + run.stderr).not.toMatch(STACK_FRAME);
  const results = run.stdout === "" ? [] : (JSON.parse(run.stdout) as { results: JsonResult[] }).results;
  return { ...run, results };
}

const failures = (results: readonly JsonResult[]) => results.filter((result) => result.level === "fail").map((result) => result.messageId);

describe("input bounds", { timeout: 60_000 }, () => {
  it("refuses input over 10 MiB by default, with a sentence and a way out", () => {
    const run = check(Buffer.alloc(10 * 1024 * 1024 + 1, 0x20));
    expect(run.status).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe(
      "returnlint: Refusing to read standard input: it is larger than 10 MiB.\n  - No subagent return is this big; if this one really is, set RETURNLINT_MAX_INPUT_BYTES (bytes, or with a k, M or G suffix) to raise the limit.\n",
    );
  });

  it("RETURNLINT_MAX_INPUT_BYTES lowers or raises the limit, for standard input and files", () => {
    const source = JSON.stringify(good);
    expect(check(source, [], { RETURNLINT_MAX_INPUT_BYTES: String(source.length) }).status).toBe(0);
    const over = check(source, [], { RETURNLINT_MAX_INPUT_BYTES: String(source.length - 1) });
    expect(over.status).toBe(2);
    expect(over.stderr).toContain(`larger than ${String(source.length - 1)} bytes.`);
    const root = project({ "r.json": good });
    expect(returnlint(["check", "r.json"], { cwd: root, env: { RETURNLINT_MAX_INPUT_BYTES: "1k" } }).status).toBe(0);
    expect(returnlint(["check", "r.json"], { cwd: root, env: { RETURNLINT_MAX_INPUT_BYTES: "64" } }).stderr).toMatch(/^returnlint: Refusing to read .*r\.json: it is larger than 64 bytes\.$/m);
  });

  it("a limit that is not a number of bytes is a usage error that says what it wants", () => {
    for (const value of ["ten", "-5", "0", "1.5M", "10 TB"]) {
      const run = check("{}", [], { RETURNLINT_MAX_INPUT_BYTES: value });
      expect(run.status).toBe(2);
      expect(run.stderr).toBe(`returnlint: RETURNLINT_MAX_INPUT_BYTES must be a positive number of bytes, such as 20971520 or 20M; received "${value}".\n`);
    }
  });

  it("100,000 levels of nesting, at the top and inside fields, through every formatter at once", () => {
    const arrays = `${"[".repeat(DEPTH)}${"]".repeat(DEPTH)}`;
    const objects = `${'{"a":'.repeat(DEPTH)}1${"}".repeat(DEPTH)}`;
    const inside = (field: string, deep: string) => JSON.stringify({ ...good, status: "completed", [field]: "\u0000" }).replace('"\\u0000"', deep);
    const cases: readonly [string, string, string][] = [
      ["top-level arrays", arrays, "notAnObject"],
      ["status", inside("status", objects), "wrongType"],
      ["artifacts", inside("artifacts", arrays), "notAnObject"],
      ["metadata", inside("metadata", objects), "missingMetadataField"],
      ["unterminated", "[".repeat(DEPTH), "syntaxError"],
    ];
    const all = ["-f", "stylish", "-f", "sarif", "-f", "junit", "-f", "github", "-f", "reask", "-f", "response"];
    for (const [name, input, messageId] of cases) {
      const run = check(input);
      expect(run.status, name).toBe(1);
      expect(failures(run.results), name).toContain(messageId);
      const everyFormat = returnlint(["check", "-", ...all], { input });
      expect(everyFormat.status, name).toBe(1);
      expect(everyFormat.stdout + everyFormat.stderr, name).not.toMatch(/Maximum call stack|internal error/);
    }
    const scanned = project({ "specs/1_deep/.return-meta.json": `{"status":"researched","artifacts":${arrays}}` });
    const scan = returnlint(["scan", "--format", "json"], { cwd: scanned });
    expect(scan.status).toBe(1);
    expect(scan.stderr).toBe("");
  });
});

describe("hostile text", { timeout: 60_000 }, () => {
  const table: readonly [string, string | Buffer, number, readonly string[], string?][] = [
    ["a UTF-8 byte-order mark", Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(good))]), 0, []],
    ["a NUL byte after the object", `${JSON.stringify(good)}\u0000`, 1, ["trailingText"]],
    ["a raw NUL byte inside a string", JSON.stringify(good).replace("Half", "Ha\u0000lf"), 1, ["syntaxError"]],
    ["NUL bytes alone", Buffer.alloc(16), 1, ["noReturn"]],
    ["Latin-1 bytes inside a string", Buffer.from(JSON.stringify(good).replace("Half", "caf\u00e9"), "latin1"), 1, ["invalidUtf8"], "/summary"],
    ["UTF-16 with its byte-order mark", Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(JSON.stringify(good), "utf16le")]), 1, ["invalidUtf8", "syntaxError"]],
    ["a top-level array", "[1, 2]", 1, ["notAnObject"]],
    ["a top-level string", '"completed"', 1, ["notAnObject"]],
    ["a top-level number", "42", 1, ["notAnObject"]],
    ["a top-level null", "null", 1, ["notAnObject"]],
    ["status failed, then completed", JSON.stringify(good).replace('"status":"partial"', '"status":"failed","status":"completed"'), 1, ["duplicateKey"], "/status"],
    ["a duplicate deep inside", JSON.stringify(good).replace('"recoverable":true', '"recoverable":true,"recoverable":false'), 1, ["duplicateKey"], "/errors/0/recoverable"],
  ];
  it.each(table)("%s", (_name, input, status, messageIds, pointer) => {
    const run = check(input);
    expect(run.status).toBe(status);
    expect(failures(run.results).slice(0, messageIds.length)).toEqual(messageIds);
    if (pointer !== undefined && messageIds[0] === "duplicateKey") expect(run.results.find((result) => result.messageId === "duplicateKey")?.pointer).toBe(pointer);
  });

  it("says where the bytes stopped being UTF-8, in the transcript", () => {
    const run = returnlint(["check", "-"], { input: Buffer.from('{"status":"partial","summary":"caf\u00e9"}', "latin1") });
    expect(run.status).toBe(1);
    expect(run.stdout).toContain("[FAIL] Return is not valid UTF-8\nError: The bytes at line 1, column 35 are not UTF-8 text\n");
  });
});

/** Every leaf of a value, as [pointer tokens, leaf]. */
function leaves(value: unknown, tokens: readonly (string | number)[] = []): [readonly (string | number)[], unknown][] {
  if (Array.isArray(value)) return value.flatMap((item, index) => leaves(item, [...tokens, index]));
  if (typeof value === "object" && value !== null) return Object.entries(value).flatMap(([key, item]) => leaves(item, [...tokens, key]));
  return [[tokens, value]];
}

function replaced(value: unknown, tokens: readonly (string | number)[], leaf: unknown): unknown {
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let target = copy;
  for (const token of tokens.slice(0, -1)) target = target[token] as Record<string | number, unknown>;
  target[tokens.at(-1) ?? ""] = leaf;
  return copy;
}

describe("numbers where strings belong, and the reverse, everywhere", () => {
  const v7 = { status: "completed", summary: "Did it.", artifacts: [{ type: "report", path: "a.md", summary: "Report" }], metadata: { ...metadata("researcher", "sess_1"), started_at: "2026-01-01T00:00:00Z", duration_seconds: 12 }, next_steps: "none", errors: [{ type: "x", message: "m", recoverable: true, recommendation: "r" }] };
  const v5 = { status: "completed", summary: "Did it.", artifacts: [{ type: "report", path: "a.md", summary: "Report" }], session_id: "sess_1", metadata: { agent_type: "researcher", delegation_depth: 1, delegation_path: ["orchestrator", "research", "researcher"] } };
  const metadataFile = { status: "researched", artifacts: [{ type: "report", path: "a.md", summary: "Report" }], metadata: { ...metadata("researcher", "sess_1") }, completion_data: { completion_summary: "done", claudemd_suggestions: "none", roadmap_items: ["x"] } };
  // Where a wrong type must be a failure at that very field: the fields the seeds check.
  const mustFail = new Set(["/status", "/summary", "/artifacts/0/path", "/session_id", "/metadata/session_id", "/metadata/agent_type", "/metadata/delegation_depth"]);

  it("each rule reports or ignores the wrong type, and none crashes", { timeout: 60_000 }, async () => {
    const root = project({ "a.md": "# Report\n" });
    writeFileSync(path.join(root, "returnlint.config.json"), JSON.stringify({ rules: Object.fromEntries([...BUILTIN_RULES.keys()].map((id) => [id, "error"])) }));
    const everyRule = await loadReturnlintConfig({ cwd: root });
    for (const [preset, base] of [["v7", v7], ["v5", v5], ["metadata-file", metadataFile]] as const) {
      const config = await loadReturnlintConfig({ cwd: root, configFile: path.join(root, "returnlint.config.json"), preset });
      expect((await validate(JSON.stringify(base), { config, root, command: "research", sessionId: "sess_1" })).internalError).toBe(false);
      for (const [tokens, leaf] of leaves(base)) {
        const swapped = typeof leaf === "string" ? (/^\d+$/.test(leaf) ? Number(leaf) : 42) : typeof leaf === "number" ? String(leaf) : leaf === true ? "true" : 0;
        const pointer = tokens.map((token) => `/${String(token)}`).join("");
        for (const loaded of [config, everyRule]) {
          const report = await validate(JSON.stringify(replaced(base, tokens, swapped)), { config: loaded, root, command: "research", sessionId: "sess_1" });
          const crashed = report.results.filter((result) => result.messageId === "ruleCrashed" || result.messageId === "ruleTimedOut");
          expect(crashed, `${preset} ${pointer}`).toEqual([]);
          if (loaded === config && mustFail.has(pointer)) {
            expect(report.results.filter((result) => result.level === "fail").map((result) => result.pointer), `${preset} ${pointer}`).toContain(pointer);
          }
        }
      }
    }
  });
});
