import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { ReportObject } from "@returnlint/api";
import { EXAMPLES, project, returnlint } from "./helpers.js";

// Issue 33's acceptance: a project's own return, checked under the contract its config names.
const contract = readFileSync(path.join(EXAMPLES, "contract-proof", "contracts", "review-return.schema.json"), "utf8");
const config = "commands:\n  review:\n    contract: ./contracts/review-return.schema.json\n";
const done = { status: "done", summary: "Reviewed the parser.", proof: { type: "file", paths: ["out/a.md"] } };

/** A project with the contract and its config, and a cache folder of its own for compiled contracts. */
function contractProject(files: Record<string, string> = {}): { root: string; env: Record<string, string> } {
  const root = project({ "contracts/review-return.schema.json": contract, "returnlint.config.yaml": config, ...files });
  return { root, env: { RETURNLINT_CACHE_DIR: path.join(root, ".cache") } };
}

function check(root: string, env: Record<string, string>, value: unknown, args: readonly string[] = []): { status: number | null; report: ReportObject; stderr: string } {
  const run = returnlint(["check", "-", "--command", "review", "--format", "json", ...args], { cwd: root, env, input: JSON.stringify(value) });
  return { status: run.status, report: JSON.parse(run.stdout === "" ? "{}" : run.stdout) as ReportObject, stderr: run.stderr };
}

const failures = (report: ReportObject): string[] => report.results.filter((result) => result.level === "fail").map((result) => `${result.ruleId}/${result.messageId} ${result.pointer ?? ""}`);

describe("a return checked under its command's contract", () => {
  it("exits 1 naming out/a.md at /proof/paths/0 when the file it claims is missing, and 0 once it is there", () => {
    const { root, env } = contractProject();
    const missing = check(root, env, done);
    expect(missing.status).toBe(1);
    expect(failures(missing.report)).toEqual(["artifacts/notFound /proof/paths/0"]);
    expect(missing.report.results.find((result) => result.level === "fail")?.message).toBe("Artifact does not exist: out/a.md");
    expect(missing.report).toMatchObject({ format: "contract", preset: "contract:./contracts/review-return.schema.json", phantom: true, artifacts: [{ pointer: "/proof/paths/0", path: "out/a.md", fate: "missing" }] });

    const { root: written, env: writtenEnv } = contractProject({ "out/a.md": "# Review\n" });
    const present = check(written, writtenEnv, done);
    expect(present.status).toBe(0);
    expect(failures(present.report)).toEqual([]);
    expect(present.report.results.map((result) => result.messageId)).toContain("follows");
  });

  it("exits 1 at /status for a status the contract does not list, with the expected and received values and a reask line", () => {
    const { root, env } = contractProject({ "out/a.md": "# Review\n" });
    const { status, report } = check(root, env, { ...done, status: "finished" });
    expect(status).toBe(1);
    expect(failures(report)).toEqual(["contract/violation /status"]);
    const [finding] = report.results.filter((result) => result.level === "fail");
    expect(finding?.data).toMatchObject({ expected: "done, failed", received: "finished", keyword: "enum" });
    expect(finding?.reask).toBe("must be one of done, failed; received finished");
    // Claims count only under a success status: a failed review's missing file is no finding.
    expect(check(root, env, { ...done, status: "failed", proof: { type: "file", paths: ["out/none.md"] } }).status).toBe(0);
  });

  it("says phantom work when a done return claims an empty list, and compares the marked session id", () => {
    const { root, env } = contractProject({ "out/a.md": "# Review\n" });
    const empty = check(root, env, { ...done, proof: { type: "file", paths: [] } });
    expect(empty.status).toBe(1);
    expect(failures(empty.report)).toEqual(["artifacts/phantomWork /proof/paths"]);
    const other = check(root, env, { ...done, session: "sess_other" }, ["--session-id", "sess_mine"]);
    expect(failures(other.report)).toEqual(["session-id/mismatch /session"]);
    expect(check(root, env, { ...done, session: "sess_mine" }, ["--session-id", "sess_mine"]).status).toBe(0);
  });

  it("is a configuration error, exit 2 with the schema path, when an annotation names no claim", () => {
    const { root, env } = contractProject();
    const broken = contract.replace('"x-returnlint": "artifact"', '"x-returnlint": "artefact"');
    const badRoot = project({ "contracts/review-return.schema.json": broken, "returnlint.config.yaml": config });
    const run = returnlint(["check", "-", "--command", "review"], { cwd: badRoot, env, input: JSON.stringify(done) });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('commands.review.contract: contract ./contracts/review-return.schema.json#/properties/proof/properties/paths/items/x-returnlint: unknown claim "artefact"');
    expect(run.stderr).toContain('(did you mean "artifact"?)');
    expect(root).not.toBe(badRoot);
  });

  it("keeps the compiled schema in the cache folder and gives the same verdict from it", () => {
    const { root, env } = contractProject();
    const first = check(root, env, { ...done, status: "finished" });
    const cached = readdirSync(path.join(root, ".cache", "contracts"));
    expect(cached).toHaveLength(1);
    expect(cached[0]).toMatch(/^[0-9a-f]{16}\.cjs$/);
    const second = check(root, env, { ...done, status: "finished" });
    expect(second.status).toBe(first.status);
    expect(second.report.results).toEqual(first.report.results);
    // The check that first ran the kept code kept V8's code cache of it beside the entry; the next ones start from it.
    const folder = path.join(root, ".cache", "contracts");
    const codeCache = path.join(folder, cached[0]?.replace(/\.cjs$/, ".v8") ?? "");
    expect(readdirSync(folder).sort()).toEqual([cached[0], path.basename(codeCache)]);
    expect(check(root, env, { ...done, status: "finished" }).report.results).toEqual(first.report.results);
    // One another Node wrote, or damaged: V8 refuses it, the code is compiled from source and the cache made again.
    writeFileSync(codeCache, "not a code cache");
    expect(check(root, env, { ...done, status: "finished" }).report.results).toEqual(first.report.results);
    expect(readFileSync(codeCache, "utf8")).not.toBe("not a code cache");
  });

  it("leaves a command without a contract to its preset, and --preset wins over the contract", () => {
    const { root, env } = contractProject();
    const other = returnlint(["check", "-", "--command", "research", "--format", "json"], { cwd: root, env, input: JSON.stringify(done) });
    expect((JSON.parse(other.stdout) as ReportObject).preset).toBe("v7");
    const overridden = check(root, env, done, ["--preset", "v7"]);
    expect(overridden.report.preset).toBe("v7");
    expect(existsSync(path.join(root, "out"))).toBe(false);
  });
});

describe("returnlint schema", () => {
  it("--preset v7 prints a schema ajv compiles, that accepts a well-formed v7 return and rejects one without status", async () => {
    const run = returnlint(["schema", "--preset", "v7"], { cwd: project() });
    expect(run.status).toBe(0);
    const printed = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(JSON.stringify(printed)).not.toContain("x-returnlint");
    const { Ajv2020 } = await import("ajv/dist/2020.js");
    const validateReturn = new Ajv2020({ strict: true }).compile(printed);
    const wellFormed = JSON.parse(readFileSync(path.join(EXAMPLES, "valid-v7", "return.json"), "utf8")) as Record<string, unknown>;
    expect(validateReturn(wellFormed)).toBe(true);
    const { status: _status, ...withoutStatus } = wellFormed;
    expect(validateReturn(withoutStatus)).toBe(false);
    expect(validateReturn.errors?.[0]).toMatchObject({ keyword: "required", params: { missingProperty: "status" } });
    // The command's contextual success status, for a preset whose statuses are contextual.
    const plan = JSON.parse(returnlint(["schema", "--preset", "metadata-file", "--command", "plan"], { cwd: project() }).stdout) as { properties: { status: { enum: string[] } } };
    expect(plan.properties.status.enum).toEqual(["planned", "partial", "failed", "blocked", "in_progress"]);
  });

  it("prints a command's contract without returnlint's annotations, and with them under --annotated", () => {
    const { root, env } = contractProject();
    const bare = returnlint(["schema", "--command", "review"], { cwd: root, env });
    expect(bare.status).toBe(0);
    expect(bare.stdout).not.toContain("x-returnlint");
    const annotated = JSON.parse(returnlint(["schema", "--command", "review", "--annotated"], { cwd: root, env }).stdout) as unknown;
    expect(annotated).toEqual(JSON.parse(contract));
  });
});

describe("what a contract turns on, as the other commands show it", () => {
  it("print-config names the contract, where its claims are and its rules; rules has its column; explain says it turns a rule on", () => {
    const { root, env } = contractProject();
    const printed = JSON.parse(returnlint(["print-config", "--command", "review"], { cwd: root, env }).stdout) as Record<string, unknown>;
    expect(printed).toMatchObject({
      preset: "contract:./contracts/review-return.schema.json",
      format: "contract",
      contract: { file: "./contracts/review-return.schema.json", claims: { artifacts: ["/proof/paths/*"], sessionId: "/session", success: { pointer: "/status", values: ["done"] } } },
    });
    expect(Object.keys(printed.rules as object)).toEqual(["json-structure", "contract", "artifacts", "session-id"]);
    const listed = JSON.parse(returnlint(["rules", "--format", "json"], { cwd: root, env }).stdout) as { id: string; presets: Record<string, string> }[];
    const column = (id: string) => listed.find((rule) => rule.id === id)?.presets["contract:./contracts/review-return.schema.json"];
    expect([column("contract"), column("artifacts"), column("status-enum")]).toEqual(["error", "error", "off"]);
    const explained = returnlint(["explain", "artifacts"], { cwd: root, env });
    expect(explained.stdout).toContain("## In this config\n\n- the contract ./contracts/review-return.schema.json turns it on (error)\n");
  });
});

describe("returnlint init --contract FILE", () => {
  it("writes a config that checks every command under the contract, after checking the contract", () => {
    const root = project({ "contracts/review-return.schema.json": contract, "out/a.md": "# Review\n" });
    const env = { RETURNLINT_CACHE_DIR: path.join(root, ".cache") };
    const written = returnlint(["init", "--contract", "contracts/review-return.schema.json"], { cwd: root, env });
    expect(written.status).toBe(0);
    expect(written.stdout).toContain("Wrote returnlint.config.yaml with the contract ./contracts/review-return.schema.json.");
    expect(readFileSync(path.join(root, "returnlint.config.yaml"), "utf8")).toContain("\ncontract: ./contracts/review-return.schema.json\n");
    const passing = returnlint(["check", "-"], { cwd: root, env, input: JSON.stringify(done) });
    expect(passing.status).toBe(0);
    expect(returnlint(["check", "-"], { cwd: root, env, input: JSON.stringify({ ...done, status: "finished" }) }).status).toBe(1);
  });

  it("writes nothing, exit 2, for a file that is no contract", () => {
    const root = project({ "contracts/bad.json": contract.replace('"x-returnlint": "session-id"', '"x-returnlint": "session"') });
    const run = returnlint(["init", "--contract", "contracts/bad.json"], { cwd: root, env: { RETURNLINT_CACHE_DIR: path.join(root, ".cache") } });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('./contracts/bad.json is no contract returnlint can check with; init wrote nothing:');
    expect(run.stderr).toContain('#/properties/session/x-returnlint: unknown claim "session"');
    expect(existsSync(path.join(root, "returnlint.config.yaml"))).toBe(false);
  });
});

describe("a custom rule under a contract", () => {
  it("sees the claims where the contract says, in its own thread: each artifact's path and pointer, whether they count, the contract's file", () => {
    const rule = `export default {
  id: "claimed-markdown",
  meta: {
    description: "Claimed artifacts are Markdown.",
    docs: "",
    schema: { type: "object" },
    defaultOptions: {},
    messages: { notMarkdown: { text: "{path} is not Markdown (contract {contract})" } },
  },
  check(context) {
    if (!context.claims.counted) return;
    for (const { path, pointer } of context.claims.artifacts) {
      if (!path.endsWith(".md")) context.report({ messageId: "notMarkdown", data: { path, contract: context.contract.file }, pointer });
    }
  },
};
`;
    const { root, env } = contractProject({ "rules/claimed-markdown.mjs": rule, "out/a.md": "# A\n", "out/b.txt": "b\n" });
    writeFileSync(path.join(root, "returnlint.config.yaml"), `${config}    rules:\n      ./rules/claimed-markdown.mjs: error\n`);
    const { status, report } = check(root, env, { ...done, proof: { type: "file", paths: ["out/a.md", "out/b.txt"] } });
    expect(status).toBe(1);
    expect(failures(report)).toEqual(["claimed-markdown/notMarkdown /proof/paths/1"]);
    expect(report.results.find((result) => result.messageId === "notMarkdown")?.message).toBe("out/b.txt is not Markdown (contract ./contracts/review-return.schema.json)");
    // A failed review's claims do not count: the rule says nothing.
    expect(check(root, env, { ...done, status: "failed", proof: { type: "file", paths: ["out/b.txt"] } }).status).toBe(0);
  });
});
