import { describe, it } from "vitest";
import { RuleTester } from "@returnlint/rule-tester";
import rule from "./index.js";

const report = ".opencode/specs/280_fix_orchestrator_stage_4_validation/reports/research-001.md";
const artifact = (path: unknown) => ({ type: "report", path, summary: "Research report" });
const completed = (...paths: unknown[]) => ({ status: "completed", artifacts: paths.map(artifact) });

new RuleTester({ describe, it }).run(rule, {
  valid: [
    { name: "the research report's valid return (example 1)", input: completed(report), files: { [report]: "# Research\n" } },
    { name: "a contextual success status", input: { status: "researched", artifacts: [artifact("r.md")] }, files: { "r.md": "x" } },
    ...["partial", "failed", "blocked", "in_progress"].map((status) => ({
      name: `${status} skips the existence checks`,
      input: { status, artifacts: [artifact("missing.md")] },
    })),
    { name: "partial with no artifacts at all", input: { status: "partial", artifacts: [] } },
    { name: "an unknown, unfinished-sounding status with no artifacts is status-enum's to report", input: { status: "awaiting_confirmation", artifacts: [] } },
    {
      name: "paths with spaces, quotes, globs, unicode and newlines",
      input: completed("my report.md", "it's \"quoted\".md", "*.md", "résumé-报告.md", "two\nlines.md"),
      files: { "my report.md": "a", "it's \"quoted\".md": "b", "*.md": "c", "résumé-报告.md": "d", "two\nlines.md": "e" },
    },
    { name: "a symlink that stays inside the root", input: completed("link.md"), files: { "real.md": "x", "link.md": { symlink: "real.md" } } },
    { name: "a ./ prefix and redundant segments", input: completed("./docs/../docs/a.md"), files: { "docs/a.md": "x" } },
    { name: "a missing list is required-fields' job", input: { status: "completed" } },
  ],
  invalid: [
    {
      name: "phantom work: completed with no artifacts (example 3)",
      input: { status: "completed", artifacts: [] },
      agent: "researcher",
      errors: [
        {
          messageId: "phantomWork",
          pointer: "/artifacts",
          message: "Agent returned 'completed' status but created no artifacts",
          detail: "Phantom work detected - status=completed but no artifacts",
        },
      ],
    },
    {
      name: "phantom work with a contextual status",
      input: { status: "implemented", artifacts: [] },
      errors: [{ messageId: "phantomWork", data: { status: "implemented" } }],
    },
    {
      name: "a missing artifact file (example 4)",
      input: completed(".opencode/specs/280_validation/reports/research-001.md"),
      errors: [{ messageId: "notFound", pointer: "/artifacts/0/path", message: "Artifact does not exist: .opencode/specs/280_validation/reports/research-001.md" }],
    },
    {
      name: "every failing artifact is reported, not only the first",
      input: completed("a.md", "b.md", "c.md"),
      files: { "b.md": "ok" },
      errors: [
        { messageId: "notFound", pointer: "/artifacts/0/path" },
        { messageId: "notFound", pointer: "/artifacts/2/path" },
      ],
    },
    { name: "an empty artifact", input: completed("empty.md"), files: { "empty.md": "" }, errors: [{ messageId: "empty", data: { path: "empty.md" } }] },
    { name: "an absolute path", input: completed("/etc/passwd"), errors: [{ messageId: "absolutePath", data: { index: 0, path: "/etc/passwd" } }] },
    { name: "a Windows absolute path", input: completed("C:\\work\\report.md"), errors: [{ messageId: "absolutePath" }] },
    { name: "a .. escape", input: completed("../outside.md"), errors: [{ messageId: "escapesRoot" }] },
    { name: "a .. escape hidden in the middle", input: completed("specs/../../outside.md"), errors: [{ messageId: "escapesRoot" }] },
    { name: "a symlink leading out of the root", input: completed("out.md"), files: { "out.md": { symlink: "/etc/hostname" } }, errors: [{ messageId: "symlinkEscapesRoot" }] },
    { name: "a symlink loop", input: completed("loop.md"), files: { "loop.md": { symlink: "loop.md" } }, errors: [{ messageId: "symlinkLoop" }] },
    { name: "a dangling symlink", input: completed("dangling.md"), files: { "dangling.md": { symlink: "nowhere.md" } }, errors: [{ messageId: "notFound" }] },
    { name: "a directory", input: completed("specs"), files: { specs: { directory: true } }, errors: [{ messageId: "notAFile", data: { path: "specs", kind: "directory" } }] },
    { name: "a FIFO is classified, never opened", input: completed("pipe"), files: { pipe: { fifo: true } }, errors: [{ messageId: "notAFile", data: { path: "pipe", kind: "FIFO" } }] },
    { name: "a device outside the root", input: completed("/dev/zero"), errors: [{ messageId: "absolutePath" }] },
    { name: "a NUL byte", input: completed("a\u0000b.md"), errors: [{ messageId: "nulByte", data: { path: '"a\\u0000b.md"' } }] },
    { name: "a very long name", input: completed(`${"x".repeat(300)}.md`), errors: [{ messageId: "nameTooLong" }] },
    { name: "an empty path", input: completed(""), errors: [{ messageId: "emptyPath", pointer: "/artifacts/0/path" }] },
    {
      name: "bare path strings (as in the corpus) are flagged and still checked",
      input: { status: "completed", artifacts: ["a.md", "gone.md"] },
      files: { "a.md": "x" },
      errors: [
        { messageId: "bareString", pointer: "/artifacts/0" },
        { messageId: "bareString", pointer: "/artifacts/1" },
        { messageId: "notFound", pointer: "/artifacts/1" },
      ],
    },
    { name: "a non-object entry", input: { status: "completed", artifacts: [42] }, errors: [{ messageId: "notAnObject", pointer: "/artifacts/0" }] },
    { name: "an entry with no path", input: { status: "completed", artifacts: [{ type: "report" }] }, errors: [{ messageId: "missingPath" }] },
    { name: "a path that is a number", input: completed(7), errors: [{ messageId: "pathNotString", pointer: "/artifacts/0/path" }] },
    {
      name: "a success-like word with no artifacts is phantom work",
      input: { status: "done", artifacts: [] },
      errors: [{ messageId: "phantomWork", data: { status: "done" } }],
    },
    {
      name: "an unfinished return's artifacts still need the right shape",
      input: { status: "partial", artifacts: ["specs/1_x/reports/research-001.md"] },
      errors: [{ messageId: "bareString", pointer: "/artifacts/0" }],
    },
    {
      name: "a home-directory path is home-relative, not absolute",
      input: completed("~/.config/nvim/init.lua"),
      errors: [{ messageId: "homeRelativePath", data: { path: "~/.config/nvim/init.lua" } }],
    },
    { name: "another user's home directory too", input: completed("~root/notes.md"), errors: [{ messageId: "homeRelativePath" }] },
    {
      name: "an unknown status is checked like a success claim",
      input: { status: "done", artifacts: [artifact("gone.md")] },
      errors: [{ messageId: "notFound" }],
    },
  ],
});
