import { describe, it } from "vitest";
import { RuleTester } from "@returnlint/rule-tester";
import { claudeTranscript } from "@returnlint/testing";
import rule from "./index.js";

const NOTES = "specs/259_prove_completeness/notes.md";
const created = (file: string) => ({ status: "completed", summary: "Done.", artifacts: [{ type: "report", path: file, summary: "Notes", action: "created" }] });
// Transcripts name absolute paths; the RuleTester's root is a fresh folder, so "created" entries are
// checked against a root given as the transcript's own cwd.
const cwd = "/tmp/returnlint-write-claims";
const wroteNew = claudeTranscript([{ write: NOTES, created: true }], cwd);
const wroteOld = claudeTranscript([{ write: NOTES, created: false }], cwd);
const writeFailed = claudeTranscript([{ write: NOTES, created: true, failed: true }], cwd);
const shellWrote = claudeTranscript([{ bash: `mkdir -p specs && printf '%s' 'x' > '${cwd}/${NOTES}'`, exitCode: 0 }], cwd);
const nothing = claudeTranscript([{ bash: "ls", exitCode: 0 }], cwd);
const absolute = (file: string) => `${cwd}/${file}`;

new RuleTester({ describe, it }).run(rule, {
  valid: [
    { name: "created by a Write that said so", input: created(absolute(NOTES)), expected: { transcriptPath: wroteNew } },
    { name: "created by a shell command that redirects to it", input: created(absolute(NOTES)), expected: { transcriptPath: shellWrote } },
    { name: "files_created, written", input: { status: "completed", files_created: [absolute(NOTES)] }, expected: { transcriptPath: wroteNew } },
    { name: "an artifact not said to be created is not asked for", input: { status: "completed", artifacts: [{ type: "report", path: absolute(NOTES), summary: "Notes" }] }, expected: { transcriptPath: nothing } },
    { name: "no transcript: said, nothing fails", input: created(absolute(NOTES)) },
  ],
  invalid: [
    {
      name: "a \"created\" file that was there before the run",
      input: created(absolute(NOTES)),
      expected: { transcriptPath: wroteOld },
      errors: [
        {
          messageId: "existedBefore",
          pointer: "/artifacts/0/path",
          message: `File claimed created, but it was there before the run: ${absolute(NOTES)}`,
          detail: "Transcript line 2: Write changed a file that was there",
          reask: `${absolute(NOTES)} was there before your run (transcript line 2: Write updated it); report it as modified, not created`,
        },
      ],
    },
    {
      name: "a \"Created\" for a write the tool layer rejected",
      input: created(absolute(NOTES)),
      expected: { transcriptPath: writeFailed },
      errors: [{ messageId: "writeFailed", pointer: "/artifacts/0/path", reask: `your write of ${absolute(NOTES)} failed (transcript line 2, Write); write it again and check the result` }],
    },
    {
      name: "present on disk is not written by this run",
      input: created(NOTES),
      files: { [NOTES]: "# Notes\n" },
      expected: { transcriptPath: nothing },
      errors: [{ messageId: "notWritten", pointer: "/artifacts/0/path", detail: "(the file is on disk: an earlier run, or another process, wrote it)" }],
    },
    {
      name: "a transcript that cannot be read is a warning, never a pass",
      input: created(NOTES),
      expected: { transcriptPath: "/nonexistent/returnlint/transcript.jsonl" },
      errors: [{ messageId: "transcriptUnreadable" }],
    },
  ],
});
