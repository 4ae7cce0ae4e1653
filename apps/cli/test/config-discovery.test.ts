// Finding the config file (core's config/load.ts): the folder of the command, then each folder
// above it, the first name of CONFIG_FILES that is there, as Node's existsSync says.
import { chmodSync, symlinkSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CAN_SETPRIV, SETPRIV_REASON, metadata, run, scratch, write } from "./adversarial/harness.js";

const plan = {
  status: "completed",
  summary: "x".repeat(50),
  artifacts: [{ type: "plan", path: "specs/1_a/plans/implementation-001.md", summary: "Plan" }],
  metadata: metadata("planner"),
};
/** A config whose effect shows: the 50-character summary fails it. */
const strict = { rules: { "summary-length": ["error", { maxChars: 10 }] } };
const strictYaml = "rules:\n  summary-length: [error, { maxChars: 10 }]\n";

/** The project: the return in work/deep/, its artifact, and `files` besides. */
function projectWith(files: Readonly<Record<string, unknown>>, open = false): string {
  const root = scratch(open);
  write(root, { "work/deep/r.json": plan, "work/deep/specs/1_a/plans/implementation-001.md": "# Plan\n", ...files });
  return root;
}

/** The rules that failed a check run in work/deep/, and its exit code. */
function failedRules(root: string, nobody = false): { status: number | null; failed: string[] } {
  const ran = run(["check", "r.json", "--format", "json"], { cwd: path.join(root, "work", "deep"), nobody });
  const report = JSON.parse(ran.stdout) as { results: { ruleId: string; level: string }[] };
  return { status: ran.status, failed: report.results.filter((result) => result.level === "fail").map((result) => result.ruleId) };
}

describe("finding the config file", { timeout: 60_000 }, () => {
  it("is found two folders above the command's", () => {
    const root = projectWith({ "returnlint.config.json": strict });
    expect(failedRules(root)).toEqual({ status: 1, failed: ["summary-length"] });
  });

  it("is none when there is none: the defaults pass the return", () => {
    expect(failedRules(projectWith({}))).toEqual({ status: 0, failed: [] });
  });

  it("skips a symbolic link to nothing and takes the next name in the same folder", () => {
    const root = projectWith({ "work/returnlint.config.yaml": strictYaml });
    symlinkSync(path.join(root, "gone.json"), path.join(root, "work", "returnlint.config.json"));
    expect(failedRules(root)).toEqual({ status: 1, failed: ["summary-length"] });
  });

  it("follows a symbolic link to a config", () => {
    const root = projectWith({ "configs/strict.json": strict });
    symlinkSync(path.join(root, "configs", "strict.json"), path.join(root, "work", "returnlint.config.json"));
    expect(failedRules(root)).toEqual({ status: 1, failed: ["summary-length"] });
  });

  it("takes the nearest folder's config, and in it the first name of the list (json before yaml)", () => {
    const root = projectWith({
      "returnlint.config.json": strict,
      "work/returnlint.config.json": { rules: { "summary-length": ["error", { maxChars: 100 }] } },
      "work/returnlint.config.yaml": strictYaml,
    });
    expect(failedRules(root)).toEqual({ status: 0, failed: [] });
  });

  it("reads the names as they are written on a case-sensitive file system: RETURNLINT.CONFIG.JSON is not a config", () => {
    const root = projectWith({ "work/RETURNLINT.CONFIG.JSON": strict });
    expect(failedRules(root)).toEqual({ status: 0, failed: [] });
  });

  it("takes a package.json's returnlint key, and passes over one without it", () => {
    const root = projectWith({ "package.json": { name: "p", returnlint: strict }, "work/package.json": { name: "w" } });
    expect(failedRules(root)).toEqual({ status: 1, failed: ["summary-length"] });
  });

  it.runIf(CAN_SETPRIV)("is found in a folder this user may search but not list", () => {
    const root = projectWith({ "work/returnlint.config.json": strict }, true);
    chmodSync(path.join(root, "work"), 0o711);
    expect(failedRules(root, true)).toEqual({ status: 1, failed: ["summary-length"] });
  });
  it.skipIf(CAN_SETPRIV)(`is found in a folder this user may search but not list: skipped (${SETPRIV_REASON})`, () => undefined);
});
