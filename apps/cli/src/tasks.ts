import { readFileSync } from "node:fs";
import path from "node:path";
import { isObject, ReturnlintError } from "@returnlint/core";
import { findTaskReturn } from "./input.js";

const MAX_TASKS = 1000;

/**
 * `--task` values: `7`, `343-345`, or `337, 343-345, 350` (the range format
 * orchestration-validation.md validates). Duplicates are dropped, order is kept.
 */
export function parseTaskList(value: string): string[] {
  if (!/^[0-9,\s-]+$/.test(value) || value.trim() === "") {
    throw new ReturnlintError("USAGE", `Invalid --task "${value}": use a task number, a range (343-345) or a list (337, 343-345, 350).`);
  }
  const tasks = new Set<string>();
  for (const part of value.split(",").map((piece) => piece.trim())) {
    const range = /^(\d+)(?:\s*-\s*(\d+))?$/.exec(part);
    if (range === null) throw new ReturnlintError("USAGE", `Invalid --task "${value}": "${part}" is not a number or a range.`);
    const first = Number(range[1]);
    const last = range[2] === undefined ? first : Number(range[2]);
    if (last < first) throw new ReturnlintError("USAGE", `Invalid --task "${value}": the range ${part} runs backwards.`);
    if (last - first >= MAX_TASKS) throw new ReturnlintError("USAGE", `Invalid --task "${value}": ${part} is more than ${String(MAX_TASKS)} tasks; use "returnlint scan".`);
    for (let task = first; task <= last; task += 1) tasks.add(String(task));
  }
  return [...tasks];
}

/**
 * The metadata file of a task, whether or not it exists: a task directory without
 * one means the agent wrote no return, which check reports as a finding.
 */
export function taskReturnFile(root: string, task: string): string {
  return findTaskReturn(root, task);
}

/**
 * The task's type (`meta`, `lean`, …) as specs/state.json records it, if it does:
 * a project entry whose number is the task's, with `task_type`, `type` or `language`.
 */
export function taskTypeFromState(root: string, task: string): string | undefined {
  let state: unknown;
  try {
    state = JSON.parse(readFileSync(path.join(root, "specs", "state.json"), "utf8")) as unknown;
  } catch {
    return undefined;
  }
  if (!isObject(state)) return undefined;
  for (const list of Object.values(state)) {
    if (!Array.isArray(list)) continue;
    for (const entry of list as unknown[]) {
      if (!isObject(entry)) continue;
      const number = entry.project_number ?? entry.task_number ?? entry.number;
      if (String(number) !== task) continue;
      const type = entry.task_type ?? entry.type ?? entry.language;
      return typeof type === "string" ? type : undefined;
    }
  }
  return undefined;
}
