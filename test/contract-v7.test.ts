// The v7 return written as a contract (examples/contract-v7) gives the verdicts of --preset v7: over
// every console example of the shared corpus that parses, and over a generated set of returns,
// each in an empty project and in one that holds every file it claims. The contract path is as
// strong as the built-in one.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { tempProject } from "@returnlint/testing";
import { returnSchema } from "@returnlint/api";
import { loadReturnlintConfig, validate, type ValidationReport } from "returnlint";
import { resolveCorpusDir } from "../scripts/corpus-lib.mjs";

const REPO = fileURLToPath(new URL("..", import.meta.url));
const EXAMPLE = path.join(REPO, "examples", "contract-v7");
const CONSOLE = path.join(path.dirname(resolveCorpusDir(REPO)), "console-examples");
const SESSION = "sess_1735460684_a1b2c3";

const contractConfig = await loadReturnlintConfig({ cwd: EXAMPLE });
const presetConfig = await loadReturnlintConfig({ cwd: tempProject(), preset: "v7" });

/** The files a return claims, relative and inside the project, each written non-empty. */
function claimedFiles(value: unknown): Record<string, string> {
  const artifacts = typeof value === "object" && value !== null && Array.isArray((value as { artifacts?: unknown }).artifacts) ? ((value as { artifacts: unknown[] }).artifacts) : [];
  const files: Record<string, string> = {};
  for (const entry of artifacts) {
    const given = typeof entry === "string" ? entry : typeof entry === "object" && entry !== null ? (entry as { path?: unknown }).path : undefined;
    if (typeof given !== "string" || given === "" || path.isAbsolute(given) || given.startsWith("~") || given.includes("\0")) continue;
    const normalized = path.posix.normalize(given);
    if (normalized.startsWith("..") || normalized === "." || normalized.endsWith("/")) continue;
    files[normalized] = "# written\n";
  }
  return files;
}

interface Verdict {
  readonly ok: boolean;
  readonly internalError: boolean;
}

const verdictOf = (report: ValidationReport): Verdict => ({ ok: report.ok, internalError: report.internalError });

/** The return checked both ways in one project: the two verdicts, and what failed under each, for the message when they differ. */
async function bothWays(text: string, root: string, sessionId?: string): Promise<{ contract: Verdict; preset: Verdict; why: string }> {
  const options = { cwd: root, ...(sessionId === undefined ? {} : { sessionId }) };
  const underContract = await validate(text, { ...options, config: contractConfig });
  const underPreset = await validate(text, { ...options, config: presetConfig, preset: "v7" });
  const failed = (report: ValidationReport): string => report.results.filter((result) => result.level === "fail").map((result) => `${result.ruleId}/${result.messageId} ${result.pointer ?? ""}`).join(", ");
  return { contract: verdictOf(underContract), preset: verdictOf(underPreset), why: `contract: [${failed(underContract)}]; preset: [${failed(underPreset)}]` };
}

describe("examples/contract-v7: the v7 return as a contract", () => {
  it("is what `returnlint schema --preset v7 --annotated` prints", async () => {
    const printed = await returnSchema(presetConfig, { preset: "v7", annotated: true });
    expect(JSON.parse(readFileSync(path.join(EXAMPLE, "contracts", "v7-return.schema.json"), "utf8"))).toEqual(printed);
  });

  const corpus = existsSync(path.join(CONSOLE, "INDEX.jsonl"));
  it.skipIf(!corpus)("agrees with --preset v7 on every corpus console example that parses, with and without its files", async () => {
    const names = readdirSync(CONSOLE).filter((name) => name.endsWith(".json")).sort();
    let compared = 0;
    let failing = 0;
    const disagreements: string[] = [];
    for (const name of names) {
      const text = readFileSync(path.join(CONSOLE, name), "utf8");
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        continue;
      }
      for (const root of [tempProject(), tempProject(claimedFiles(value))]) {
        const { contract, preset, why } = await bothWays(text, root);
        compared += 1;
        if (!preset.ok) failing += 1;
        if (contract.ok !== preset.ok || contract.internalError || preset.internalError) disagreements.push(`${name}: ${why}`);
      }
    }
    expect(disagreements).toEqual([]);
    // The corpus holds passes and failures both: agreement on one kind alone would prove little.
    expect(compared).toBeGreaterThan(400);
    expect(failing).toBeGreaterThan(50);
    expect(compared - failing).toBeGreaterThan(20);
  }, 300_000);

  it("agrees with --preset v7 on a generated set of returns, each way a v7 return goes wrong", async () => {
    const metadata = { session_id: SESSION, agent_type: "researcher", delegation_depth: 1, delegation_path: ["orchestrator", "research", "researcher"] };
    const report = { type: "report", path: "specs/1_x/reports/r.md", summary: "Report" };
    const base = { status: "completed", summary: "Researched the thing.", artifacts: [report], metadata };
    const statuses: unknown[] = ["completed", "partial", "failed", "blocked", "researched", "implemented", "done", "Completed", "in_progress", 3, null];
    const artifactLists: unknown[] = [[report], [], ["specs/1_x/reports/r.md"], [{ type: "report" }], [{ path: 7 }], [{ path: "/etc/passwd" }], [{ path: "" }], [report, report], "specs/1_x/reports/r.md"];
    const metadatas: unknown[] = [
      metadata,
      { ...metadata, session_id: "sess_other" },
      { ...metadata, delegation_depth: 4 },
      { ...metadata, delegation_depth: "1" },
      { ...metadata, delegation_path: ["orchestrator", "researcher", "researcher"] },
      { agent_type: "researcher", delegation_depth: 1, delegation_path: ["orchestrator", "research", "researcher"] },
      "metadata",
    ];
    const returns: unknown[] = [];
    for (const status of statuses) for (const artifacts of artifactLists) returns.push({ ...base, status, artifacts });
    for (const meta of metadatas) for (const status of ["completed", "partial"]) returns.push({ ...base, status, metadata: meta });
    returns.push({ ...base, summary: undefined }, { ...base, summary: null }, { ...base, summary: 42 }, { status: "completed" }, {}, [], "not json {", { ...base, session_id: SESSION, metadata: { ...metadata, session_id: undefined } });
    returns.push({ ...base, status: "implemented", completion_data: { completion_summary: "Done." } });

    const empty = tempProject();
    const written = tempProject({ "specs/1_x/reports/r.md": "# Report\n" });
    const disagreements: string[] = [];
    let failing = 0;
    let passing = 0;
    for (const value of returns) {
      const text = typeof value === "string" ? value : JSON.stringify(value);
      for (const root of [empty, written]) {
        for (const sessionId of [undefined, SESSION]) {
          const { contract, preset, why } = await bothWays(text, root, sessionId);
          if (preset.ok) passing += 1;
          else failing += 1;
          if (contract.ok !== preset.ok || contract.internalError || preset.internalError) disagreements.push(`${text} (${root === empty ? "empty" : "written"}, session ${sessionId ?? "none"}): ${why}`);
        }
      }
    }
    expect(disagreements).toEqual([]);
    expect(passing).toBeGreaterThan(5);
    expect(failing).toBeGreaterThan(100);
  }, 120_000);
});
