import { describe, it } from "vitest";
import { RuleTester } from "@returnlint/rule-tester";
import { claudeTranscript } from "@returnlint/testing";
import rule from "./index.js";

const bothBack = claudeTranscript([{ agent: "lean-research-agent", returned: true }, { agent: "planner", returned: true }]);
const plannerLost = claudeTranscript([{ agent: "lean-research-agent", returned: true }, { agent: "planner", returned: false }]);
const reportsOn = (...agents: unknown[]) => ({ status: "completed", summary: "Both subagents verified the plan.", subagents: agents });

new RuleTester({ describe, it }).run(rule, {
  valid: [
    { name: "every subagent reported on was called and returned", input: reportsOn("lean-research-agent", { agent_type: "planner", summary: "Plan written." }), expected: { transcriptPath: bothBack } },
    { name: "delegated_to, called and back", input: { status: "completed", delegated_to: "planner" }, expected: { transcriptPath: bothBack } },
    { name: "an entry that says its subagent timed out claims no return", input: reportsOn({ agent: "planner", status: "timeout" }), expected: { transcriptPath: plannerLost } },
    { name: "no transcript: said, nothing fails", input: reportsOn("planner") },
  ],
  invalid: [
    {
      name: "results presented as verified fact from a subagent that never returned",
      input: reportsOn("lean-research-agent", { agent_type: "planner", summary: "Verified." }),
      expected: { transcriptPath: plannerLost },
      errors: [
        {
          messageId: "notReturned",
          pointer: "/subagents/1/agent_type",
          message: "Subagent reported on, but it never returned: planner",
          detail: "Transcript line 4: planner was called; no result of that call is in",
          reask: "planner was called (transcript line 4) but never returned; wait for its return, or report that it did not return",
        },
      ],
    },
    {
      name: "a subagent reported on that was never called",
      input: reportsOn("implementer"),
      expected: { transcriptPath: bothBack },
      errors: [{ messageId: "notCalled", pointer: "/subagents/0", detail: "(it called lean-research-agent, planner)", reask: "you report on implementer, but your transcript shows no call of it; delegate to it, or stop reporting its results" }],
    },
    {
      name: "a transcript that cannot be read is a warning, never a pass",
      input: reportsOn("planner"),
      expected: { transcriptPath: "/nonexistent/returnlint/transcript.jsonl" },
      errors: [{ messageId: "transcriptUnreadable" }],
    },
  ],
});
