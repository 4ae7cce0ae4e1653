import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { afterEach, describe, expect, it, vi } from "vitest";
import { checkReturn, lintFile, lintTask, lintText, loadReturnlintConfig, returnOfMessage, validate } from "@returnlint/api";
import { stripBom } from "@returnlint/core";
import { main } from "../src/main.js";
import { subagentStop } from "./claude-payloads.js";
import { knownHistory } from "./git-history.js";
import { EXAMPLES, project } from "./helpers.js";

// Issue 17: a return is parsed once. `validate` parses it and hands the parsed value on in its
// report; the formatters, scan and the hook use that instead of parsing it again. Every parse of a
// return goes through JSON.parse: this counts the calls that parse each return's text.

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

/** Counts JSON.parse calls by the text they parse. */
function countParses(): Map<string, number> {
  const counts = new Map<string, number>();
  const original = JSON.parse.bind(JSON);
  vi.spyOn(JSON, "parse").mockImplementation((text: string, reviver?: (this: unknown, key: string, value: unknown) => unknown) => {
    counts.set(text, (counts.get(text) ?? 0) + 1);
    return original(text, reviver) as unknown;
  });
  return counts;
}

function io(cwd: string, stdin?: string) {
  const out: string[] = [];
  return {
    out,
    io: {
      cwd,
      env: { ...process.env, NO_COLOR: "1" },
      stdin: stdin === undefined ? process.stdin : (Readable.from([Buffer.from(stdin)]) as unknown as NodeJS.ReadStream),
      color: false,
      stdout: (text: string) => out.push(text),
      stderr: (text: string) => out.push(text),
    },
  };
}

const VALID = path.join(EXAMPLES, "valid-v7");
const validText = stripBom(readFileSync(path.join(VALID, "return.json"), "utf8"));

describe("one parse per return", () => {
  it("validate parses the return once and hands on the value, the origin and the rules", async () => {
    const config = await loadReturnlintConfig({ cwd: VALID });
    const counts = countParses();
    const report = await validate(validText, { config, cwd: VALID, command: "research" });
    expect(counts.get(validText)).toBe(1);
    expect(report.ok).toBe(true);
    expect(report.origin).toBe("bare");
    expect(report.value).toEqual(JSON.parse(validText));
    expect(report.rules.map((rule) => rule.id)).toContain("artifacts");
  });

  it("a return inside prose: its JSON is parsed once, and the report says where it starts", async () => {
    const config = await loadReturnlintConfig({ cwd: VALID });
    const counts = countParses();
    const input = `Done. Here is my return:\n\n\`\`\`json\n${validText.trim()}\n\`\`\`\n`;
    const report = await validate(input, { config, cwd: VALID, command: "research" });
    expect(report.origin).toBe("fenced");
    expect(report.firstLine).toBe(4);
    expect(counts.get(report.text)).toBe(1);
  });

  for (const format of ["stylish", "json", "sarif", "github", "junit", "reask"]) {
    it(`check -f ${format} parses the return once`, async () => {
      // The build defines it in the bundles (build.mjs); the sources run here.
      vi.stubGlobal("RETURNLINT_VERSION", "0.0.0-test");
      const counts = countParses();
      const { io: commandIo, out } = io(VALID);
      const code = await main(["check", "return.json", "--command", "research", "-f", format], commandIo);
      expect(code, out.join("")).toBe(0);
      expect(counts.get(validText)).toBe(1);
    });
  }

  it("check of a failing return with every formatter parses it once", async () => {
    const root = project({ "return.json": { status: "completed", summary: "Did it.", artifacts: [{ type: "report", path: "specs/1_x/reports/r.md" }], metadata: {} } });
    const text = stripBom(readFileSync(path.join(root, "return.json"), "utf8"));
    const counts = countParses();
    const { io: commandIo } = io(root);
    const code = await main(["check", "return.json", "--command", "research", "-f", "stylish", "-f", "reask"], commandIo);
    expect(code).toBe(1);
    expect(counts.get(text)).toBe(1);
  });

  it("scan parses each metadata file once (the command comes from the same parse)", async () => {
    const dir = path.join(EXAMPLES, "scan");
    const counts = countParses();
    const { io: commandIo, out } = io(dir);
    const code = await main(["scan", "--format", "json"], commandIo);
    expect(code).toBe(1);
    const items = JSON.parse(out.join("")) as { source: string }[];
    expect(items.length).toBeGreaterThan(1);
    for (const item of items) {
      const text = stripBom(readFileSync(path.join(dir, item.source), "utf8"));
      expect(counts.get(text), item.source).toBe(1);
    }
  });

  it("audit parses each committed version once (its command and artifacts come from the same parse)", async () => {
    const { dir } = knownHistory();
    const counts = countParses();
    const { io: commandIo, out } = io(dir);
    const code = await main(["audit", "--format", "json"], commandIo);
    expect(code).toBe(0);
    vi.restoreAllMocks();
    const { returns } = JSON.parse(out.join("")) as { returns: { commit: string; path: string }[] };
    expect(returns.length).toBeGreaterThan(5);
    // Versions with the same bytes share a count: each is parsed once.
    const versions = new Map<string, number>();
    for (const { commit, path: file } of returns) {
      const text = stripBom(execFileSync("git", ["show", `${commit}:${file}`], { cwd: dir, encoding: "utf8" }));
      versions.set(text, (versions.get(text) ?? 0) + 1);
    }
    for (const [text, times] of versions) expect(counts.get(text), text.slice(0, 80)).toBe(times);
  });

  it("the hook's checkReturn parses the return once", async () => {
    const config = await loadReturnlintConfig({ cwd: VALID });
    const counts = countParses();
    const checked = await checkReturn({ kind: "text", name: "message", text: validText }, { config, root: VALID, command: "research", agent: "researcher" });
    expect(checked.ok).toBe(true);
    expect(counts.get(validText)).toBe(1);
  });

  it("check --task parses the task's metadata file once", async () => {
    const dir = path.join(EXAMPLES, "scan");
    const file = path.join(dir, "specs", "007_padded", ".return-meta.json");
    const text = stripBom(readFileSync(file, "utf8"));
    const counts = countParses();
    const { io: commandIo, out } = io(dir);
    const code = await main(["check", "--task", "7", "--command", "research", "-f", "json", "-f", "stylish"], commandIo);
    expect(code, out.join("")).toBe(0);
    expect(counts.get(text)).toBe(1);
  });

  it("scan --command parses each metadata file once", async () => {
    const dir = path.join(EXAMPLES, "scan");
    const counts = countParses();
    const { io: commandIo, out } = io(dir);
    await main(["scan", "--command", "research", "--format", "json"], commandIo);
    const items = JSON.parse(out.join("")) as { source: string }[];
    expect(items.length).toBeGreaterThan(1);
    for (const item of items) expect(counts.get(stripBom(readFileSync(path.join(dir, item.source), "utf8"))), item.source).toBe(1);
  });

  it("the library's lintText, lintFile and lintTask parse the return once", async () => {
    const dir = path.join(EXAMPLES, "scan");
    const file = "specs/007_padded/.return-meta.json";
    const text = stripBom(readFileSync(path.join(dir, file), "utf8"));
    const config = await loadReturnlintConfig({ cwd: dir });
    const counts = countParses();
    expect((await lintFile(file, { config, root: dir, command: "research" })).report.ok).toBe(true);
    expect(counts.get(text)).toBe(1);
    expect((await lintTask("7", { config, root: dir, command: "research" })).report.ok).toBe(true);
    expect(counts.get(text)).toBe(2);
    await lintText(validText, { config, root: VALID, command: "research" });
    expect(counts.get(validText)).toBe(1);
  });

  describe("returnlint hook claude", () => {
    const returnOf = (summary: string) => ({
      status: "completed",
      summary,
      artifacts: [{ type: "report", path: "specs/1_x/reports/r.md", summary: "Research report" }],
      metadata: { session_id: "sess_1", agent_type: "lean-research-agent", delegation_depth: 1, delegation_path: ["orchestrator", "research", "lean-research-agent"] },
    });

    it("a final message that is the return and names a metadata file: the message is parsed once, the file never read", async () => {
      const root = project({
        "specs/1_x/reports/r.md": "# Report\n",
        "specs/1_x/.return-meta.json": { status: "researched" },
      });
      const message = JSON.stringify(returnOf("Wrote specs/1_x/reports/r.md; the metadata is in specs/1_x/.return-meta.json."));
      const metaText = readFileSync(path.join(root, "specs/1_x/.return-meta.json"), "utf8");
      const counts = countParses();
      const { io: commandIo, out } = io(root, JSON.stringify(subagentStop({ cwd: root, message })));
      const code = await main(["hook", "claude"], commandIo);
      expect(code, out.join("")).toBe(0);
      expect(out.join("")).toBe("");
      expect(counts.get(message)).toBe(1);
      expect(counts.get(metaText)).toBeUndefined();
      const verdict = JSON.parse(readFileSync(path.join(root, ".returnlint/verdicts/lean-research-agent--a4e1f2c3.json"), "utf8")) as { ok: boolean; origin: string };
      expect(verdict).toMatchObject({ ok: true, origin: "bare" });
    });

    it("through the library: returnOfMessage reads nothing, checkReturn parses the message once", async () => {
      const root = project({ "specs/1_x/reports/r.md": "# Report\n", "specs/1_x/.return-meta.json": { status: "researched" } });
      const message = JSON.stringify(returnOf("Wrote specs/1_x/reports/r.md; the metadata is in specs/1_x/.return-meta.json."));
      const config = await loadReturnlintConfig({ cwd: root });
      const counts = countParses();
      const source = returnOfMessage({ message, root, command: "research", config });
      expect(source).toMatchObject({ kind: "text", name: "message", text: message });
      expect(counts.size).toBe(0);
      const checked = await checkReturn(source, { root, command: "research", config });
      expect(checked).toMatchObject({ ok: true, origin: "bare", source: "message" });
      expect(counts.get(message)).toBe(1);
    });

    it("a prose message that names the metadata file: the file is the return, parsed once", async () => {
      const root = project({
        "specs/1_x/reports/r.md": "# Report\n",
        "specs/1_x/.return-meta.json": { ...returnOf("Researched."), status: "researched" },
      });
      const metaText = readFileSync(path.join(root, "specs/1_x/.return-meta.json"), "utf8");
      const message = "Research done. The return is in specs/1_x/.return-meta.json.";
      const counts = countParses();
      const { io: commandIo, out } = io(root, JSON.stringify(subagentStop({ cwd: root, message })));
      const code = await main(["hook", "claude"], commandIo);
      expect(code, out.join("")).toBe(0);
      expect(out.join("")).toBe("");
      // The message was looked at for a return (validate's own search, not a parse of a return); the return is the file.
      expect(counts.get(metaText)).toBe(1);
      const verdict = JSON.parse(readFileSync(path.join(root, ".returnlint/verdicts/task-1.json"), "utf8")) as { ok: boolean; origin: string; source: string };
      expect(verdict).toMatchObject({ ok: true, origin: "file", source: "specs/1_x/.return-meta.json" });
    });
  });

  it("the count can fail: parsing the same text twice is seen", () => {
    const counts = countParses();
    JSON.parse(validText);
    JSON.parse(validText);
    expect(counts.get(validText)).toBe(2);
  });
});
