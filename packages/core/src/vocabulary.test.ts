import { describe, expect, it } from "vitest";
import {
  COMMAND_SUCCESS,
  FORMAT_NAMES,
  commandInName,
  commandOfStatus,
  detectFormat,
  formatOfFileName,
  successInWord,
  successStatuses,
  taskNamedIn,
  taskOfFolder,
  taskOfPath,
} from "./vocabulary.js";

describe("the format module", () => {
  it("names the formats once, and every command's success status answers back to a command", () => {
    expect(FORMAT_NAMES).toEqual(["v5", "v7", "metadata-file", "handoff", "multi-task"]);
    for (const success of Object.values(COMMAND_SUCCESS)) expect(COMMAND_SUCCESS[commandOfStatus(success) ?? ""]).toBe(success);
  });

  it("a contextual success status names its command; planned is /plan's (the first that expects it)", () => {
    expect(["researched", "planned", "implemented"].map(commandOfStatus)).toEqual(["research", "plan", "implement"]);
    expect([["completed"], "partial", "in_progress", "constructor", 7, undefined].map(commandOfStatus)).toEqual([null, null, null, null, null, null]);
  });

  it("an agent's name points at a command, the most specific word first", () => {
    expect(commandInName("revise-plan-agent")).toBe("revise");
    expect(commandInName("implementation-planner")).toBe("implement");
    expect(commandInName("lean-research-agent")).toBe("research");
    expect(commandInName("Planner")).toBe("plan");
    expect(commandInName("reviewer")).toBeNull();
  });

  it("a word for finished points at a success status", () => {
    expect(successInWord("report_written")).toBe("researched");
    expect(successInWord("plan_done")).toBe("planned");
    expect(successInWord("implementation_complete")).toBe("implemented");
    expect(successInWord("done")).toBeUndefined();
    expect(successStatuses("revise")).toEqual(["completed", "planned"]);
  });

  it("knows the metadata-file layout: the file name, the task in a path, the task a message names", () => {
    expect(formatOfFileName(".return-meta.json")).toBe("metadata-file");
    expect(formatOfFileName(".orchestrator-handoff.json")).toBe("handoff");
    expect(formatOfFileName(".return-meta-multi-sess_1_a.json")).toBe("multi-task");
    expect(formatOfFileName("return.json")).toBeUndefined();
    expect(taskOfPath("specs/259_x/.return-meta.json")).toBe("259");
    expect(taskOfPath("specs/archive/007_old/.return-meta.json")).toBe("007");
    expect(taskOfPath("specs/259_x/reports/.return-meta.json.bak")).toBeUndefined();
    // OpenCode's task folders carry a prefix before the number.
    expect(taskOfPath("specs/OC_503_port_missing_core_commands/.return-meta.json")).toBe("503");
    expect(taskOfPath("specs/archive/OC_12_old/.return-meta.json")).toBe("12");
    expect(taskOfPath("specs/research_notes/.return-meta.json")).toBeUndefined();
    expect(["259_x", "007_x", "OC_503_x", "OC_x", "notes", "2026-01-05_log"].map(taskOfFolder)).toEqual(["259", "007", "503", undefined, undefined, undefined]);
    const message = "Wrote specs/3_a/reports/r.md, then specs/4_b-c.d/.return-meta.json.";
    expect(taskNamedIn(message, { folder: false })).toEqual({ task: "4", folder: "4_b-c.d" });
    expect(taskNamedIn("Wrote specs/3_a/reports/r.md.", { folder: false })).toBeUndefined();
    // The last one named, of several; twice in a row the same (no search state left behind).
    const both = "First specs/1_a/.return-meta.json, then specs/2_b/.return-meta.json.";
    expect(taskNamedIn(both, { folder: false })).toEqual({ task: "2", folder: "2_b" });
    expect(taskNamedIn(both, { folder: false })).toEqual({ task: "2", folder: "2_b" });
    expect(taskNamedIn("Wrote specs/3_a/reports/r.md.", { folder: true })).toEqual({ task: "3", folder: "3_a" });
    expect(taskNamedIn("Wrote specs/OC_503_port/reports/r.md.", { folder: true })).toEqual({ task: "503", folder: "OC_503_port" });
  });

  it("a return read from a file is in the format its name says", () => {
    expect(detectFormat({ status: "completed", session_id: "s" }, "specs/1_x/.return-meta.json")).toEqual({ format: "metadata-file", reason: "read from specs/1_x/.return-meta.json" });
    expect(detectFormat({ status: "completed", session_id: "s" }).format).toBe("v5");
  });

  it("a return of no known file name is in the format its own fields say, before any console default", () => {
    const handoff = { status: "implemented", phases_completed: 3, phases_total: 3, blockers: [], artifacts: [] };
    expect(detectFormat(handoff)).toEqual({ format: "handoff", reason: "it has blockers and phases_total at the top level, as handoffs do" });
    expect(detectFormat({ status: "partial", continuation_context: "Resume at phase 2" })).toEqual({ format: "handoff", reason: "it has continuation_context, which only handoffs carry" });
    // A metadata file keeps its phase counts at the top level, and its blockers under partial_progress.
    expect(detectFormat({ status: "blocked", phases_completed: 1, phases_total: 4, partial_progress: { blockers: ["x"] } }).format).toBe("metadata-file");
    const completedMetadataFile = { status: "completed", started_at: "2026-01-28T10:30:00Z", completion_data: { completion_summary: "Done." }, artifacts: [], metadata: { session_id: "sess_1" } };
    expect(detectFormat(completedMetadataFile)).toEqual({ format: "metadata-file", reason: "it has completion_data, which only metadata files carry" });
    expect(detectFormat({ status: "completed", summary: "Done.", artifacts: [], metadata: { session_id: "sess_1" } }).format).toBe("v7");
  });
});
