import { tmpdir } from "node:os";
import { describe, expect, it } from "vitest";
import { createFileView, parseReturn, runRules, type Expected } from "@returnlint/core";
import { RuleTester } from "@returnlint/rule-tester";
import rule from "./index.js";

const now = new Date("2026-01-28T10:42:00Z");
const progress = { stage: "searches_completed", details: "Completed 3 searches, found 5 theorems. Starting synthesis." };
const early = (fields: Record<string, unknown> = {}) => ({
  status: "in_progress",
  started_at: "2026-01-28T10:30:00Z",
  artifacts: [],
  partial_progress: progress,
  metadata: { session_id: "sess_1736700000_abc123", agent_type: "lean-research-agent", delegation_depth: 1, delegation_path: ["orchestrator", "research", "lean-research-agent"] },
  ...fields,
});
const tenMinutes = { now, staleAfterSeconds: 600 };

new RuleTester({ describe, it }).run(rule, {
  valid: [
    { name: "return-metadata-file.md's early metadata, with no staleness limit, is an [INFO] line", input: early(), expected: { now } },
    { name: "younger than the limit", input: early(), expected: { now, staleAfterSeconds: 3600 } },
    { name: "exactly at the limit is not yet stale", input: early(), expected: { now, staleAfterSeconds: 720 } },
    { name: "no started_at and no limit", input: early({ started_at: undefined }), expected: { now } },
    { name: "an orchestrator polling early metadata (no command) is told, not failed", input: early(), expected: { now, task: "259" } },
    { name: "failAtGate: false keeps a gate's in_progress an [INFO] line", input: early(), command: "research", options: { failAtGate: false }, expected: { now } },
    { name: "a start in the future is not stale", input: early({ started_at: "2026-01-28T11:00:00Z" }), expected: tenMinutes },
    ...["researched", "planned", "implemented", "partial", "failed", "blocked", "completed"].map((status) => ({
      name: `${status} is not early metadata`,
      input: early({ status, started_at: "2020-01-01T00:00:00Z" }),
      expected: tenMinutes,
    })),
  ],
  invalid: [
    {
      name: "stale: interrupted 12 minutes ago, the limit is 10",
      input: early(),
      expected: tenMinutes,
      errors: [
        {
          messageId: "stale",
          pointer: "/started_at",
          message: "Agent was interrupted 12 minutes ago and its early metadata is stale (older than 10 minutes)",
          detail: 'started_at 2026-01-28T10:30:00Z; last progress at stage "searches_completed": Completed 3 searches',
        },
      ],
    },
    { name: "a day-old start", input: early({ started_at: "2026-01-27T10:30:00Z" }), expected: tenMinutes, errors: [{ messageId: "stale", data: { ago: "24 hours ago", limit: "10 minutes" } }] },
    { name: "a week-old start", input: early({ started_at: "2026-01-20T09:00:00Z" }), expected: { now, staleAfterSeconds: 7200 }, errors: [{ messageId: "stale", data: { ago: "8 days ago", limit: "2 hours", startedAt: "2026-01-20T09:00:00Z" } }] },
    { name: "a time zone offset is honoured", input: early({ started_at: "2026-01-28T11:30:00+02:00" }), expected: tenMinutes, errors: [{ messageId: "stale", data: { ago: "72 minutes ago" } }] },
    {
      name: "stale with no partial_progress says so",
      input: early({ partial_progress: undefined }),
      expected: tenMinutes,
      errors: [{ messageId: "stale", data: { progress: "no partial_progress was recorded, so where the agent stopped is unknown", from: "the start" } }],
    },
    {
      name: "stale with phases",
      input: early({ partial_progress: { stage: "phase_2_in_progress", details: "Phase 1 completed.", phases_completed: 1, phases_total: 4 } }),
      expected: tenMinutes,
      errors: [{ messageId: "stale", detail: 'stage "phase_2_in_progress" (1 of 4 phases done): Phase 1 completed.' }],
    },
    {
      name: "a limit but no started_at: the age is unknown",
      input: early({ started_at: undefined }),
      expected: tenMinutes,
      errors: [{ messageId: "ageUnknown", pointer: "/started_at", message: "how long ago is unknown: the return has no started_at", detail: "a staleness limit of 10 minutes" }],
    },
    {
      name: "a limit and an unparsable started_at",
      input: early({ started_at: "yesterday afternoon" }),
      expected: tenMinutes,
      errors: [{ messageId: "ageUnknown", data: { unknown: 'started_at is not an ISO 8601 timestamp (received string "yesterday afternoon")' } }],
    },
    { name: "a limit and an impossible date", input: early({ started_at: "2026-13-45T10:30:00Z" }), expected: tenMinutes, errors: [{ messageId: "ageUnknown", message: "not an ISO 8601 timestamp" }] },
    {
      name: "at a postflight gate (a command), in_progress is not a pass",
      input: early(),
      command: "research",
      expected: { now, task: "259" },
      errors: [
        {
          messageId: "notFinished",
          pointer: "/status",
          message: "Agent has not finished: status is in_progress at the /research postflight gate, started 12 minutes ago",
          detail: 'early metadata is not a result; last progress at stage "searches_completed"',
          reask: 'status "in_progress" says your work is not finished; finish it and set the success status, or set status to "partial" with errors[] saying what is left',
        },
      ],
    },
    {
      name: "at a gate, with no started_at",
      input: early({ started_at: undefined }),
      command: "implement",
      expected: { now },
      errors: [{ messageId: "notFinished", data: { ago: "at an unknown time (the return has no started_at)" } }],
    },
    { name: "at a gate and stale: stale says more", input: early(), command: "research", expected: tenMinutes, errors: [{ messageId: "stale" }] },
    { name: "a limit and a numeric started_at", input: early({ started_at: 1769596200 }), expected: tenMinutes, errors: [{ messageId: "ageUnknown", data: { unknown: "started_at is not an ISO 8601 timestamp (received number 1769596200)" } }] },
  ],
});

async function run(input: unknown, expected: Expected, command: string | null = "research", options = { failAtGate: false }) {
  const text = JSON.stringify(input);
  const report = await runRules({
    text,
    parse: parseReturn(text),
    command,
    format: "metadata-file",
    expected,
    rules: [{ rule, severity: "error", options, source: "test" }],
    files: createFileView(tmpdir()),
  });
  return report.results.map(({ level, message, detail, recommendation }) => ({ level, message, detail, recommendation }));
}

describe("early-metadata: an interrupted agent that is not stale is an [INFO] line", () => {
  it("says where it stopped, how long ago, and how to resume", async () => {
    expect(await run(early(), { now, task: "259" })).toEqual([
      {
        level: "info",
        message: "Agent was interrupted before finishing: status is in_progress, started 12 minutes ago",
        detail: 'Note: last progress at stage "searches_completed": Completed 3 searches, found 5 theorems. Starting synthesis.',
        recommendation: 'Resume the task with /research 259 so that lean-research-agent continues from stage "searches_completed"',
      },
    ]);
  });

  it.each([
    ["no started_at", early({ started_at: undefined }), "started at an unknown time (the return has no started_at)"],
    ["an unparsable started_at", early({ started_at: "10:30" }), 'started at an unknown time (started_at is not an ISO 8601 timestamp (received string "10:30"))'],
    ["a start seconds ago", early({ started_at: "2026-01-28T10:41:15Z" }), "started 45 seconds ago"],
    ["a start 90 seconds ago stays in seconds", early({ started_at: "2026-01-28T10:40:30Z" }), "started 90 seconds ago"],
    ["a start two minutes ago", early({ started_at: "2026-01-28T10:40:00Z" }), "started 2 minutes ago"],
    ["a start one second ago", early({ started_at: "2026-01-28T10:41:59Z" }), "started 1 second ago"],
    ["a start in the future", early({ started_at: "2026-01-28T10:47:00Z" }), "started 5 minutes in the future (check the agent's clock)"],
  ])("%s", async (_name, input, clause) => {
    const [result] = await run(input, { now });
    expect(result?.level).toBe("info");
    expect(result?.message).toBe(`Agent was interrupted before finishing: status is in_progress, ${clause}`);
  });

  it.each([
    ["no partial_progress", early({ partial_progress: undefined }), "no partial_progress was recorded, so where the agent stopped is unknown", "the start"],
    ["partial_progress as text", early({ partial_progress: "halfway" }), 'partial_progress is string "halfway", not an object with stage and details', "the start"],
    ["a stage without details", early({ partial_progress: { stage: "initializing" } }), 'stage "initializing" (partial_progress.details is missing)', 'stage "initializing"'],
  ])("%s", async (_name, input, progressText, from) => {
    const [result] = await run(input, { now }, null);
    expect(result?.detail).toContain(progressText);
    expect(result?.recommendation).toBe(`Resume the task with the same command so that lean-research-agent continues from ${from}`);
  });

  it("at a gate, recommends resuming instead of postflight", async () => {
    const [result] = await run(early(), { now, task: "259" }, "research", { failAtGate: true });
    expect(result).toEqual({
      level: "fail",
      message: "Agent has not finished: status is in_progress at the /research postflight gate, started 12 minutes ago",
      detail: 'Error: early metadata is not a result; last progress at stage "searches_completed": Completed 3 searches, found 5 theorems. Starting synthesis.',
      recommendation: 'Do not run postflight: resume the task with /research 259 so that lean-research-agent continues from stage "searches_completed"',
    });
  });

  it("uses the real clock when none is given", async () => {
    const started = new Date(Date.now() - 3 * 3_600_000).toISOString();
    const [result] = await run(early({ started_at: started }), {});
    expect(result?.message).toContain("started 3 hours ago");
  });
});
