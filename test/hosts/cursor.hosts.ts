import { readdirSync } from "node:fs";
import path from "node:path";
import { cursorSubagentStop } from "@returnlint/testing";
import { afterAll, describe, expect, inject, it } from "vitest";
import { agentFile } from "./claude.js";
import { jsonSnippet } from "./docs.js";
import { cleanUp, readJson, run, tempDir, writeFiles } from "./hosts.js";
import { npmProject } from "./registry.js";
import { consoleReturn, REPORT, RESEARCHER_PROMPT } from "./scenarios.js";

// Cursor, with what the registry installs. Cursor's agent is not on the npm registry, and
// installs from Cursor's own servers, which this machine cannot reach: no real Cursor runs here.
// What can run does: returnlint installed from the loopback registry by the docs' line, the hooks
// file `init cursor` writes (the docs' block), and its command run the way Cursor runs a hook, on
// the payloads Cursor's hooks documentation describes (@returnlint/testing's cursor-payloads.ts).

const registry = inject("registry");
const NODE_BIN = path.dirname(process.execPath);

afterAll(() => {
  cleanUp();
});

describe("Cursor, with what the registry installs (its documented payloads stand in for Cursor)", () => {
  it("init cursor writes the docs' hooks file, doctor passes it, and its command sends a phantom return back, then lets the fixed one stop", async () => {
    const root = tempDir("cursor-hook");
    writeFiles(root, {
      "package.json": { name: "cursor-hook", version: "1.0.0", private: true, type: "module" },
      ".cursor/agents/lean-research-agent.md": agentFile("lean-research-agent", RESEARCHER_PROMPT),
      ".cursor/agents/planner.md": agentFile("planner", "You plan tasks."),
      ".cursor/agents/implementer.md": agentFile("implementer", "You implement plans."),
    });
    const env = { ...npmProject(root, registry), npm_config_cache: tempDir("cursor-npm-cache"), HOME: tempDir("cursor-home"), PATH: [path.join(root, "node_modules", ".bin"), NODE_BIN, "/usr/bin", "/bin"].join(path.delimiter) };
    const sh = (line: string) => run("sh", ["-c", line], { cwd: root, env, timeoutMs: 300_000 });

    const installed = await sh("npm install --save-dev returnlint --no-audit --no-fund --loglevel=error");
    expect(installed.status, installed.stderr).toBe(0);
    const init = await sh("npx returnlint init cursor");
    expect(init.status, init.stderr).toBe(0);
    expect(readJson(path.join(root, ".cursor", "hooks.json"))).toEqual(jsonSnippet("cursor-hooks-json"));
    const doctor = await sh("npx returnlint doctor --host cursor");
    expect(doctor.stdout).toContain("Every host checked can run returnlint.");
    expect(doctor.status, doctor.stdout).toBe(0);

    // Cursor runs the entry's command with the shell, in the project's root, CURSOR_PROJECT_DIR set, the payload on standard input.
    const command = String((readJson(path.join(root, ".cursor", "hooks.json")) as { hooks: { subagentStop: { command: string }[] } }).hooks.subagentStop[0]?.command);
    const stop = (loopCount: number) =>
      run("sh", ["-c", command], { cwd: root, env: { ...env, CURSOR_PROJECT_DIR: root }, timeoutMs: 60_000, input: JSON.stringify(cursorSubagentStop(root, consoleReturn(REPORT), { loop_count: loopCount })) });
    const phantom = await stop(0);
    expect(phantom.status, phantom.stderr).toBe(0);
    expect(JSON.parse(phantom.stdout)).toEqual({ followup_message: expect.stringContaining(`file "${REPORT}" does not exist; write it, or fix the path.`) as unknown });
    writeFiles(root, { [REPORT]: "# Research\n\nWritten after the follow-up.\n" });
    expect(await stop(1)).toMatchObject({ status: 0, stdout: "{}\n", stderr: "" });
    const verdicts = readdirSync(path.join(root, ".returnlint", "verdicts"));
    expect(verdicts.map((file) => readJson(path.join(root, ".returnlint", "verdicts", file)))).toEqual([expect.objectContaining({ ok: true, attempts: 2, decision: "pass" })]);
  });
});
