import { IN_PROGRESS, defineRule, docsUrl, isObject, jsonType, preview } from "@returnlint/core";

const ISO_8601 = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/i;

/** `45 seconds`, `90 minutes`, `5 hours`, `3 days`: whole units, small enough to stay precise. */
function humanDuration(seconds: number): string {
  const [unit, size] = seconds < 120 ? ["second", 1] : seconds < 7_200 ? ["minute", 60] : seconds < 172_800 ? ["hour", 3_600] : ["day", 86_400];
  const count = Math.floor(seconds / size);
  return `${String(count)} ${unit}${count === 1 ? "" : "s"}`;
}

function shown(value: unknown): string {
  return value === null ? "null" : `${jsonType(value)} ${preview(value, 40)}`;
}

/** When the agent started, or why that is unknown. */
function startOf(value: unknown): { at: Date; raw: string } | { unknown: string } {
  if (value === undefined || value === null) return { unknown: "the return has no started_at" };
  if (typeof value !== "string" || !ISO_8601.test(value.trim()) || Number.isNaN(Date.parse(value.trim()))) {
    return { unknown: `started_at is not an ISO 8601 timestamp (received ${shown(value)})` };
  }
  return { at: new Date(value.trim()), raw: value.trim() };
}

/** Where the agent stopped, from `partial_progress`, as one clause. */
function progressOf(progress: unknown): { progress: string; from: string } {
  if (progress === undefined || progress === null) {
    return { progress: "no partial_progress was recorded, so where the agent stopped is unknown", from: "the start" };
  }
  if (!isObject(progress)) {
    return { progress: `partial_progress is ${shown(progress)}, not an object with stage and details, so where the agent stopped is unknown`, from: "the start" };
  }
  const { stage, details, phases_completed: done, phases_total: total } = progress;
  const named = typeof stage === "string" && stage.trim() !== "" ? `stage "${stage}"` : "an unnamed stage (partial_progress.stage is missing)";
  const phases = typeof done === "number" && typeof total === "number" ? ` (${String(done)} of ${String(total)} phases done)` : "";
  const said = typeof details === "string" && details.trim() !== "" ? `: ${details}` : " (partial_progress.details is missing)";
  return { progress: `last progress at ${named}${phases}${said}`, from: named };
}

interface Options {
  /** With a command (a postflight gate: `--command`, the hook), an in_progress return fails. */
  failAtGate: boolean;
}

/** return-metadata-file.md, early metadata: `in_progress` at validation time means the agent never finished. */
export default defineRule<Options>(docsUrl)({
  id: "early-metadata",
  meta: {
    description:
      "An in_progress return means the agent was interrupted: says where it stopped and how long ago; fails at a postflight gate (--command) and once it is stale (--stale-after).",
    schema: {
      type: "object",
      additionalProperties: false,
      properties: {
        failAtGate: {
          type: "boolean",
          description:
            "With a command (`--command`, or the hook's), the check is a postflight gate and an `in_progress` return fails (`notFinished`); without one (an orchestrator polling early metadata) it is an `[INFO]` line. `false`: an `[INFO]` line at a gate too.",
        },
      },
      required: ["failAtGate"],
    },
    defaultOptions: { failAtGate: true },
    messages: {
      notFinished: {
        text: "Agent has not finished: status is in_progress at the /{command} postflight gate, started {ago}",
        detail: "Error: early metadata is not a result; {progress}",
        recommendation: "Do not run postflight: resume the task with {resume} so that {agent} continues from {from}",
        reask: 'status "in_progress" says your work is not finished; finish it and set the success status, or set status to "partial" with errors[] saying what is left',
      },
      interrupted: {
        text: "Agent was interrupted before finishing: status is in_progress, started {ago}",
        detail: "Note: {progress}",
        recommendation: "Resume the task with {resume} so that {agent} continues from {from}",
      },
      stale: {
        text: "Agent was interrupted {ago} and its early metadata is stale (older than {limit})",
        detail: "Error: status is still in_progress, started_at {startedAt}; {progress}",
        recommendation: "Resume the task with {resume} so that {agent} continues from {from}; no agent is working on it any more",
        reask: "status is still \"in_progress\", started {ago}; finish the work and set the success status, or set status to \"partial\" with errors[] saying what is left",
      },
      ageUnknown: {
        text: "Agent was interrupted and how long ago is unknown: {unknown}",
        detail: "Error: a staleness limit of {limit} needs started_at to tell a running agent from a stale one; {progress}",
        recommendation: "Fix {subagent} to write started_at (ISO 8601) in its early metadata, and resume the task with {resume}",
        reask: "{unknown}; write started_at (an ISO 8601 timestamp) in your early metadata",
      },
    },
  },
  check(context) {
    const { value, expected } = context;
    if (value.status !== IN_PROGRESS) return;
    const task = expected.task === undefined ? "" : ` ${expected.task}`;
    const resume = context.command === null ? `the same command${task === "" ? "" : ` for task${task}`}` : `/${context.command}${task}`;
    const { progress, from } = progressOf(value.partial_progress);
    const start = startOf(value.started_at);
    const limit = expected.staleAfterSeconds;

    const gate = context.command !== null && context.options.failAtGate;
    if ("unknown" in start) {
      const ago = `at an unknown time (${start.unknown})`;
      if (limit !== undefined) {
        context.report({ messageId: "ageUnknown", data: { unknown: start.unknown, limit: humanDuration(limit), progress, resume }, pointer: "/started_at" });
      } else if (gate) {
        context.report({ messageId: "notFinished", data: { ago, progress, resume, from }, pointer: "/status" });
      } else {
        context.info({ messageId: "interrupted", data: { ago, progress, resume, from }, pointer: "/status" });
      }
      return;
    }
    const age = ((expected.now ?? new Date()).getTime() - start.at.getTime()) / 1000;
    const ago = age < 0 ? `${humanDuration(-age)} in the future (check the agent's clock)` : `${humanDuration(age)} ago`;
    if (limit !== undefined && age > limit) {
      const data = { ago, limit: humanDuration(limit), startedAt: start.raw, progress, resume, from };
      context.report({ messageId: "stale", data, pointer: "/started_at" });
      return;
    }
    if (gate) context.report({ messageId: "notFinished", data: { ago, progress, resume, from }, pointer: "/status" });
    else context.info({ messageId: "interrupted", data: { ago, progress, resume, from }, pointer: "/status" });
  },
});
