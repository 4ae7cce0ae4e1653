import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadReturnlintConfig } from "@returnlint/api";
import { geminiDoctor } from "../src/doctor/gemini.js";
import type { DoctorContext } from "../src/doctor/host-doctor.js";
import { project, returnlint } from "./helpers.js";
import { agentMarkdown } from "@returnlint/testing";

// `returnlint init gemini` and Gemini CLI's doctor. Gemini CLI's own files live in a home of the
// test's own (HOME): trusted folders, acknowledged agents, user settings; the machine's ~/.gemini
// must not decide a test. test/hosts/gemini.hosts.ts runs these settings in the real Gemini CLI.

const VENDORED = "node $GEMINI_PROJECT_DIR/.gemini/hooks/returnlint.cjs hook gemini";
const INSTALLED = "node $GEMINI_PROJECT_DIR/node_modules/returnlint/dist/returnlint.cjs hook gemini";
const hook = (command: string, extra: Record<string, unknown> = {}) => ({ name: "returnlint", type: "command", command, timeout: 30_000, ...extra });
const afterTool = (command = VENDORED, matcher = "invoke_agent", extra: Record<string, unknown> = {}) => ({ hooks: { AfterTool: [{ matcher, hooks: [hook(command, extra)] }] } });
const settingsOf = (root: string) => JSON.parse(readFileSync(path.join(root, ".gemini", "settings.json"), "utf8")) as Record<string, unknown>;
const sha256 = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");

/** A Gemini CLI home that trusts `root` and has acknowledged its agents as they are now (each part can be left out). */
function geminiHome(root: string, options: { readonly trust?: string | null; readonly acknowledge?: boolean; readonly settings?: unknown } = {}): string {
  const home = project();
  mkdirSync(path.join(home, ".gemini", "acknowledgments"), { recursive: true });
  if (options.trust !== null) writeFileSync(path.join(home, ".gemini", "trustedFolders.json"), JSON.stringify({ [root]: options.trust ?? "TRUST_FOLDER" }));
  if (options.acknowledge !== false) {
    const dir = path.join(root, ".gemini", "agents");
    const acknowledged = Object.fromEntries(["lean-research-agent", "planner-agent"].flatMap((name) => {
      try {
        return [[name, sha256(path.join(dir, `${name}.md`))]];
      } catch {
        return [];
      }
    }));
    writeFileSync(path.join(home, ".gemini", "acknowledgments", "agents.json"), JSON.stringify({ [root]: acknowledged }));
  }
  if (options.settings !== undefined) writeFileSync(path.join(home, ".gemini", "settings.json"), JSON.stringify(options.settings));
  return home;
}

/** A project set up as `init gemini` leaves it (the vendored copy and the hook), with two agents. */
function initialised(): string {
  const root = project({ ".gemini/agents/lean-research-agent.md": agentMarkdown("lean-research-agent"), ".gemini/agents/planner-agent.md": agentMarkdown("planner-agent") });
  expect(returnlint(["init", "gemini"], { cwd: root }).status).toBe(0);
  return root;
}

function doctor(root: string, home: string, env: Record<string, string> = {}) {
  return returnlint(["doctor", "--host", "gemini"], { cwd: root, env: { HOME: home, GEMINI_CLI_TRUST_WORKSPACE: "", ...env } });
}

/** Gemini CLI's doctor, its check() called directly, as `returnlint doctor` calls it. */
async function check(root: string, env: Record<string, string | undefined>) {
  const config = await loadReturnlintConfig({ cwd: root });
  const context: DoctorContext = { root, config, env };
  return await geminiDoctor.check(context);
}

describe("returnlint init gemini", () => {
  it("adds the AfterTool hook of invoke_agent next to what is there, names the agents it checks, and says what init leaves to the user", () => {
    const root = project({
      ".gemini/agents/lean-research-agent.md": agentMarkdown("lean-research-agent"),
      ".gemini/agents/notes.md": agentMarkdown("notes", "prose"),
      ".gemini/settings.json": { model: { name: "gemini-2.5-pro" }, hooks: { BeforeTool: [{ matcher: "write_file", hooks: [{ type: "command", command: "echo before" }] }], AfterTool: [{ matcher: "run_shell_command", hooks: [{ type: "command", command: "log-shell" }] }] } },
    });
    const run = returnlint(["init", "gemini"], { cwd: root });
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe(
      "Wrote .gemini/hooks/returnlint.cjs, returnlint 0.1.0's loader, which the hook runs.\nWrote .gemini/hooks/returnlint.pack, returnlint 0.1.0 packed, which its loader unpacks.\n" +
        'Added the returnlint AfterTool hook to .gemini/settings.json (matcher "invoke_agent": it checks lean-research-agent).\n' +
        "Next: commit .gemini/hooks/returnlint.cjs and returnlint.pack with .gemini/settings.json: the hook runs it with node, nothing to install.\n" +
        "Gemini CLI runs this hook only in a trusted folder and loads the agents of .gemini/agents/ only once you acknowledge them, and init does neither for you: " +
        'start gemini in this folder, trust it when asked (~/.gemini/trustedFolders.json records it; headless runs take GEMINI_CLI_TRUST_WORKSPACE=true instead) and choose "Acknowledge and Enable" for the agents it lists (again after each edit of an agent file); ' +
        '"returnlint doctor --host gemini" says whether both are done.\n',
    );
    expect(run.status).toBe(0);
    expect(settingsOf(root)).toEqual({
      model: { name: "gemini-2.5-pro" },
      hooks: {
        BeforeTool: [{ matcher: "write_file", hooks: [{ type: "command", command: "echo before" }] }],
        AfterTool: [{ matcher: "run_shell_command", hooks: [{ type: "command", command: "log-shell" }] }, { matcher: "invoke_agent", hooks: [hook(VENDORED)] }],
      },
    });
    // The copy init wrote is returnlint: it answers Gemini CLI's payload.
    const payload = { session_id: "s", cwd: root, hook_event_name: "AfterTool", tool_name: "read_file", tool_input: {}, tool_response: {} };
    expect(returnlint(["hook", "gemini"], { cwd: root, input: JSON.stringify(payload) })).toEqual({ status: 0, stdout: "", stderr: "" });
  });

  it("is idempotent, keeps the hook's options, and fixes a matcher or command an earlier setup wrote", () => {
    const root = initialised();
    const written = statSync(path.join(root, ".gemini", "settings.json")).mtimeMs;
    expect(returnlint(["init", "gemini"], { cwd: root }).stdout).toBe(".gemini/settings.json already runs returnlint; nothing to change.\n");
    expect(statSync(path.join(root, ".gemini", "settings.json")).mtimeMs).toBe(written);

    writeFileSync(path.join(root, ".gemini", "settings.json"), JSON.stringify(afterTool("npx --no-install returnlint hook gemini --max-blocks 2", ".*")));
    const run = returnlint(["init", "gemini"], { cwd: root });
    expect(run.stdout).toContain(`Updated the returnlint hook's matcher and command in .gemini/settings.json ("${VENDORED} --max-blocks 2").\n`);
    expect(settingsOf(root)).toEqual(afterTool(`${VENDORED} --max-blocks 2`));
  });

  it("runs the project's own returnlint where it is installed, unless --vendor; --dry-run writes nothing", () => {
    const root = project({ "node_modules/returnlint/dist/returnlint.cjs": "// installed\n" });
    const dry = returnlint(["init", "gemini", "--dry-run"], { cwd: root });
    expect(dry.stdout).toBe(
      'Would add the returnlint AfterTool hook to .gemini/settings.json (matcher "invoke_agent": no agent of .gemini/agents/ or the config\'s agents map maps to a command yet: the hook decides by name) (--dry-run: nothing written). .gemini/settings.json would read:\n' +
        `${JSON.stringify(afterTool(INSTALLED), null, 2)}\n`,
    );
    expect(() => statSync(path.join(root, ".gemini"))).toThrow();
    expect(returnlint(["init", "gemini"], { cwd: root }).status).toBe(0);
    expect(settingsOf(root)).toEqual(afterTool(INSTALLED));
    expect(returnlint(["init", "gemini", "--vendor"], { cwd: root }).stdout).toContain(`Updated the returnlint hook's command in .gemini/settings.json ("${VENDORED}")`);
  });
});

describe("returnlint doctor: Gemini CLI", () => {
  it("passes the setup init gemini writes, in a trusted folder with its agents acknowledged", () => {
    const root = initialised();
    const run = doctor(root, geminiHome(root));
    expect(run.stderr).toBe("");
    expect(run.stdout).toMatch(
      new RegExp(
        `^Gemini CLI \\(returnlint hook gemini\\)\\n {2}✓ the folder is trusted: ~/\\.gemini/trustedFolders\\.json marks ${root.replaceAll("/", "\\/")} TRUST_FOLDER\\n` +
          ' {2}✓ \\.gemini/settings\\.json runs returnlint when a subagent returns \\(AfterTool, matcher "invoke_agent"\\)\\n' +
          " {2}✓ the hook checks the returns of lean-research-agent \\(/research\\) and planner-agent \\(/plan\\)\\n" +
          " {2}✓ Gemini CLI loads lean-research-agent and planner-agent: acknowledged as their files are now\\n" +
          " {2}✓ the hook command runs from the project \\(tried with a stop of an agent it leaves alone: exit 0 in \\d+ ms\\)\\n\\nEvery host checked can run returnlint\\.\\n$",
      ),
    );
    expect(run.status).toBe(0);
  });

  it("an untrusted folder: no rule, a DO_NOT_TRUST rule, or the environment's word, each a failing line; trust by a parent's rule or the environment passes", async () => {
    const root = initialised();
    const noRule = doctor(root, geminiHome(root, { trust: null }));
    expect(noRule.stdout).toContain(
      `  ✗ the folder is not trusted (no rule of ~/.gemini/trustedFolders.json covers ${root}): Gemini CLI then ignores .gemini/settings.json, its hooks included, and says nothing when a subagent returns (a headless run refuses to start); start gemini in ${root} and trust the folder when it asks, or set GEMINI_CLI_TRUST_WORKSPACE=true where it runs headless\n`,
    );
    expect(noRule.stdout).toContain("Gemini CLI: cannot run returnlint as set up (the ✗ lines say why).\n");
    expect(noRule.status).toBe(1);
    expect(doctor(root, geminiHome(root, { trust: "DO_NOT_TRUST" })).stdout).toContain(`  ✗ ~/.gemini/trustedFolders.json marks ${root} DO_NOT_TRUST: Gemini CLI then ignores`);
    expect(doctor(root, geminiHome(root), { GEMINI_CLI_TRUST_WORKSPACE: "false" }).stdout).toContain("  ✗ this environment sets GEMINI_CLI_TRUST_WORKSPACE=false: the folder is untrusted");

    const byParent = (await check(root, { HOME: geminiHome(path.join(root, "x"), { trust: "TRUST_PARENT" }) }))[0];
    expect(byParent).toEqual({ level: "ok", text: `the folder is trusted: ~/.gemini/trustedFolders.json marks ${path.join(root, "x")} TRUST_PARENT` });
    expect((await check(root, { HOME: geminiHome(root, { trust: null }), GEMINI_CLI_TRUST_WORKSPACE: "true" }))[0]).toEqual({ level: "ok", text: "the folder is trusted: this environment sets GEMINI_CLI_TRUST_WORKSPACE=true" });
    const trustOff = geminiHome(root, { trust: null, settings: { security: { folderTrust: { enabled: false } } } });
    expect((await check(root, { HOME: trustOff }))[0]).toMatchObject({ level: "ok", text: expect.stringContaining("turns folder trust off") as string });
  });

  it("names the agents Gemini CLI has not been told to load, an edit after the acknowledgment included", () => {
    const root = initialised();
    const home = geminiHome(root);
    writeFileSync(path.join(root, ".gemini", "agents", "planner-agent.md"), `${agentMarkdown("planner-agent")}Plan carefully.\n`);
    const run = doctor(root, home);
    expect(run.stdout).toContain(
      '  ✗ Gemini CLI does not load planner-agent: its file is not acknowledged as it is now (~/.gemini/acknowledgments/agents.json), so the parent cannot call it; start gemini here and choose "Acknowledge and Enable" when it lists it\n',
    );
    expect(run.status).toBe(1);
  });

  it("a hook on the wrong event, a matcher that never takes invoke_agent, another host's hook: each a failing line", async () => {
    const root = initialised();
    const home = geminiHome(root);
    const write = (settings: unknown) => {
      writeFileSync(path.join(root, ".gemini", "settings.json"), JSON.stringify(settings));
    };
    write(afterTool(VENDORED, "write_file"));
    const mismatched = doctor(root, home);
    expect(mismatched.stdout).toContain(`  ✗ .gemini/settings.json's AfterTool matcher "write_file" never takes invoke_agent, the parent's call of a subagent: subagents return unchecked; set it to "invoke_agent"\n`);
    expect(mismatched.status).toBe(1);

    write({ hooks: { AfterAgent: [{ hooks: [hook(VENDORED)] }], AfterTool: [{ matcher: "invoke_agent", hooks: [hook("npx --no-install returnlint hook claude")] }] } });
    const lines = (await check(root, { HOME: home })).map((line) => `${line.level} ${line.text}`);
    expect(lines).toContain('fail .gemini/settings.json runs "returnlint hook claude" on AfterTool: that is the hook for another host, which reads another payload; Gemini CLI\'s is "returnlint hook gemini"');
    expect(lines).toContain('fail .gemini/settings.json runs returnlint on AfterAgent: Gemini CLI has no subagent-stop event, and only AfterTool of invoke_agent sees what a subagent returns; register it under "AfterTool"');

    write({ model: { name: "x" } });
    expect(doctor(root, home).stdout).toContain('  ✗ no AfterTool hook runs "returnlint hook gemini" in .gemini/settings.json or ~/.gemini/settings.json: subagents return unchecked; run "returnlint init gemini"\n');

    // A matcher for every tool works, at a cost.
    write(afterTool(VENDORED, ".*"));
    expect((await check(root, { HOME: home })).map((line) => line.level)).not.toContain("fail");
  });

  it("a command that cannot run from the project, a timeout in seconds, hooks turned off: each said", async () => {
    const root = initialised();
    const home = geminiHome(root);
    writeFileSync(path.join(root, ".gemini", "settings.json"), JSON.stringify(afterTool(INSTALLED)));
    const unresolvable = doctor(root, home);
    expect(unresolvable.stdout).toContain(`  ✗ the hook command does not run as a hook from the project (tried with a stop of an agent it leaves alone: exit 1, "Error: Cannot find module '${path.join(root, "node_modules/returnlint/dist/returnlint.cjs")}'"): ${INSTALLED}\n`);
    expect(unresolvable.status).toBe(1);

    writeFileSync(path.join(root, ".gemini", "settings.json"), JSON.stringify({ ...afterTool(VENDORED, "invoke_agent", { timeout: 30 }), hooksConfig: { disabled: ["returnlint"] } }));
    const lines = (await check(root, { HOME: geminiHome(root, { settings: { hooksConfig: { enabled: false } } }) })).map((line) => `${line.level} ${line.text}`);
    expect(lines).toContain('fail ~/.gemini/settings.json sets "hooksConfig.enabled": false: Gemini CLI runs no hook at all');
    expect(lines).toContain('fail "hooksConfig.disabled" lists the returnlint hook of .gemini/settings.json: Gemini CLI skips it');
    expect(lines).toContain('fail .gemini/settings.json gives the returnlint hook "timeout": 30, which Gemini CLI reads in milliseconds: it stops the hook before it can answer, and the return goes through unchecked; use 30000');
  });

  it("warns when the config sends one of Gemini CLI's own agents to a command", async () => {
    const root = initialised();
    writeFileSync(path.join(root, "returnlint.config.json"), JSON.stringify({ agents: { codebase_investigator: "research" } }));
    const lines = await check(root, { HOME: geminiHome(root) });
    expect(lines).toContainEqual({
      level: "warn",
      text: 'the config\'s "agents" map sends the host\'s built-in agent codebase_investigator to /research: it answers in prose by design and will be sent back; remove the entry unless that is what you want',
    });
  });

  it("is present where the project has Gemini CLI's settings or agents", () => {
    const context = (root: string): DoctorContext => ({ root, config: undefined, env: {} });
    expect(geminiDoctor.present(context(project({ ".gemini/agents/a.md": agentMarkdown("a") })))).toBe(true);
    expect(geminiDoctor.present(context(project({ ".gemini/settings.json": {} })))).toBe(true);
    expect(geminiDoctor.present(context(project({ ".claude/settings.json": {} })))).toBe(false);
  });
});
