import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { BIN, EXAMPLES, REPO, project, returnlint } from "./helpers.js";

interface Step {
  readonly name?: string;
  readonly uses?: string;
  readonly run?: string;
  readonly env?: Record<string, string>;
}
interface Job {
  readonly steps?: Step[];
  readonly strategy?: { readonly matrix?: Record<string, unknown> };
  readonly uses?: string;
}
interface Workflow {
  readonly name: string;
  readonly on: unknown;
  readonly jobs: Record<string, Job>;
}

/** The workflows docs/fleet.md shows, parsed. */
function workflows(): Workflow[] {
  const text = readFileSync(path.join(REPO, "docs", "fleet.md"), "utf8");
  return [...text.matchAll(/^```yaml\n([\s\S]*?)^```$/gm)].map((match) => parse(match[1] ?? "") as Workflow);
}

/** Each returnlint command line in a step's script, as argv after `npx --yes returnlint`, up to a redirection. */
function returnlintCommands(run: string): string[][] {
  return [...run.matchAll(/npx --yes returnlint ([^\n>|&;]+)/g)].map((match) => (match[1] ?? "").trim().split(/\s+/));
}

const steps = (workflow: Workflow): Step[] => Object.values(workflow.jobs).flatMap((job) => job.steps ?? []);

describe("docs/fleet.md's GitHub Actions workflows", { timeout: 120_000 }, () => {
  it("are workflows: a name, triggers, jobs that each run steps or call a reusable workflow", () => {
    const found = workflows();
    expect(found).toHaveLength(2);
    for (const workflow of found) {
      expect(typeof workflow.name).toBe("string");
      expect(workflow.on).toBeTruthy();
      for (const job of Object.values(workflow.jobs)) expect(Array.isArray(job.steps) !== (typeof job.uses === "string")).toBe(true);
    }
    // GitHub makes at most 256 jobs of one matrix in a workflow run.
    const matrix = found[0]?.jobs.audit?.strategy?.matrix?.repository;
    expect(Array.isArray(matrix) && matrix.length > 0 && matrix.length <= 256).toBe(true);
  });

  it("run only returnlint commands that exist, with flags each command's help lists", () => {
    const commands = workflows().flatMap((workflow) => steps(workflow).flatMap((step) => (step.run === undefined ? [] : returnlintCommands(step.run))));
    expect(commands.length).toBeGreaterThanOrEqual(4);
    for (const argv of commands) {
      const command = argv[1] === "merge" ? [argv[0] ?? "", "merge"] : [argv[0] ?? ""];
      const help = returnlint([...command, "--help"]);
      expect(help.status, command.join(" ")).toBe(0);
      for (const flag of argv.filter((arg) => arg.startsWith("-"))) expect(help.stdout, `${command.join(" ")} ${flag}`).toMatch(new RegExp(`(^|[\\s,])${flag}\\b`, "m"));
    }
  });

  it("audit a real repository and merge the result, run the way the runner runs each step", () => {
    const [workflow] = workflows();
    const stepNamed = (name: string): Step => {
      const step = steps(workflow as Workflow).find((candidate) => candidate.name === name);
      if (step?.run === undefined) throw new Error(`no step "${name}" with a run in docs/fleet.md`);
      return step;
    };
    const workspace = project({});
    execFileSync(process.execPath, [path.join(EXAMPLES, "audit", "make-history.mjs"), path.join(workspace, "repo")]);
    // npx stands for the installed returnlint: the built one here.
    const shims = path.join(workspace, ".shims");
    mkdirSync(shims);
    writeFileSync(path.join(shims, "npx"), `#!/bin/sh\n# npx --yes returnlint ARGS…\nshift 2\nexec "${process.execPath}" "${BIN}" "$@"\n`);
    chmodSync(path.join(shims, "npx"), 0o755);
    const outputs = path.join(workspace, ".github-output");
    const summary = path.join(workspace, ".step-summary");
    const runStep = (step: Step, env: Record<string, string> = {}) => {
      const ran = spawnSync("bash", ["-e", "-c", step.run ?? ""], {
        cwd: workspace,
        env: { ...process.env, ...env, PATH: `${shims}:${process.env.PATH ?? ""}`, GITHUB_WORKSPACE: workspace, GITHUB_OUTPUT: outputs, GITHUB_STEP_SUMMARY: summary, NO_COLOR: "1" },
        encoding: "utf8",
      });
      expect(ran.status, `${step.name ?? ""}: ${ran.stderr}`).toBe(0);
      return ran;
    };

    runStep(stepNamed("Audit"));
    const lines = readFileSync(path.join(workspace, "audit.ndjson"), "utf8").trimEnd().split("\n");
    expect(lines).toHaveLength(10);
    // The cache is beside the clone, not in it: the clone stays as it was.
    expect(readdirSync(path.join(workspace, ".returnlint-cache"))).toHaveLength(1);
    expect(execFileSync("git", ["-C", path.join(workspace, "repo"), "status", "--porcelain"], { encoding: "utf8" })).toBe("");

    runStep(stepNamed("Name the artifact"), { REPOSITORY: "acme/agents" });
    expect(readFileSync(outputs, "utf8")).toBe("name=audit-acme-agents\n");
    // What upload-artifact and download-artifact do between the jobs.
    mkdirSync(path.join(workspace, "audits", "audit-acme-agents"), { recursive: true });
    renameSync(path.join(workspace, "audit.ndjson"), path.join(workspace, "audits", "audit-acme-agents", "audit.ndjson"));

    runStep(stepNamed("Merge"));
    expect(readFileSync(path.join(workspace, "fleet.html"), "utf8")).toContain("<h2>Phantom rate per agent per repository</h2>");
    runStep(stepNamed("Job summary"));
    expect(readFileSync(summary, "utf8")).toMatch(/^returnlint audit merge of 1 file: 1 repository, 10 returns\n/);
    expect(existsSync(path.join(workspace, "repo", ".returnlint-cache"))).toBe(false);
  });
});
