import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { commandForAgent } from "@returnlint/api";
import { cloneRealRepository, git, realRepository } from "@returnlint/testing";
import { returnlint } from "./helpers.js";

// A real repository's agents in both eras of their definitions (../shared/repos/README.md), cloned at
// test time into a temporary folder, never copied into the project. Its first agents return a line of
// their own (a report's path) and no JSON; its later ones a JSON return or a metadata file. Nothing
// here knows an agent's name: the names come from the repository's files, through the name rule.
const BUNDLE = realRepository("ProofChecker");
const absent = BUNDLE === undefined;
const skipped = absent ? " (skipped: no ../shared/repos/ProofChecker.bundle here)" : "";

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function clone(at: "first-agents" | "agents"): string {
  const dir = path.join(mkdtempSync(path.join(tmpdir(), "returnlint-agents-")), "repo");
  folders.push(path.dirname(dir));
  cloneRealRepository(BUNDLE ?? "", dir, at);
  return dir;
}

/** A SubagentStop payload of Claude Code for `agent`, ending with `message`. */
function stop(root: string, agent: string, message: string): string {
  return JSON.stringify({
    session_id: "9f3c2a51-6d0e-4b8a-9a41-2f7c1e0d5b66",
    transcript_path: path.join(root, ".no-transcript.jsonl"),
    cwd: root,
    permission_mode: "default",
    hook_event_name: "SubagentStop",
    stop_hook_active: false,
    agent_id: "a4e1f2c3",
    agent_type: agent,
    last_assistant_message: message,
  });
}

/** The agents the project defines in `.claude/agents/` whose names say a command (the name rule), by their files' names. */
function namedForCommands(root: string): string[] {
  return readdirSync(path.join(root, ".claude", "agents"))
    .filter((file) => file.endsWith(".md"))
    .map((file) => file.slice(0, -3))
    .filter((name) => commandForAgent(undefined, name) !== null);
}

/**
 * The first commit whose agents' definitions show a console return with a command's own status
 * (`"status": "researched…`) while no return file is written yet, checked out: the era of console
 * returns, before metadata files.
 */
function consoleEra(root: string): string | undefined {
  for (const commit of git(root, ["log", "--reverse", "--format=%H", "--", ".claude/agents"]).split("\n")) {
    if (!showsOwnStatus(root, commit) || git(root, ["ls-tree", "-r", "--name-only", commit, "--", "specs"]).includes(".return-meta")) continue;
    git(root, ["-c", "advice.detachedHead=false", "checkout", "-q", commit]);
    return commit;
  }
  return undefined;
}

/** Whether an agent definition of `commit` shows a JSON return with a command's own status (`git grep` exits 1 when none does). */
function showsOwnStatus(root: string, commit: string): boolean {
  try {
    return git(root, ["grep", "-l", "-E", String.raw`"status": "(researched|planned|implemented)`, commit, "--", ".claude/agents"]) !== "";
  } catch {
    return false;
  }
}

describe("a real repository's agents, as each era of their definitions asks them to return", () => {
  it.skipIf(absent)(`agents first written to end with a line of their own are never sent back for it; a JSON return one gives is still checked${skipped}`, () => {
    const root = clone("first-agents");
    expect(returnlint(["init"], { cwd: root }).status).toBe(0);
    const init = returnlint(["init", "claude", "--vendor"], { cwd: root });
    expect(init.status).toBe(0);
    // Their frontmatter has no name: Claude Code runs them only through general-purpose, and init says so.
    expect(init.stderr).toMatch(/^returnlint: Claude Code loads no agent from \d+ definitions of \.claude\/agents\/ \(.*\): their frontmatter has no "name:"/m);
    const settings = JSON.parse(readFileSync(path.join(root, ".claude", "settings.json"), "utf8")) as { hooks: { SubagentStop: { matcher?: string }[] } };
    expect(settings.hooks.SubagentStop[0]?.matcher).toBeUndefined();

    // A host that names them by their files (OpenCode does) stops them by those names: their prose goes through.
    const agents = namedForCommands(root);
    expect(agents.length).toBeGreaterThan(0);
    mkdirSync(path.join(root, "reports"), { recursive: true });
    const report = path.join(root, "reports", "001_returnlint.md");
    writeFileSync(report, "# Report\n\nFindings.\n");
    const env = { CLAUDE_PROJECT_DIR: root };
    for (const agent of agents) {
      const run = returnlint(["hook", "claude"], { cwd: root, env, input: stop(root, agent, `Done.\n\nREPORT_CREATED: ${report}`) });
      expect({ agent, status: run.status, stdout: run.stdout, stderr: run.stderr }).toEqual({ agent, status: 0, stdout: "", stderr: "" });
    }

    const phantom = {
      status: "completed",
      summary: "Researched the task and wrote the report.",
      artifacts: [{ type: "report", path: "reports/never-written.md", summary: "The report" }],
      metadata: { session_id: "sess_1735460684_a1b2c3", agent_type: agents[0], delegation_depth: 1, delegation_path: ["orchestrator", "research", agents[0]] },
    };
    const run = returnlint(["hook", "claude"], { cwd: root, env, input: stop(root, agents[0] ?? "", `Done.\n\n\`\`\`json\n${JSON.stringify(phantom, null, 2)}\n\`\`\``) });
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ decision: "block", reason: expect.stringContaining("reports/never-written.md") as unknown });
  }, 120_000);

  it.skipIf(absent)(`agents of the console era (a JSON return with the command's own status, no return file yet): init picks auto, and their returns as the definitions show pass the hook; phantom work is blocked${skipped}`, () => {
    const root = clone("agents");
    const era = consoleEra(root);
    expect(era).toBeDefined();
    expect(returnlint(["init"], { cwd: root }).stdout).toMatch(/^Wrote returnlint\.config\.yaml with the auto preset \((no return files under specs\/|no specs\/ folder here), but the agent [\w.-]+ \(\.claude\/agents\/\) returns "status": "(researched|planned|implemented)…/);
    const agents = readdirSync(path.join(root, ".claude", "agents"))
      .filter((file) => file.endsWith(".md") && /"status": "researched/.test(readFileSync(path.join(root, ".claude", "agents", file), "utf8")))
      .map((file) => file.slice(0, -3));
    expect(agents.length).toBeGreaterThan(0);
    const report = "specs/9999_returnlint/reports/research-001.md";
    mkdirSync(path.join(root, path.dirname(report)), { recursive: true });
    writeFileSync(path.join(root, report), "# Research\n\nFindings.\n");
    const env = { CLAUDE_PROJECT_DIR: root };
    const answer = (agent: string, artifact: string) => {
      const value = {
        status: "researched",
        summary: "Researched the task; the report lists the findings and a recommended approach.",
        artifacts: [{ type: "report", path: artifact, summary: "Research report" }],
        metadata: { session_id: "sess_1768000000_abc123", agent_type: agent, delegation_depth: 1, delegation_path: ["orchestrator", "research", agent] },
        next_steps: "Run /plan 9999",
      };
      return returnlint(["hook", "claude"], { cwd: root, env, input: stop(root, agent, `Research complete.\n\n\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\``) });
    };
    for (const agent of agents) expect({ agent, ...answer(agent, report) }).toEqual({ agent, status: 0, stdout: "", stderr: "" });
    const phantom = answer(agents[0] ?? "", "specs/9999_returnlint/reports/research-002.md");
    expect(JSON.parse(phantom.stdout)).toMatchObject({ decision: "block", reason: expect.stringContaining("research-002.md") as unknown });
  }, 120_000);

  it.skipIf(absent)(`agents of the later era all owe a return: init claude lets no agent's prose through, and names those it leaves alone${skipped}`, () => {
    const root = clone("agents");
    expect(returnlint(["init"], { cwd: root }).status).toBe(0);
    const init = returnlint(["init", "claude", "--vendor"], { cwd: root });
    expect(init.status).toBe(0);
    expect(init.stderr).not.toContain("lets the prose");
    // Those it names are agents defined in the repository that owe a return and whose names map to no command.
    const defined = readdirSync(path.join(root, ".claude", "agents"))
      .filter((file) => file.endsWith(".md") && file !== "README.md")
      .map((file) => file.slice(0, -".md".length));
    const unmapped = defined.filter((name) => commandForAgent(undefined, name) === null && /"status":|\.return-meta\.json/.test(readFileSync(path.join(root, ".claude", "agents", `${name}.md`), "utf8"))).sort();
    const said = /the hook leaves (?:\d+ agents \(([^)]*)\)|(\S+)) alone/.exec(init.stderr);
    expect(said === null ? [] : (said[1] ?? said[2] ?? "").split(", ")).toEqual(unmapped);
    const doctor = returnlint(["doctor", "--host", "claude"], { cwd: root });
    expect(doctor.stdout).not.toContain("lets the prose");
  }, 120_000);
});
