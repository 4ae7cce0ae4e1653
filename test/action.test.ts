// The GitHub Action (action.yml, action/main.mjs), run the way the runner runs a JavaScript action: its
// entry under the runner's Node, with GITHUB_WORKSPACE, GITHUB_STEP_SUMMARY, GITHUB_OUTPUT, RUNNER_TEMP and
// every input declared in action.yml as INPUT_<NAME> (its default when the step gives none), on real
// trees: an example project, a generated one of thirty tasks, and a clone of a real repository's history.
// The steps run are the ones docs/ci.md shows. action.yml itself is checked against the Actions metadata
// schema (SchemaStore's github-action.json, as @action-validator/core ships it).
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { validateAction } from "@action-validator/core";
import { cloneRealRepository, realRepository, tempProject } from "@returnlint/testing";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { sarifErrors } from "../apps/cli/test/sarif-schema.js";
import { REPO } from "./workspace-packages.js";

interface ActionMetadata {
  inputs: Record<string, { default?: string }>;
  outputs: Record<string, unknown>;
  runs: { using: string; main: string };
}

const ACTION = readFileSync(path.join(REPO, "action.yml"), "utf8");
const metadata = parse(ACTION) as ActionMetadata;

/** The `with:` of each step of docs/ci.md's workflows that uses this action, by the name its marker gives. */
function documentedSteps(): Map<string, Record<string, string>> {
  const doc = readFileSync(path.join(REPO, "docs", "ci.md"), "utf8");
  const steps = new Map<string, Record<string, string>>();
  for (const match of doc.matchAll(/<!-- action-workflow: (\w+) -->\n```yaml\n([\s\S]*?)```/g)) {
    const workflow = parse(match[2] ?? "") as { jobs: Record<string, { steps: { uses?: string; with?: Record<string, unknown> }[] }> };
    const step = Object.values(workflow.jobs)
      .flatMap((job) => job.steps)
      .find((candidate) => candidate.uses?.startsWith("returnlint/returnlint@") === true);
    if (step === undefined) throw new Error(`docs/ci.md's ${match[1] ?? ""} workflow has no step that uses returnlint/returnlint`);
    steps.set(match[1] ?? "", Object.fromEntries(Object.entries(step.with ?? {}).map(([name, value]) => [name, String(value)])));
  }
  return steps;
}

const STEPS = documentedSteps();

interface StepRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly summary: string;
  readonly outputs: Record<string, string>;
}

/** Runs the action's entry as the runner would, in `workspace`, with `given` inputs over action.yml's defaults. */
function runStep(workspace: string, given: Record<string, string>): StepRun {
  const scratch = tempProject({ "summary.md": "", "output.txt": "" });
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "",
    GITHUB_ACTIONS: "true",
    GITHUB_WORKSPACE: workspace,
    GITHUB_STEP_SUMMARY: path.join(scratch, "summary.md"),
    GITHUB_OUTPUT: path.join(scratch, "output.txt"),
    RUNNER_TEMP: scratch,
  };
  for (const [name, input] of Object.entries(metadata.inputs)) env[`INPUT_${name.replace(/ /g, "_").toUpperCase()}`] = given[name] ?? input.default ?? "";
  const run = spawnSync(process.execPath, [path.join(REPO, metadata.runs.main)], { cwd: workspace, env, encoding: "utf8", timeout: 120_000 });
  const outputs = Object.fromEntries(
    readFileSync(env.GITHUB_OUTPUT ?? "", "utf8")
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
  );
  return { status: run.status, stdout: run.stdout, stderr: run.stderr, summary: readFileSync(env.GITHUB_STEP_SUMMARY ?? "", "utf8"), outputs };
}

interface SarifLog {
  runs: { automationDetails: { id: string }; results: { locations: { physicalLocation?: { artifactLocation: { uri: string } } }[] }[] }[];
}

function sarifOf(file: string): SarifLog {
  const log = JSON.parse(readFileSync(file, "utf8")) as SarifLog;
  expect(sarifErrors(log)).toEqual([]);
  return log;
}

/** Thirty task folders: every third return claims a report never written (phantom work), the others wrote theirs. */
function thirtyTasks(): string {
  const files: Record<string, unknown> = {};
  for (let n = 1; n <= 30; n += 1) {
    const report = `specs/${String(n)}_task/reports/research-001.md`;
    files[`specs/${String(n)}_task/.return-meta.json`] = {
      status: "researched",
      summary: `Researched task ${String(n)}.`,
      artifacts: [{ type: "report", path: report, summary: "The research report" }],
      metadata: { session_id: "sess_1736700000_abc123", agent_type: "lean-research-agent", delegation_depth: 1, delegation_path: ["orchestrator", "research", "lean-research-agent"] },
    };
    if (n % 3 !== 0) files[report] = `# Task ${String(n)}\n`;
  }
  return tempProject(files);
}

describe("action.yml", () => {
  it("follows the Actions metadata schema, and runs a file the build makes on a Node the runner has", () => {
    expect(validateAction(ACTION).errors).toEqual([]);
    // The validator bites: an action whose runs names no `using` is rejected.
    expect(validateAction(ACTION.replace("using: node20", "uzing: node20")).errors).not.toEqual([]);
    expect(["node20", "node24"]).toContain(metadata.runs.using);
    expect(existsSync(path.join(REPO, metadata.runs.main))).toBe(true);
    expect(Object.keys(metadata.outputs).sort()).toEqual(["failed", "ok", "phantom", "sarif-file"]);
  });

  it("docs/ci.md shows a step for each command", () => {
    expect([...STEPS.keys()].sort()).toEqual(["audit", "check", "scan"]);
    for (const given of STEPS.values()) for (const name of Object.keys(given)) expect(Object.keys(metadata.inputs)).toContain(name);
  });
});

describe("the action's entry, as the runner runs it", () => {
  it("scan (docs/ci.md's step) on examples/scan: annotations, a job summary, outputs, and one SARIF run; fail-on phantom fails the step", () => {
    const scratch = tempProject();
    const step = runStep(path.join(REPO, "examples", "scan"), { ...STEPS.get("scan"), "sarif-file": path.join(scratch, "scan.sarif") });
    expect(step.stderr).toBe("");
    expect(step.status).toBe(1);
    const annotations = step.stdout.trimEnd().split("\n");
    expect(annotations.filter((line) => line.startsWith("::error file="))).toEqual([
      expect.stringMatching(/^::error file=specs\/31_missing\/\.return-meta\.json,line=\d+,title=returnlint artifacts at \/artifacts\/0\/path::Artifact does not exist/),
      expect.stringMatching(/^::error file=specs\/20_phantom\/\.return-meta\.json,line=\d+,title=returnlint artifacts at \/artifacts::Agent returned 'implemented'/),
    ]);
    expect(annotations.at(-1)).toBe("::error title=returnlint::2 of 4 returns claim work that is not there (fail-on: phantom).");
    expect(step.outputs).toEqual({ ok: "false", failed: "2", phantom: "2", "sarif-file": path.join(scratch, "scan.sarif") });
    expect(step.summary).toContain("### returnlint scan: failed");
    expect(step.summary).toContain("| status | returns | failed | phantom |\n| --- | --- | --- | --- |\n| researched | 2 | 1 | 1 |");
    expect(step.summary).toContain("#### The worst returns");
    expect(step.summary).toContain("| specs/20\\_phantom/.return-meta.json | general-implementation-agent | implemented | yes | Agent returned 'implemented' status but created no artifacts |");
    const log = sarifOf(path.join(scratch, "scan.sarif"));
    expect(log.runs).toHaveLength(1);
    expect(log.runs[0]?.automationDetails.id).toBe("returnlint/scan/");
  });

  it("check --task 1-30 (docs/ci.md's step) on a generated tree: one SARIF run for thirty tasks, a failure per phantom return", () => {
    const root = thirtyTasks();
    const step = runStep(root, { ...STEPS.get("check") });
    expect(step.status).toBe(1);
    expect(step.outputs).toEqual({ ok: "false", failed: "10", phantom: "10", "sarif-file": path.join(root, "returnlint.sarif") });
    const log = sarifOf(path.join(root, "returnlint.sarif"));
    expect(log.runs.length).toBeLessThanOrEqual(20);
    expect(log.runs).toHaveLength(1);
    expect(log.runs[0]?.automationDetails.id).toBe("returnlint/check/");
    expect(new Set(log.runs[0]?.results.map((result) => result.locations[0]?.physicalLocation?.artifactLocation.uri)).size).toBe(10);
    expect(step.stdout.split("\n").filter((line) => line.startsWith("::error file="))).toHaveLength(10);
    expect(step.summary).toContain("30 returns: 10 failed validation, 10 phantom work");
    expect(step.summary).toContain("SARIF: `returnlint.sarif` (10 results in one run, category `returnlint/check/`).");
  });

  it("passes a tree whose returns all pass, and fail-on none never fails the step", () => {
    const root = tempProject({
      "specs/1_ok/.return-meta.json": {
        status: "researched",
        summary: "Researched.",
        artifacts: [{ type: "report", path: "specs/1_ok/r.md", summary: "The report" }],
        metadata: { session_id: "sess_1736700000_abc123", agent_type: "lean-research-agent", delegation_depth: 1, delegation_path: ["orchestrator", "research", "lean-research-agent"] },
      },
      "specs/1_ok/r.md": "# Report\n",
    });
    const passing = runStep(root, { command: "scan" });
    expect(passing.status).toBe(0);
    expect(passing.stdout).toBe("");
    expect(passing.outputs).toMatchObject({ ok: "true", failed: "0", phantom: "0" });
    expect(passing.summary).toContain("### returnlint scan: passed");

    const tolerant = runStep(path.join(REPO, "examples", "scan"), { command: "scan", "fail-on": "none", annotations: "false", "sarif-file": path.join(tempProject(), "r.sarif") });
    expect(tolerant.status).toBe(0);
    expect(tolerant.stdout).toBe("");
    expect(tolerant.outputs).toMatchObject({ ok: "false", failed: "2", phantom: "2" });
  });

  it("fails the step with one annotation saying why when an input is wrong or returnlint cannot run", () => {
    const root = tempProject();
    expect(runStep(root, { command: "lint" })).toMatchObject({ status: 1, stdout: '::error title=returnlint::the command input must be check, scan, audit; received "lint".\n' });
    expect(runStep(root, { command: "check" })).toMatchObject({ status: 1, stdout: '::error title=returnlint::command "check" needs the task input: the tasks whose returns to check (1-30, or 7, 9-11).\n' });
    const missing = runStep(root, { command: "scan" });
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain("Cannot scan specs: no such directory");
    expect(missing.stdout).toBe("::error title=returnlint::returnlint scan could not run (exit 2): see the lines above.\n");
    expect(missing.outputs).toMatchObject({ ok: "false" });
  });

  const bundle = realRepository("ProofChecker");
  it.skipIf(bundle === undefined)("audit (docs/ci.md's step) on a clone of a real repository's history: the tables per agent, the worst returns, one SARIF run", { timeout: 300_000 }, () => {
    const clone = path.join(tempProject(), "ProofChecker");
    cloneRealRepository(bundle ?? "", clone);
    const step = runStep(clone, { ...STEPS.get("audit"), since: "2026-03" });
    expect(step.status).toBe(0);
    const failed = Number(step.outputs.failed);
    const phantom = Number(step.outputs.phantom);
    expect(failed).toBeGreaterThan(0);
    expect(phantom).toBeGreaterThan(0);
    expect(step.stdout.split("\n").filter((line) => line.startsWith("::error file=specs/"))).toHaveLength(failed);
    expect(step.summary).toMatch(/^### returnlint audit: failed\n\n\d+ committed versions: \d+ failed validation, \d+ phantom work/);
    expect(step.summary).toContain("| agent | returns | failed | phantom | phantom rate |");
    expect(step.summary).toContain("#### The worst returns");
    const log = sarifOf(step.outputs["sarif-file"] ?? "");
    expect(log.runs).toHaveLength(1);
    expect(log.runs[0]?.automationDetails.id).toBe("returnlint/audit/");
  });
});
