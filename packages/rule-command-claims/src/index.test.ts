import { describe, it } from "vitest";
import { RuleTester } from "@returnlint/rule-tester";
import { claudeTranscript } from "@returnlint/testing";
import rule from "./index.js";

const FAILING_OUTPUT = "# tests 1\n# pass 0\n# fail 1\n";
const ranGreen = claudeTranscript([{ bash: "node --test test/", exitCode: 0, output: "# pass 1\n# fail 0\n" }, { bash: "cd app && pnpm lint", exitCode: 0 }]);
const ranRed = claudeTranscript([{ bash: "node --test test/", exitCode: 1, output: FAILING_OUTPUT }]);
const completed = (commands: unknown) => ({ status: "completed", summary: "Done.", commands_run: commands });

new RuleTester({ describe, it }).run(rule, {
  valid: [
    { name: "commands that ran and exited 0", input: completed(["node --test test/", "pnpm lint"]), expected: { transcriptPath: ranGreen } },
    { name: "a claimed command run as one step of a longer line", input: completed(["pnpm lint"]), expected: { transcriptPath: ranGreen } },
    { name: "verification.commands, as objects", input: { status: "completed", verification: { commands: [{ command: "node --test test/" }] } }, expected: { transcriptPath: ranGreen } },
    { name: "a failed run the return itself reports as failed", input: completed([{ command: "node --test test/", exit_code: 1 }]), expected: { transcriptPath: ranRed } },
    { name: "a failed return does not claim its commands succeeded", input: { status: "failed", commands_run: ["node --test test/"] }, expected: { transcriptPath: ranRed } },
    { name: "no transcript: said, nothing fails", input: completed(["pnpm lint"]) },
    { name: "no commands claimed: nothing to check", input: { status: "completed" }, expected: { transcriptPath: ranRed } },
  ],
  invalid: [
    {
      name: "a claimed command that never ran",
      input: completed(["node --test test/", "pnpm build"]),
      expected: { transcriptPath: ranGreen },
      errors: [
        {
          messageId: "notRun",
          pointer: "/commands_run/1",
          message: "Command claimed but never run: pnpm build",
          detail: "(2 command(s) ran: line 2 `node --test test/`, line 4 `cd app && pnpm lint`)",
          reask: "you say you ran `pnpm build`, but your transcript shows no such command; run it, or remove it from the commands you report",
        },
      ],
    },
    {
      name: "command ran is not command passed: the exit code and the output's last line are quoted",
      input: completed(["node --test test/"]),
      expected: { transcriptPath: ranRed },
      errors: [
        {
          messageId: "failed",
          pointer: "/commands_run/0",
          message: "Command claimed to succeed exited 1: node --test test/",
          detail: "Transcript line 2: `node --test test/` exited 1\nOutput ends: # fail 1",
          reask: "`node --test test/` exited 1 (transcript line 2: # fail 1); fix what failed and run it again, or report it as failed",
        },
      ],
    },
    {
      name: "a contract's command annotation",
      input: { status: "completed", proof: { ran: "pnpm build" } },
      contract: { type: "object", properties: { proof: { type: "object", properties: { ran: { type: "string", "x-returnlint": "command" } } } } },
      expected: { transcriptPath: ranGreen },
      errors: [{ messageId: "notRun", pointer: "/proof/ran" }],
    },
    {
      name: "a transcript that cannot be read is a warning, never a pass",
      input: completed(["pnpm lint"]),
      expected: { transcriptPath: "/nonexistent/returnlint/transcript.jsonl" },
      errors: [{ messageId: "transcriptUnreadable", message: "Command claims not checked: /nonexistent/returnlint/transcript.jsonl does not exist" }],
    },
  ],
});
