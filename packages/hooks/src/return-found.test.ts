import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { tempProject } from "@returnlint/testing";
import { afterAll, describe, expect, it } from "vitest";
import { runClaudeHook, STATE_DIR } from "./index.js";

// The return is where the subagent put it: the metadata file its transcript shows it wrote, else
// its final message when that holds one, else the file it or its prompt names. Agents of the
// projects returnlint serves write their metadata file and end with a few bullets, not JSON.

const TASK = "specs/412_prove_soundness";
const META = `${TASK}/.return-meta.json`;
const REPORT = `${TASK}/reports/research-001.md`;
const BULLETS = "- Researched the soundness lemmas\n- Wrote the report\n- Next: /plan 412";
const PROMPT = `Research task 412.\n\nDelegation context:\n{"task_number": 412, "metadata_file_path": "${META}"}`;

const roots: string[] = [];
afterAll(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function project(files: Readonly<Record<string, unknown>> = {}): string {
  const root = tempProject(files);
  roots.push(root);
  return root;
}

function metadata(artifact: string, status = "researched"): Record<string, unknown> {
  return {
    status,
    summary: "Researched the soundness lemmas; the report lists them.",
    artifacts: [{ type: "report", path: artifact, summary: "Research report" }],
    metadata: { session_id: "sess_1736700000_abc123", agent_type: "general-research-agent", delegation_depth: 1, delegation_path: ["orchestrator", "research", "general-research-agent"] },
  };
}

/** A Claude Code subagent transcript: the delegation prompt, then one Write tool call per file (a failed one when said). */
function transcript(root: string, prompt: string, writes: readonly { file: string; failed?: boolean }[]): string {
  const lines: unknown[] = [{ type: "user", isSidechain: true, cwd: root, message: { role: "user", content: prompt } }];
  writes.forEach(({ file, failed }, index) => {
    const id = `toolu_${String(index)}`;
    lines.push({ type: "assistant", isSidechain: true, cwd: root, message: { role: "assistant", content: [{ type: "tool_use", id, name: "Write", input: { file_path: path.join(root, file), content: "…" } }] } });
    lines.push({ type: "user", isSidechain: true, cwd: root, message: { role: "user", content: [{ type: "tool_result", tool_use_id: id, ...(failed === true ? { is_error: true } : {}), content: failed === true ? "EACCES" : "File created successfully" }] } });
  });
  const file = path.join(root, "agent-a4e1f2c3.jsonl");
  writeFileSync(file, `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`);
  return file;
}

async function stop(root: string, message: string, options: { transcriptPath?: string; agent?: string } = {}): Promise<{ status: number; stdout: string; stderr: string; verdict: Record<string, unknown> }> {
  let stdout = "";
  let stderr = "";
  const agent = options.agent ?? "general-research-agent";
  const payload = {
    session_id: "9f3c2a51-6d0e-4b8a-9a41-2f7c1e0d5b66",
    cwd: root,
    hook_event_name: "SubagentStop",
    stop_hook_active: false,
    agent_id: "a4e1f2c3",
    agent_type: agent,
    last_assistant_message: message,
    ...(options.transcriptPath === undefined ? {} : { agent_transcript_path: options.transcriptPath }),
  };
  const status = await runClaudeHook({ payloadText: JSON.stringify(payload), cwd: root, stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) });
  const verdicts = path.join(root, STATE_DIR, "verdicts");
  const named = [`task-412.json`, `${agent}--a4e1f2c3.json`].map((name) => path.join(verdicts, name));
  const verdict = named.map((file) => readIfThere(file)).find((text) => text !== undefined);
  return { status, stdout, stderr, verdict: verdict === undefined ? {} : (JSON.parse(verdict) as Record<string, unknown>) };
}

function readIfThere(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

const reasonOf = (stdout: string) => (JSON.parse(stdout) as { decision: string; reason: string }).reason;

describe("the hook finds the return where the subagent put it", { timeout: 30_000 }, () => {
  it("bullets after writing a good metadata file: the file is the return, and the stop goes through", async () => {
    const root = project({ [REPORT]: "# Research\n", [META]: metadata(REPORT) });
    const answer = await stop(root, BULLETS, { transcriptPath: transcript(root, PROMPT, [{ file: REPORT }, { file: META }]) });
    expect(answer).toMatchObject({ status: 0, stdout: "", stderr: "" });
    expect(answer.verdict).toMatchObject({ ok: true, status: "researched", origin: "file", source: META, task: "412", decision: "pass" });
  });

  it("the metadata file names a report never written: blocked once, the reason names the file", async () => {
    const root = project({ [META]: metadata(REPORT) });
    const answer = await stop(root, BULLETS, { transcriptPath: transcript(root, PROMPT, [{ file: META }]) });
    expect(reasonOf(answer.stdout)).toContain(`returnlint: Your return in ${META} failed validation for /research`);
    expect(reasonOf(answer.stdout)).toContain(`- /artifacts/0/path: file "${REPORT}" does not exist; write it, or fix the path.`);
    expect(answer.verdict).toMatchObject({ ok: false, phantom: true, decision: "block", source: META });
  });

  it("the file written last wins, whichever task the bullets mention", async () => {
    const other = "specs/9_other/.return-meta.json";
    const root = project({ [REPORT]: "# Research\n", [META]: metadata(REPORT), [other]: metadata("specs/9_other/reports/missing.md") });
    const answer = await stop(root, `${BULLETS}\n- See specs/9_other/ for the earlier attempt`, { transcriptPath: transcript(root, PROMPT, [{ file: other }, { file: META }]) });
    expect(answer).toMatchObject({ status: 0, stdout: "" });
    expect(answer.verdict).toMatchObject({ ok: true, source: META });
  });

  it("a write whose result is an error does not count as writing the file", async () => {
    const root = project();
    const answer = await stop(root, BULLETS, { transcriptPath: transcript(root, PROMPT, [{ file: META, failed: true }]) });
    // Told to write it (the prompt names it), wrote none: the missing return, for the task the prompt names.
    expect(reasonOf(answer.stdout)).toContain(`- (the whole return): you wrote no return metadata file; write ${META} (status, artifacts, metadata) before you stop`);
  });

  it("told by its prompt to write a metadata file and wrote none: the missing-return finding, never a JSON syntax error", async () => {
    const root = project({ [`${TASK}/reports/.keep`]: "" });
    const answer = await stop(root, BULLETS, { transcriptPath: transcript(root, PROMPT, []) });
    const reason = reasonOf(answer.stdout);
    expect(reason).toContain(`- (the whole return): you wrote no return metadata file; write ${META} (status, artifacts, metadata) before you stop`);
    expect(reason).toMatch(/^returnlint: Your return \(specs\/412_prove_soundness\/\.return-meta\.json\) failed validation for \/research \(1 problem, attempt 1\):\n/);
    expect(reason).toMatch(/\nWrite the metadata file as your instructions say, then finish again\.$/);
    expect(reason).not.toMatch(/not valid JSON|invalid number/);
    expect(answer.verdict).toMatchObject({ ok: false, origin: "file", source: META, errors: [`Return metadata file does not exist: ${META}`] });
  });

  it("a task folder with a prefix (OC_N_SLUG), named by the prompt, is where the missing file should be", async () => {
    const root = project({ "specs/OC_503_port_commands/reports/.keep": "" });
    const prompt = 'Research task 503.\n{"metadata_file_path": "specs/OC_503_port_commands/.return-meta.json"}';
    const answer = await stop(root, BULLETS, { transcriptPath: transcript(root, prompt, []) });
    expect(reasonOf(answer.stdout)).toContain("- (the whole return): you wrote no return metadata file; write specs/OC_503_port_commands/.return-meta.json (status, artifacts, metadata) before you stop");
  });

  it("a padded task folder the prompt names is the task as --task names it: one verdict, task-7, for specs/007_x and \"task 7\"", async () => {
    const root = project({ "specs/007_prove_lemma/reports/.keep": "" });
    const prompt = 'Research task 7.\n{"metadata_file_path": "specs/007_prove_lemma/.return-meta.json"}';
    await stop(root, BULLETS, { transcriptPath: transcript(root, prompt, []) });
    const verdicts = path.join(root, STATE_DIR, "verdicts");
    expect(readdirSync(verdicts)).toEqual(["task-7.json"]);
    expect(JSON.parse(readFileSync(path.join(verdicts, "task-7.json"), "utf8"))).toMatchObject({ ok: false, task: "7", source: "specs/007_prove_lemma/.return-meta.json" });
  });

  it("told by its definition, with a prompt that names no task: the layout's name for the file", async () => {
    const root = project({ ".claude/agents/general-research-agent.md": `---\nname: general-research-agent\n---\nWrite specs/{N}_{SLUG}/.return-meta.json, then return a brief text summary (3-6 bullet points), NOT JSON.\n` });
    const answer = await stop(root, BULLETS, { transcriptPath: transcript(root, "Research the soundness lemmas.", []) });
    expect(reasonOf(answer.stdout)).toContain("- (the whole return): you wrote no return metadata file; write specs/{N}_{SLUG}/.return-meta.json (status, artifacts, metadata) before you stop");
  });

  it("an agent never told of a metadata file that ends in bullets: its reply holds no return, said as such", async () => {
    const root = project();
    const answer = await stop(root, BULLETS, { transcriptPath: transcript(root, "Research the soundness lemmas.", []) });
    const reason = reasonOf(answer.stdout);
    expect(reason).toContain("- (the whole return): your reply contains no JSON object; end it with your JSON return, not prose");
    expect(reason).not.toMatch(/not valid JSON|invalid number/);
  });

  it("a final message that holds a return is the return, even with a transcript", async () => {
    const root = project({ [REPORT]: "# Research\n" });
    const value = { ...metadata(REPORT, "completed") };
    const answer = await stop(root, `Done.\n\n\`\`\`json\n${JSON.stringify(value)}\n\`\`\``, { transcriptPath: transcript(root, "Research task 412.", [{ file: REPORT }]) });
    expect(answer).toMatchObject({ status: 0, stdout: "" });
    expect(answer.verdict).toMatchObject({ ok: true, origin: "fenced", source: "message" });
  });

  it("a handoff the subagent wrote is its return when its message holds none; one written and removed again is not", async () => {
    const handoff = `${TASK}/.orchestrator-handoff.json`;
    const gone = "specs/9_other/.orchestrator-handoff.json";
    const root = project({ [handoff]: { task_number: 412 } });
    const answer = await stop(root, BULLETS, { transcriptPath: transcript(root, "Implement task 412.", [{ file: handoff }, { file: gone }]) });
    expect(answer.verdict).toMatchObject({ ok: false, source: handoff });
    expect(reasonOf(answer.stdout)).toContain(`Your return in ${handoff} failed validation`);
  });
});
