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
    { name: "a finished handoff that lists no artifact of its own (requireArtifacts off)", input: { status: "implemented", artifacts: [] }, options: { requireArtifacts: false } },
    {
      name: "an artifact archived with its task: moved, not missing",
      input: { status: "researched", artifacts: [artifact("specs/25_x/reports/research-001.md")] },
      files: { "specs/archive/25_x/reports/research-001.md": "# r\n" },
    },
  ],
  invalid: [
    {
      name: "a near miss: the claimed report is missing, its folder holds one a typo away",
      input: completed("specs/25_x/reports/research-002.md"),
      files: { "specs/25_x/reports/research-001.md": "# r\n" },
      errors: [
        {
          messageId: "nearMiss",
          pointer: "/artifacts/0/path",
          message: "Artifact does not exist: specs/25_x/reports/research-002.md (did you mean specs/25_x/reports/research-001.md?)",
          reask: 'file "specs/25_x/reports/research-002.md" does not exist (its folder holds specs/25_x/reports/research-001.md); write it, or fix the path',
        },
      ],
    },
    {
      name: "no near miss the return claims too: the file a typo away is its other artifact, and the claimed one is simply missing",
      input: completed("specs/189_x/reports/teammate-b-findings.md", "specs/189_x/reports/teammate-c-findings.md"),
      files: { "specs/189_x/reports/teammate-c-findings.md": "# c\n" },
      errors: [{ messageId: "notFound", pointer: "/artifacts/0/path", message: "Artifact does not exist: specs/189_x/reports/teammate-b-findings.md" }],
    },
    {
      name: "an absolute path from another clone: the same file is inside the project",
      input: completed("/home/someone/project/specs/25_x/reports/research-001.md"),
      files: { "specs/25_x/reports/research-001.md": "# r\n" },
      errors: [{ messageId: "absoluteInsideRoot", pointer: "/artifacts/0/path", data: { insideRoot: "specs/25_x/reports/research-001.md" } }],
    },
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
          reask: 'status "completed" says the work is done but "artifacts" is empty; write the files and list each as {"type": …, "path": …, "summary": …}, or set status to "partial"',
        },
      ],
    },
    {
      name: "phantom work with a contextual status",
      input: { status: "implemented", artifacts: [] },
      errors: [{ messageId: "phantomWork", data: { status: "implemented" } }],
    },
    {
      name: "requireArtifacts off still checks each artifact listed",
      input: { status: "implemented", artifacts: [artifact("specs/42_x/summaries/implementation-summary.md")] },
      options: { requireArtifacts: false },
      errors: [{ messageId: "notFound", pointer: "/artifacts/0/path" }],
    },
    {
      name: "a missing artifact file (example 4)",
      input: completed(".opencode/specs/280_validation/reports/research-001.md"),
      errors: [
        {
          messageId: "notFound",
          pointer: "/artifacts/0/path",
          message: "Artifact does not exist: .opencode/specs/280_validation/reports/research-001.md",
          reask: 'file ".opencode/specs/280_validation/reports/research-001.md" does not exist; write it, or fix the path',
        },
      ],
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
    { name: "an empty artifact", input: completed("empty.md"), files: { "empty.md": "" }, errors: [{ messageId: "empty", data: { path: "empty.md" }, reask: 'file "empty.md" is empty; write its content' }] },
    { name: "an absolute path", input: completed("/etc/passwd"), errors: [{ messageId: "absolutePath", data: { index: 0, path: "/etc/passwd" }, reask: 'the path "/etc/passwd" is absolute; make it relative to the project root' }] },
    {
      name: "a Windows absolute path, quoted in JSON for the subagent",
      input: completed("C:\\work\\report.md"),
      errors: [{ messageId: "absolutePath", data: { path: "C:\\work\\report.md", quotedPath: '"C:\\\\work\\\\report.md"' }, reask: 'the path "C:\\\\work\\\\report.md" is absolute; make it relative to the project root' }],
    },
    {
      name: "a .. escape",
      input: completed("../outside.md"),
      errors: [{ messageId: "escapesRoot", reask: 'the path "../outside.md" leads outside the project root; write the file inside the project and give its relative path' }],
    },
    { name: "a .. escape hidden in the middle", input: completed("specs/../../outside.md"), errors: [{ messageId: "escapesRoot" }] },
    { name: "a symlink leading out of the root", input: completed("out.md"), files: { "out.md": { symlink: "/etc/hostname" } }, errors: [{ messageId: "symlinkEscapesRoot", reask: '"out.md" is a symlink leading outside the project; write the real file inside the project' }] },
    { name: "a symlink loop", input: completed("loop.md"), files: { "loop.md": { symlink: "loop.md" } }, errors: [{ messageId: "symlinkLoop", reask: '"loop.md" is a symlink loop; replace it with the file itself' }] },
    { name: "a dangling symlink", input: completed("dangling.md"), files: { "dangling.md": { symlink: "nowhere.md" } }, errors: [{ messageId: "notFound" }] },
    { name: "a directory", input: completed("specs"), files: { specs: { directory: true } }, errors: [{ messageId: "notAFile", data: { path: "specs", kind: "directory" }, reask: '"specs" is a directory, not a file; point "path" at the file you wrote' }] },
    { name: "a FIFO is classified, never opened", input: completed("pipe"), files: { pipe: { fifo: true } }, errors: [{ messageId: "notAFile", data: { path: "pipe", kind: "FIFO" } }] },
    { name: "a device outside the root", input: completed("/dev/zero"), errors: [{ messageId: "absolutePath" }] },
    { name: "a NUL byte", input: completed("a\u0000b.md"), errors: [{ messageId: "nulByte", data: { path: '"a\\u0000b.md"' }, reask: 'the path "a\\u0000b.md" contains a NUL byte; fix the path' }] },
    {
      name: "a very long name: the subagent's line quotes it cut, still in JSON",
      input: completed(`${"x".repeat(300)}.md`),
      errors: [{ messageId: "nameTooLong", reask: `the path "${"x".repeat(198)}… is too long for the file system; use a shorter name` }],
    },
    { name: "an empty path", input: completed(""), errors: [{ messageId: "emptyPath", pointer: "/artifacts/0/path", reask: '"path" is empty; give the path of the file you wrote' }] },
    {
      name: "bare path strings (as in the corpus) are flagged and still checked",
      input: { status: "completed", artifacts: ["a.md", "gone.md"] },
      files: { "a.md": "x" },
      errors: [
        { messageId: "bareString", pointer: "/artifacts/0", reask: 'the artifact is a bare path; make it an object: {"type": …, "path": "a.md", "summary": …}' },
        { messageId: "bareString", pointer: "/artifacts/1" },
        { messageId: "notFound", pointer: "/artifacts/1" },
      ],
    },
    { name: "a non-object entry", input: { status: "completed", artifacts: [42] }, errors: [{ messageId: "notAnObject", pointer: "/artifacts/0", reask: 'the artifact is 42, not an object; make it {"type": …, "path": …, "summary": …}' }] },
    { name: "an entry with no path", input: { status: "completed", artifacts: [{ type: "report" }] }, errors: [{ messageId: "missingPath", reask: 'the artifact has no "path"; add the path of the file you wrote, relative to the project root' }] },
    { name: "a path that is a number", input: completed(7), errors: [{ messageId: "pathNotString", pointer: "/artifacts/0/path", reask: '"path" is 7, not a string; give the file\'s path as a string relative to the project root' }] },
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
      errors: [{ messageId: "homeRelativePath", data: { path: "~/.config/nvim/init.lua" }, reask: 'the path "~/.config/nvim/init.lua" starts with "~", which only a shell expands; make it relative to the project root' }],
    },
    { name: "another user's home directory too", input: completed("~root/notes.md"), errors: [{ messageId: "homeRelativePath" }] },
    {
      name: "an unknown status is checked like a success claim",
      input: { status: "done", artifacts: [artifact("gone.md")] },
      errors: [{ messageId: "notFound" }],
    },
  ],
});
