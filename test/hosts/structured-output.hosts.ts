import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, cleanUp, quietEnv, REPO, run, tempDir } from "./hosts.js";
import { startModelServer, type ModelServer } from "./model-server.js";
import { ensureConsumers, runDriver } from "./structured-output.js";

// Issue 33: the schema `returnlint schema` prints is accepted by the real SDKs that take one as a
// subagent's structured output, and what they return under it is what returnlint checks under the
// same contract. The OpenAI Agents SDK and the AI SDK send it to a scripted model on 127.0.0.1
// (the schema arrives in the request's response_format); Claude Code, under the Claude Agent SDK,
// validates the model's StructuredOutput call against it itself.

const BIN = path.join(CLI, "dist", "returnlint.js");
const EXAMPLE = path.join(REPO, "examples", "contract-proof");
const review = { status: "done", summary: "Reviewed the parser: two findings.", proof: { type: "file", paths: ["out/review.md"] } };
const v7 = JSON.parse(readFileSync(path.join(REPO, "examples", "valid-v7", "return.json"), "utf8")) as Record<string, unknown>;

let server: ModelServer;
let work: string;
let env: Record<string, string>;

async function returnlint(args: readonly string[], cwd: string, input?: string): Promise<{ status: number | null; stdout: string }> {
  const finished = await run(process.execPath, [BIN, ...args], { cwd, env, timeoutMs: 60_000, ...(input === undefined ? {} : { input }) });
  return { status: finished.status, stdout: finished.stdout };
}

/** What `returnlint schema ARGS` prints in `cwd`, written to a file for a driver. */
async function printedSchema(name: string, args: readonly string[], cwd: string): Promise<{ file: string; schema: unknown }> {
  const printed = await returnlint(["schema", ...args], cwd);
  expect(printed.status).toBe(0);
  const file = path.join(work, `${name}.schema.json`);
  writeFileSync(file, printed.stdout);
  return { file, schema: JSON.parse(printed.stdout) as unknown };
}

beforeAll(async () => {
  ensureConsumers();
  server = await startModelServer();
  work = tempDir("structured-output");
  env = quietEnv({ RETURNLINT_CACHE_DIR: path.join(work, ".cache") });
}, 600_000);

afterAll(async () => {
  await server.close();
  cleanUp();
});

describe("returnlint schema, handed to the SDKs' structured output", () => {
  for (const driver of ["openai-agents.mjs", "ai-sdk.mjs"]) {
    it(`${driver}: sends a contract's schema and a preset's as they were printed, and returns what the model answered`, async () => {
      const contract = await printedSchema("review", ["--command", "review"], EXAMPLE);
      const fromContract = await runDriver(driver, contract.file, review);
      expect((fromContract.sent as { json_schema: { schema: unknown } }).json_schema.schema).toEqual(contract.schema);
      expect(fromContract.output).toEqual(review);

      const preset = await printedSchema("v7", ["--preset", "v7"], work);
      const fromPreset = await runDriver(driver, preset.file, v7);
      expect((fromPreset.sent as { json_schema: { schema: unknown } }).json_schema.schema).toEqual(preset.schema);
      expect(fromPreset.output).toEqual(v7);

      // What the SDK returned is checked by returnlint under the same contract: the file it claims is there, so it passes.
      const checked = await returnlint(["check", "-", "--command", "review", "--quiet"], EXAMPLE, JSON.stringify(fromContract.output));
      expect(checked.status).toBe(0);
    });
  }

  it("claude-agent-sdk.mjs: Claude Code takes the printed schema as outputFormat, refuses a StructuredOutput call that breaks it, and returns the one that follows it", async () => {
    const contract = await printedSchema("review-claude", ["--command", "review"], EXAMPLE);
    server.play({
      name: "structured output",
      turns: [
        { name: "finished", agent: "main", times: 1, reply: [{ tool: "StructuredOutput", input: { ...review, status: "finished" } }] },
        { name: "done", agent: "main", times: 1, reply: [{ tool: "StructuredOutput", input: review }] },
        { name: "end", agent: "main", reply: [{ text: "Returned." }] },
      ],
    });
    const result = await runDriver("claude-agent-sdk.mjs", contract.file, review, {
      ANTHROPIC_BASE_URL: server.url,
      ANTHROPIC_API_KEY: "dummy",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      DISABLE_AUTOUPDATER: "1",
      DISABLE_TELEMETRY: "1",
      DISABLE_ERROR_REPORTING: "1",
    });
    expect(result).toEqual({ subtype: "success", output: review });
    const turns = server.of("main").map((request) => request.turn);
    expect(turns.slice(0, 2)).toEqual(["finished", "done"]);
    // Claude Code told the model why its first call was refused: the status the schema does not allow.
    expect(server.of("main")[1]?.input).toMatch(/status/);
  });
});
