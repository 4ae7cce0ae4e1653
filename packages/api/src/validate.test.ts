import { describe, expect, it } from "vitest";
import { tempProject } from "@returnlint/testing";
import { loadReturnlintConfig, validate } from "./validate.js";

// validate(): one return's text in, its report out, with the config loaded once for many returns.

const REPORT = "specs/1_x/reports/research-001.md";
const metadata = { session_id: "sess_1768000000_abc123", agent_type: "researcher", delegation_depth: 1, delegation_path: ["orchestrator", "research", "researcher"] };
const completed = (summary: string) => JSON.stringify({ status: "completed", summary, artifacts: [{ type: "report", path: REPORT, summary: "Findings" }], metadata });

describe("validate", () => {
  it("lists the rules that ran, in order: one list for every return the config resolves alike", async () => {
    const root = tempProject({ [REPORT]: "# r\n" });
    const config = await loadReturnlintConfig({ cwd: root, preset: "v7" });
    const options = { cwd: root, root, config, command: "research" };
    const first = await validate(completed("Wrote the report."), options);
    const second = await validate(completed("Wrote the report again."), options);
    expect(first.ok).toBe(true);
    expect(first.rules.map((rule) => rule.id).slice(0, 3)).toEqual(["json-structure", "required-fields", "status-enum"]);
    expect(first.rules.map((rule) => rule.id)).toContain("artifacts");
    expect(second.rules).toBe(first.rules);
    // Shared, so no caller can change another's list.
    expect(Object.isFrozen(first.rules)).toBe(true);
  });

  it("lists the rules of each command's config apart", async () => {
    const root = tempProject({ [REPORT]: "# r\n", "returnlint.config.json": { preset: "v7", commands: { research: { rules: { artifacts: "off" } } } } });
    const config = await loadReturnlintConfig({ cwd: root });
    const research = await validate(completed("Wrote the report."), { cwd: root, root, config, command: "research" });
    const plan = await validate(completed("Wrote the report."), { cwd: root, root, config, command: "plan" });
    expect(research.rules.map((rule) => rule.id)).not.toContain("artifacts");
    expect(plan.rules.map((rule) => rule.id)).toContain("artifacts");
  });
});
