import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ListRootsRequestSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { tempProject } from "@returnlint/testing";

const BIN = fileURLToPath(new URL("../dist/bin.js", import.meta.url));
const PACKAGE = fileURLToPath(new URL("..", import.meta.url));
/** The workspace's returnlint CLI (run, never imported): `returnlint mcp` starts the same server. */
const CLI = fileURLToPath(new URL("../../../apps/cli/dist/returnlint.cjs", import.meta.url));
const TASK = "specs/259_prove_completeness";
const REPORT = `${TASK}/reports/research-001.md`;

const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});

/** A v7 console return naming the report. */
function consoleReturn(artifact: string, sessionId = "sess_1736700000_a1b2c3") {
  return {
    status: "completed",
    summary: "Researched the task and wrote the report.",
    artifacts: [{ type: "report", path: artifact, summary: "Research report" }],
    metadata: { session_id: sessionId, agent_type: "lean-research-agent", delegation_depth: 1, delegation_path: ["orchestrator", "research", "lean-research-agent"] },
  };
}

function metadataFile(artifact: string) {
  return { status: "researched", artifacts: [{ type: "report", path: artifact, summary: "Research report" }], metadata: { session_id: "sess_1736700000_a1b2c3", agent_type: "lean-research-agent" } };
}

/** The server, spawned as a client spawns it: `returnlint-mcp` over stdio, in the project. */
async function connect(root: string, options: { roots?: string[]; args?: string[]; command?: string[] } = {}): Promise<{ client: Client; stderr: () => string }> {
  const client = new Client({ name: "returnlint-tests", version: "1.0.0" }, options.roots === undefined ? {} : { capabilities: { roots: { listChanged: true } } });
  if (options.roots !== undefined) {
    const roots = options.roots;
    client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: roots.map((dir) => ({ uri: `file://${dir}`, name: path.basename(dir) })) }));
  }
  const transport = new StdioClientTransport({ command: process.execPath, args: [...(options.command ?? [BIN]), ...(options.args ?? [])], cwd: root, stderr: "pipe", env: { PATH: process.env.PATH ?? "" } });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  await client.connect(transport);
  clients.push(client);
  return { client, stderr: () => stderr };
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

function text(result: CallToolResult): string {
  return result.content.map((block) => (block.type === "text" ? block.text : "")).join("");
}

describe("returnlint-mcp over stdio, driven by the SDK's Client", { timeout: 30_000 }, () => {
  it("lists the four tools, each with an input schema, read-only", async () => {
    const { client } = await connect(tempProject());
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["validate_return", "check_task", "list_rules", "explain_rule"]);
    for (const tool of tools) expect(tool.annotations?.readOnlyHint).toBe(true);
    expect(tools.find((tool) => tool.name === "validate_return")?.inputSchema.properties).toHaveProperty("sessionId");
  });

  it("validate_return: a phantom return fails, names the missing artifact, and tells the subagent what to do", async () => {
    const root = tempProject();
    const { client } = await connect(root);
    const result = await call(client, "validate_return", { text: JSON.stringify(consoleReturn(REPORT)), command: "research" });
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toMatchObject({ ok: false, command: "research", format: "v7", status: "completed", origin: "bare", errorCount: 1 });
    const results = (result.structuredContent as { results: { ruleId: string; level: string; message: string; pointer?: string }[] }).results;
    expect(results.filter((finding) => finding.level === "fail")).toEqual([expect.objectContaining({ ruleId: "artifacts", message: `Artifact does not exist: ${REPORT}`, pointer: "/artifacts/0/path" })]);
    expect(text(result)).toBe(`- /artifacts/0/path: file "${REPORT}" does not exist; write it, or fix the path.\n`);
  });

  it("validate_return: the same return passes once the report is written, and a final message with a fenced return works too", async () => {
    const root = tempProject({ [REPORT]: "# Research\n\nDone.\n" });
    const { client } = await connect(root);
    const message = `Research done.\n\n\`\`\`json\n${JSON.stringify(consoleReturn(REPORT))}\n\`\`\``;
    const result = await call(client, "validate_return", { text: message, command: "research", sessionId: "sess_1736700000_a1b2c3" });
    expect(result.structuredContent).toMatchObject({ ok: true, errorCount: 0, origin: "fenced" });
    expect(text(result)).toBe('The return is valid (status "completed"); nothing to fix.\n');
  });

  it("validate_return: a session id that differs fails without quoting the expected one", async () => {
    const root = tempProject({ [REPORT]: "# Research\n" });
    const { client } = await connect(root);
    const result = await call(client, "validate_return", { text: JSON.stringify(consoleReturn(REPORT, "sess_1_other")), command: "research", sessionId: "sess_1736700000_a1b2c3" });
    expect(result.structuredContent).toMatchObject({ ok: false });
    expect(text(result)).toContain("/metadata/session_id");
    expect(text(result)).not.toContain("sess_1736700000_a1b2c3");
  });

  it("validate_return with a path: reads the metadata file inside the root", async () => {
    const root = tempProject({ [`${TASK}/.return-meta.json`]: metadataFile(REPORT) });
    const { client } = await connect(root);
    const failed = await call(client, "validate_return", { path: `${TASK}/.return-meta.json`, command: "research" });
    expect(failed.structuredContent).toMatchObject({ ok: false, format: "metadata-file", origin: "file", source: `${TASK}/.return-meta.json` });
    mkdirSync(path.dirname(path.join(root, REPORT)));
    writeFileSync(path.join(root, REPORT), "# Research\n");
    expect((await call(client, "validate_return", { path: `${TASK}/.return-meta.json`, command: "research" })).structuredContent).toMatchObject({ ok: true });
  });

  it("validate_return refuses a path outside the root, and one through a symlink out of it, with a sentence", async () => {
    const outside = tempProject({ "theirs/.return-meta.json": metadataFile("x.md") });
    const root = tempProject();
    symlinkSync(path.join(outside, "theirs"), path.join(root, "specs"));
    const { client } = await connect(root);
    for (const given of ["../x/.return-meta.json", path.join(outside, "theirs/.return-meta.json")]) {
      const refused = await call(client, "validate_return", { path: given });
      expect(refused.isError).toBe(true);
      expect(text(refused)).toContain("is outside the project root");
      expect(refused.structuredContent).toBeUndefined();
    }
    const linked = await call(client, "validate_return", { path: "specs/.return-meta.json" });
    expect(linked.isError).toBe(true);
    expect(text(linked)).toContain("specs is a symbolic link");
    expect(text(linked)).not.toContain(outside);
  });

  it("validate_return with a transcript: the claims rules weigh the return against it; one outside the root and the hosts' folders is refused", async () => {
    const rollout = fileURLToPath(new URL("../../core/src/transcript/fixtures/codex-0.169.0/subagent.jsonl", import.meta.url));
    const root = tempProject({ [REPORT]: "# Research\n", "returnlint.config.json": JSON.stringify({ preset: "v7", rules: { "test-claims": "error" } }) });
    copyFileSync(rollout, path.join(root, "rollout.jsonl"));
    const { client } = await connect(root);
    const claimed = JSON.stringify({ ...consoleReturn(REPORT), tests_passed: true });
    const checked = await call(client, "validate_return", { text: claimed, command: "research", transcript: "rollout.jsonl" });
    expect(checked.structuredContent).toMatchObject({ ok: false });
    expect(text(checked)).toContain("your last test run failed (transcript line");
    expect(text(checked)).toContain("node --test: # fail 1");
    const refused = await call(client, "validate_return", { text: claimed, command: "research", transcript: rollout });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toContain("transcript must lie inside the project root or a host's transcript folder");
  });

  it("bad arguments are tool errors with a sentence, and the server keeps answering", async () => {
    const { client } = await connect(tempProject());
    const both = await call(client, "validate_return", { text: "{}", path: "r.json" });
    expect(both).toMatchObject({ isError: true });
    expect(text(both)).toBe("Give exactly one of text (the return itself) and path (a file holding it).");
    expect(text(await call(client, "validate_return", {}))).toBe("Give exactly one of text (the return itself) and path (a file holding it).");
    const wrongType = await call(client, "validate_return", { text: 42 });
    expect(wrongType.isError).toBe(true);
    expect(text(wrongType)).toMatch(/Invalid arguments for tool validate_return/);
    const misspelt = await call(client, "validate_return", { text: "{}", command: "reserch" });
    expect(text(misspelt)).toMatch(/^Unknown command "reserch" \(did you mean "research"\?\)/);
    expect((await call(client, "check_task", { task: "../1" })).isError).toBe(true);
    expect((await client.listTools()).tools).toHaveLength(4);
  });

  it("check_task: the task's metadata file, and a task folder without one is a finding", async () => {
    const root = tempProject({ [`${TASK}/.return-meta.json`]: metadataFile(REPORT), [REPORT]: "# Research\n", "specs/260_other/reports/.keep": "" });
    const { client } = await connect(root);
    expect((await call(client, "check_task", { task: "259" })).structuredContent).toMatchObject({ ok: true, task: "259", status: "researched", source: `${TASK}/.return-meta.json` });
    const missing = await call(client, "check_task", { task: "260" });
    expect(missing.structuredContent).toMatchObject({ ok: false, task: "260", results: [expect.objectContaining({ ruleId: "json-structure", messageId: "missingFile" })] });
  });

  it("check_task and validate_return take the task as a number or a string of digits, as docs/mcp.md says, and reach prefixed task folders", async () => {
    const root = tempProject({ [`${TASK}/.return-meta.json`]: metadataFile(REPORT), [REPORT]: "# Research\n", "specs/OC_503_port_commands/.return-meta.json": metadataFile(REPORT) });
    const { client } = await connect(root);
    // OpenCode's task folders carry a prefix: task 503 is specs/OC_503_…
    expect((await call(client, "check_task", { task: 503 })).structuredContent).toMatchObject({ task: "503", source: "specs/OC_503_port_commands/.return-meta.json" });
    const byNumber = await call(client, "check_task", { task: 259 });
    expect(byNumber.isError).toBeFalsy();
    expect(byNumber.structuredContent).toMatchObject({ ok: true, task: "259", source: `${TASK}/.return-meta.json` });
    expect((await call(client, "validate_return", { path: `${TASK}/.return-meta.json`, task: 259 })).structuredContent).toMatchObject({ ok: true, task: "259" });
    for (const task of [-1, 2.5, "25a"]) {
      const refused = await call(client, "check_task", { task });
      expect(refused.isError, String(task)).toBe(true);
      expect(text(refused)).toMatch(/Invalid arguments for tool check_task/);
    }
  });

  it("list_rules and explain_rule answer as returnlint rules and explain do", async () => {
    const { client } = await connect(tempProject());
    const listed = await call(client, "list_rules");
    const rules = (listed.structuredContent as { rules: { id: string; builtin: boolean }[] }).rules;
    expect(rules.map((rule) => rule.id)).toContain("artifacts");
    expect(rules.every((rule) => rule.builtin)).toBe(true);
    const explained = await call(client, "explain_rule", { rule: "artifacts" });
    // The rule's README, word for word what `returnlint explain artifacts` prints.
    const cli = spawnSync(process.execPath, [CLI, "explain", "artifacts"], { encoding: "utf8", timeout: 20_000 });
    expect(cli.status).toBe(0);
    expect(text(explained)).toBe(cli.stdout);
    expect(text(explained)).toContain("## Options");
    const unknown = await call(client, "explain_rule", { rule: "artifact" });
    expect(unknown.isError).toBe(true);
    expect(text(unknown)).toBe('Unknown rule "artifact" (did you mean "artifacts"?). "returnlint rules" lists the rules.');
  });

  it("re-reads the config when its file changes", async () => {
    const root = tempProject({ "returnlint.config.json": { commands: { survey: {} } } });
    const { client } = await connect(root);
    const given = { text: JSON.stringify(consoleReturn(REPORT)), command: "audit-trail" };
    expect(text(await call(client, "validate_return", given))).toMatch(/^Unknown command "audit-trail"/);
    writeFileSync(path.join(root, "returnlint.config.json"), JSON.stringify({ commands: { survey: {}, "audit-trail": {} } }));
    expect((await call(client, "validate_return", given)).structuredContent).toMatchObject({ command: "audit-trail" });
  });

  it("a broken config is said on each call, not a crash", async () => {
    const root = tempProject({ "returnlint.config.json": "{ not json" });
    const { client } = await connect(root);
    const result = await call(client, "list_rules");
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/^Config .*returnlint\.config\.json is not valid JSON/);
  });

  it("takes the project root from the client's roots when it sends them", async () => {
    const elsewhere = tempProject();
    const root = tempProject({ [REPORT]: "# Research\n" });
    const { client } = await connect(elsewhere, { roots: [root] });
    // The server asks for the roots once it is initialised: the first answer may still use its cwd.
    let result: CallToolResult | undefined;
    for (let attempt = 0; attempt < 50; attempt++) {
      result = await call(client, "validate_return", { text: JSON.stringify(consoleReturn(REPORT)), command: "research" });
      if ((result.structuredContent as { ok?: boolean } | undefined)?.ok === true) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(result?.structuredContent).toMatchObject({ ok: true });
  });

  it("writes nothing in the project", async () => {
    const root = tempProject({ [`${TASK}/.return-meta.json`]: metadataFile(REPORT) });
    const { client } = await connect(root);
    await call(client, "check_task", { task: "259" });
    await call(client, "validate_return", { text: JSON.stringify(consoleReturn(REPORT)) });
    expect(readdirSync(root)).toEqual(["specs"]);
    expect(readdirSync(path.join(root, TASK))).toEqual([".return-meta.json"]);
  });

  it("returnlint mcp starts the same server, found in the project's node_modules", async () => {
    const root = tempProject({ [REPORT]: "# Research\n" });
    mkdirSync(path.join(root, "node_modules", "@returnlint"), { recursive: true });
    symlinkSync(PACKAGE, path.join(root, "node_modules", "@returnlint", "mcp"));
    const { client } = await connect(root, { command: [CLI, "mcp"] });
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["validate_return", "check_task", "list_rules", "explain_rule"]);
    expect((await call(client, "validate_return", { text: JSON.stringify(consoleReturn(REPORT)), command: "research" })).structuredContent).toMatchObject({ ok: true });
  });

  it("returnlint mcp without @returnlint/mcp installed says what to run (exit 2), and writes nothing on standard output", () => {
    // returnlint's vendored copy (init claude --vendor), away from this clone, whose server the CLI would find.
    const root = tempProject();
    const copy = path.join(root, "returnlint.cjs");
    copyFileSync(path.join(path.dirname(CLI), "returnlint-vendored.cjs"), copy);
    copyFileSync(path.join(path.dirname(CLI), "returnlint-vendored.pack"), path.join(root, "returnlint.pack"));
    // Not the test runner's environment: pnpm's NODE_PATH would find the workspace's copy.
    const ran = spawnSync(process.execPath, [copy, "mcp"], { cwd: root, input: "", encoding: "utf8", timeout: 20_000, env: { PATH: process.env.PATH ?? "", HOME: root } });
    expect(ran.status).toBe(2);
    expect(ran.stdout).toBe("");
    expect(ran.stderr).toMatch(/^returnlint: returnlint mcp runs the server of the @returnlint\/mcp package, which is not installed here\. .*docs\/install\.md.*\n$/);
  });

  it("returnlint-mcp --help, --version and a wrong flag", () => {
    const help = spawnSync(process.execPath, [BIN, "--help"], { encoding: "utf8", timeout: 20_000 });
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^Usage: returnlint-mcp \[options\]/);
    const version = spawnSync(process.execPath, [BIN, "--version"], { encoding: "utf8", timeout: 20_000 });
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    const wrong = spawnSync(process.execPath, [BIN, "--fix"], { encoding: "utf8", timeout: 20_000 });
    expect(wrong.status).toBe(2);
    expect(wrong.stdout).toBe("");
    expect(wrong.stderr).toMatch(/^returnlint-mcp: Unknown option '--fix'.*Run "returnlint-mcp --help"\.\n$/);
  });
});
