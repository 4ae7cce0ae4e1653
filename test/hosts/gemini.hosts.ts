import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jsonSnippet } from "./docs.js";
import { acknowledgments, FINISHED, geminiAgentFile, geminiAlwaysPhantom, geminiGeneralistThenGoodReturn, geminiHome, geminiPhantomThenFixed, PARENT_REASON, RESEARCHER, returnlintIn, runGemini, USE_GENERALIST } from "./gemini.js";
import { cleanUp, linkWorkspaceCli, readJson, tempDir, writeFiles } from "./hosts.js";
import { startModelServer, type ModelServer } from "./model-server.js";
import { PARENT_PROMPT, REPORT, RESEARCHER_PROMPT } from "./scenarios.js";

// The real Gemini CLI, headless, against the scripted model. Gemini CLI has no subagent-stop
// event: the hook runs after the parent's invoke_agent call, and a block replaces what the parent
// receives with the reason. What the hook did is read from what Gemini CLI sent the model next
// (the parent's next request), the files on disk and the verdicts.

let server: ModelServer;

beforeAll(async () => {
  server = await startModelServer();
});

afterAll(async () => {
  await server.close();
  cleanUp();
});

/** A project with the researcher and a planner in .gemini/agents/, returnlint installed, set up by `returnlint init gemini` (with `flags`). */
async function project(flags: readonly string[] = []): Promise<string> {
  const root = tempDir("gemini");
  writeFiles(root, {
    [`.gemini/agents/${RESEARCHER}.md`]: geminiAgentFile(RESEARCHER, RESEARCHER_PROMPT),
    ".gemini/agents/planner.md": geminiAgentFile("planner", "You plan tasks."),
  });
  linkWorkspaceCli(root);
  const init = await returnlintIn(root, ["init", "gemini", ...flags]);
  expect(init.status, init.stderr).toBe(0);
  return root;
}

/** A home where the project's agents are acknowledged (the workspace is trusted by GEMINI_CLI_TRUST_WORKSPACE, as in CI). */
const homeFor = (root: string) => geminiHome({ acknowledged: { root, agents: [RESEARCHER, "planner"] } });

function verdicts(root: string): Record<string, Record<string, unknown>> {
  const dir = path.join(root, ".returnlint", "verdicts");
  if (!existsSync(dir)) return {};
  return Object.fromEntries(readdirSync(dir).map((name) => [name, readJson(path.join(dir, name))]));
}

/** The one verdict a run left, by its file name. */
function onlyVerdict(root: string): [string, Record<string, unknown>] {
  const all = Object.entries(verdicts(root));
  expect(all).toHaveLength(1);
  return all[0] as [string, Record<string, unknown>];
}

const settingsOf = (root: string) => readJson(path.join(root, ".gemini", "settings.json"));

describe("Gemini CLI 0.61.0 with returnlint hook gemini", () => {
  it("init gemini writes the docs' settings; a phantom return reaches the parent as the reason, the parent runs the subagent again, the fixed return passes", async () => {
    const root = await project();
    expect(settingsOf(root)).toEqual(jsonSnippet("gemini-settings"));
    server.play(geminiPhantomThenFixed(root));
    const run = await runGemini(root, PARENT_PROMPT, { server, home: homeFor(root) });
    expect(run.status, run.stderr).toBe(0);

    const parent = server.of("main");
    expect(parent.map((request) => request.turn)).toEqual(["parent delegates", "parent runs it again with returnlint's reason", "parent reads the result"]);
    // The parent's next request holds the hook's reason where the return was: invoke_agent failed with it.
    const told = parent[1]?.input ?? "";
    expect(told).toContain(`[invoke_agent] error: ${PARENT_REASON}\n1. Artifact does not exist: ${REPORT}\n`);
    expect(told).toContain("\nWhat it returned, which this message replaces:\nResearch complete.\n");
    expect(told).not.toContain(FINISHED);
    // The subagent ran twice, each a fresh run: Gemini CLI does not send it back, the parent does.
    const subagent = server.of(RESEARCHER);
    expect(subagent.map((request) => request.turn)).toEqual(["subagent returns", "subagent writes the report it was told is missing", "subagent returns"]);
    expect(subagent[1]?.messages).toBe(1);
    expect(subagent[1]?.input).toContain(`Artifact does not exist: ${REPORT}`);
    expect(readFileSync(path.join(root, REPORT), "utf8")).toContain("The lemmas are in place.");
    // The fixed return reaches the parent as Gemini CLI words it.
    expect(parent[2]?.input).toContain(`[invoke_agent] output: ${FINISHED}\nTermination Reason: GOAL\nResult:\nResearch complete.`);

    const [name, verdict] = onlyVerdict(root);
    expect(verdict).toMatchObject({ ok: true, status: "completed", command: "research", agentType: RESEARCHER, agentId: null, attempts: 2, decision: "pass", origin: "fenced" });
    expect(name).toBe(`${RESEARCHER}--${String(verdict.sessionId)}.json`);
    // The session the verdict names is the one Gemini CLI ran.
    expect(run.events.find((event) => event.type === "init")).toMatchObject({ session_id: verdict.sessionId });
  });

  it("counts the parent's re-invocations: the same problems twice, and the second failing return reaches the parent as it is", async () => {
    const root = await project();
    server.play(geminiAlwaysPhantom());
    const run = await runGemini(root, PARENT_PROMPT, { server, home: homeFor(root) });
    expect(run.status, run.stderr).toBe(0);
    expect(server.of(RESEARCHER)).toHaveLength(2);
    const parent = server.of("main");
    expect(parent.map((request) => request.turn)).toEqual(["parent delegates", "parent runs it again with returnlint's reason", "parent reads the result"]);
    expect(parent[2]?.input).toContain(`[invoke_agent] output: ${FINISHED}`);
    expect(onlyVerdict(root)[1]).toMatchObject({ ok: false, attempts: 2, decision: "allow", allowedBecause: "repeated-feedback" });
  });

  it("leaves Gemini CLI's own generalist alone even with --command research, and never blocks a good return (the vendored copy, --vendor)", async () => {
    const root = await project(["--vendor"]);
    const settings = settingsOf(root) as { hooks: { AfterTool: { hooks: { command: string }[] }[] } };
    const hook = settings.hooks.AfterTool[0]?.hooks[0];
    expect(hook?.command).toBe("node $GEMINI_PROJECT_DIR/.gemini/hooks/returnlint.cjs hook gemini");
    if (hook !== undefined) hook.command += " --command research";
    writeFileSync(path.join(root, ".gemini", "settings.json"), JSON.stringify(settings));
    server.play(geminiGeneralistThenGoodReturn(root));
    const run = await runGemini(root, USE_GENERALIST, { server, home: homeFor(root) });
    expect(run.status, run.stderr).toBe(0);

    const parent = server.of("main");
    expect(server.requests.map((request) => request.turn).filter((turn) => turn !== null)).toEqual([
      "parent asks the generalist",
      "generalist answers in prose",
      "parent delegates the research",
      "subagent writes its report",
      "subagent returns",
      "parent reads the result",
    ]);
    expect(parent.find((request) => request.turn === "parent delegates the research")?.input).toContain("[invoke_agent] output: Subagent 'generalist' finished.\nTermination Reason: GOAL\nResult:\n{\n  \"response\": \"Task 259 asks for a completeness proof; the lemmas exist, in prose.\"\n}");
    expect(parent.find((request) => request.turn === "parent reads the result")?.input).toContain(`[invoke_agent] output: ${FINISHED}`);
    expect(server.requests.filter((request) => request.input.includes("failed validation"))).toEqual([]);
    // The hook ran: the researcher's verdict, and none for the generalist.
    expect(onlyVerdict(root)[1]).toMatchObject({ ok: true, agentType: RESEARCHER, attempts: 1, decision: "pass" });
  });

  it("doctor says what Gemini CLI does: an untrusted folder runs nothing, an unacknowledged agent is not loaded, then the hook runs", async () => {
    const root = await project();
    server.play(geminiPhantomThenFixed(root));
    const untrusted = { GEMINI_CLI_TRUST_WORKSPACE: undefined };

    // Not trusted: headless Gemini CLI refuses to start (an interactive one ignores the project's settings); doctor fails the setup.
    let home = geminiHome();
    const refused = await runGemini(root, PARENT_PROMPT, { server, home, env: untrusted });
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toContain("Gemini CLI is not running in a trusted directory");
    expect(server.requests).toEqual([]);
    let doctor = await returnlintIn(root, ["doctor", "--host", "gemini"], { HOME: home, ...untrusted });
    expect(doctor.stdout).toContain(`  ✗ the folder is not trusted (no rule of ~/.gemini/trustedFolders.json covers ${root})`);
    expect(doctor.status).toBe(1);

    // Trusted as Gemini CLI's dialog records it, the agents not acknowledged: the researcher is not loaded, so nothing is checked.
    home = geminiHome({ trusted: [root] });
    const unknown = await runGemini(root, PARENT_PROMPT, { server, home, env: untrusted });
    expect(unknown.status, unknown.stderr).toBe(0);
    expect(server.of(RESEARCHER)).toEqual([]);
    expect(verdicts(root)).toEqual({});
    doctor = await returnlintIn(root, ["doctor", "--host", "gemini"], { HOME: home, ...untrusted });
    expect(doctor.stdout).toContain(`  ✓ the folder is trusted: ~/.gemini/trustedFolders.json marks ${root} TRUST_FOLDER\n`);
    expect(doctor.stdout).toContain(`  ✗ Gemini CLI does not load ${RESEARCHER} and planner: their files are not acknowledged as they are now`);
    expect(doctor.status).toBe(1);

    // Acknowledged: the hook runs (the phantom is blocked), and doctor passes.
    writeFiles(home, { ".gemini/acknowledgments/agents.json": acknowledgments(root, [RESEARCHER, "planner"]) });
    server.play(geminiPhantomThenFixed(root));
    const works = await runGemini(root, PARENT_PROMPT, { server, home, env: untrusted });
    expect(works.status, works.stderr).toBe(0);
    expect(server.of("main")[1]?.input).toContain(PARENT_REASON);
    expect(onlyVerdict(root)[1]).toMatchObject({ ok: true, attempts: 2 });
    doctor = await returnlintIn(root, ["doctor", "--host", "gemini"], { HOME: home, ...untrusted });
    expect(doctor.stdout, doctor.stdout).toContain("Every host checked can run returnlint.\n");
    expect(doctor.status).toBe(0);
  });
});
