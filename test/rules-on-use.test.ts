import { describe, expect, it, vi } from "vitest";
import { BUILTIN_PRESETS, BUILTIN_RULES, lintSource, loadReturnlintConfig, validate } from "@returnlint/api";
import { tempProject } from "@returnlint/testing";

// A file of its own: vitest gives each test file fresh modules, so no other test has imported a rule yet.
const cwd = tempProject();

/** The ids a built-in preset runs (not "off"), in its order. */
function runs(preset: string): string[] {
  const rules = BUILTIN_PRESETS.get(preset)?.rules ?? {};
  return Object.entries(rules)
    .filter(([, entry]) => (Array.isArray(entry) ? entry[0] : entry) !== "off")
    .map(([id]) => id);
}

describe("built-in rules load when a return first needs them", () => {
  const loads = new Map([...BUILTIN_RULES].map(([id, rule]) => [id, vi.spyOn(rule, "load")]));
  const imported = () => [...loads].filter(([, spy]) => spy.mock.calls.length > 0).map(([id]) => id);

  it("loading the config imports no rule; a v7 return imports the v7 preset's rules and no other", async () => {
    const config = await loadReturnlintConfig({ cwd });
    expect(imported()).toEqual([]);
    const text = JSON.stringify({
      status: "partial",
      summary: "Half done.",
      artifacts: [],
      metadata: { session_id: "sess_1735460684_a1b2c3", agent_type: "researcher", delegation_depth: 1, delegation_path: ["orchestrator", "research", "researcher"] },
    });
    const report = await validate(text, { config, cwd, command: "research", sessionId: "sess_1735460684_a1b2c3" });
    expect(report.format).toBe("v7");
    expect(report.rules.map((rule) => rule.id)).toEqual(runs("v7"));
    expect(imported().sort()).toEqual(runs("v7").sort());
  });

  it("a metadata file then imports the rules its preset adds, each rule once", async () => {
    const config = await loadReturnlintConfig({ cwd });
    const text = JSON.stringify({ status: "researched", summary: "Done.", artifacts: [], metadata: { session_id: "sess_1735460684_a1b2c3", agent_type: "researcher" } });
    const file = { kind: "file", name: "specs/1_x/.return-meta.json", text } as const;
    const { report } = await lintSource(file, { config, cwd, root: cwd, command: "research" });
    expect(report.format).toBe("metadata-file");
    expect(imported().sort()).toEqual([...new Set([...runs("v7"), ...runs("metadata-file")])].sort());
    // Imported once: later returns reuse the rule objects.
    const before = report.rules;
    const { report: again } = await lintSource(file, { config, cwd, root: cwd, command: "research" });
    expect(again.rules).toEqual(before);
    for (const rule of again.rules) expect(rule).toBe(before.find((earlier) => earlier.id === rule.id));
  });
});
