import { describe, it } from "vitest";
import { RuleTester } from "@returnlint/rule-tester";
import rule from "./index.js";

const handoff = "specs/042_prove_lemma/handoffs/phase-3-handoff.md";
const report = "specs/042_prove_lemma/reports/research-001.md";
const partial = (progress: Record<string, unknown>) => ({ status: "partial", artifacts: [], partial_progress: { stage: "context_exhaustion_handoff", ...progress } });
const memory = (fields: Record<string, unknown>) => ({ content: "Use omega for linear goals", category: "TECHNIQUE", confidence: 0.8, suggested_keywords: ["omega"], ...fields });
const implemented = (fields: Record<string, unknown>) => ({ status: "implemented", artifacts: [], ...fields });

new RuleTester({ describe, it }).run(rule, {
  valid: [
    { name: "a handoff path that exists", input: partial({ handoff_path: handoff }), files: { [handoff]: "# Resume at phase 3\n" } },
    { name: "handoff_path null (the projects write it so when no handoff was needed)", input: partial({ handoff_path: null }) },
    { name: "partial_progress without a handoff", input: partial({ details: "Phase 1 done" }) },
    { name: "a memory drawn from an artifact that exists", input: implemented({ memory_candidates: [memory({ source_artifact: report })] }), files: { [report]: "# Findings\n" } },
    { name: "a memory with no source artifact", input: implemented({ memory_candidates: [memory({})] }) },
    { name: "modified files inside the project", input: implemented({ modified_files: ["src/a.ts", "docs/b.md"] }), files: { "src/a.ts": "export {};\n", "docs/b.md": "" } },
    { name: "an empty list of modified files", input: implemented({ modified_files: [] }) },
    { name: "the return's own folder may be staged file by file", input: implemented({ modified_files: ["specs/042_prove_lemma/plans/plan-001.md"] }), files: { "specs/042_prove_lemma/plans/plan-001.md": "# Plan\n" } },
    { name: "no extra fields: nothing to check", input: { status: "researched", artifacts: [] } },
    {
      name: "a memory's source archived with its task since (specs/archive/…), as an artifact is",
      input: implemented({ memory_candidates: [memory({ source_artifact: report })] }),
      files: { "specs/archive/042_prove_lemma/reports/research-001.md": "# Findings\n" },
    },
    {
      name: "a modified file archived with its task since",
      input: implemented({ modified_files: ["specs/042_prove_lemma/plans/plan-001.md"] }),
      files: { "specs/archive/042_prove_lemma/plans/plan-001.md": "# Plan\n" },
    },
  ],
  invalid: [
    {
      name: "a handoff path that was never written",
      input: partial({ handoff_path: handoff }),
      errors: [{ messageId: "fileInvalid", pointer: "/partial_progress/handoff_path", message: `partial_progress.handoff_path is not a file: ${handoff} (no such file)` }],
    },
    { name: "an empty handoff", input: partial({ handoff_path: handoff }), files: { [handoff]: "" }, errors: [{ messageId: "fileEmpty", pointer: "/partial_progress/handoff_path", message: "is an empty file" }] },
    {
      name: "a memory's source archived with its task, and empty there",
      input: implemented({ memory_candidates: [memory({ source_artifact: report })] }),
      files: { "specs/archive/042_prove_lemma/reports/research-001.md": "" },
      errors: [{ messageId: "fileEmpty", pointer: "/memory_candidates/0/source_artifact", message: "memory_candidates[0].source_artifact is an empty file: specs/archive/042_prove_lemma/reports/research-001.md" }],
    },
    { name: "a handoff folder", input: partial({ handoff_path: "specs/042_prove_lemma/handoffs" }), files: { "specs/042_prove_lemma/handoffs": { directory: true } }, errors: [{ messageId: "fileInvalid", message: "(it is not a regular file)" }] },
    { name: "a handoff outside the root", input: partial({ handoff_path: "../other/handoff.md" }), errors: [{ messageId: "fileInvalid", message: "the path leads outside the project root" }] },
    { name: "a handoff through a symlink out", input: partial({ handoff_path: "specs/h.md" }), files: { "specs/h.md": { symlink: "/etc/hostname" } }, errors: [{ messageId: "fileInvalid", message: "symbolic link" }] },
    { name: "a numeric handoff path", input: partial({ handoff_path: 3 }), errors: [{ messageId: "notAPath", pointer: "/partial_progress/handoff_path", message: "partial_progress.handoff_path is not a path: received number 3" }] },
    {
      name: "a memory drawn from a missing artifact",
      input: implemented({ memory_candidates: [memory({ source_artifact: report }), memory({ source_artifact: "/tmp/notes.md" })] }),
      errors: [
        { messageId: "fileInvalid", pointer: "/memory_candidates/0/source_artifact", message: `memory_candidates[0].source_artifact is not a file: ${report} (no such file)` },
        { messageId: "fileInvalid", pointer: "/memory_candidates/1/source_artifact", message: "the path is absolute" },
      ],
    },
    { name: "a source artifact as an object", input: implemented({ memory_candidates: [memory({ source_artifact: { path: report } })] }), errors: [{ messageId: "notAPath", pointer: "/memory_candidates/0/source_artifact", message: "received object" }] },
    { name: "modified_files as one string", input: implemented({ modified_files: "src/a.ts" }), errors: [{ messageId: "notAList", pointer: "/modified_files", message: 'modified_files is not an array: received string "src/a.ts"' }] },
    {
      name: "modified files outside the project, a folder, a number",
      input: implemented({ modified_files: ["/etc/passwd", "../sibling/x.ts", "src", 7] }),
      files: { "src/a.ts": "x" },
      errors: [
        { messageId: "modifiedFileOutside", pointer: "/modified_files/0", message: "modified_files[0] is not a path inside the project: /etc/passwd (the path is absolute" },
        { messageId: "modifiedFileOutside", pointer: "/modified_files/1", message: "leads outside the project root" },
        { messageId: "modifiedFileNotAFile", pointer: "/modified_files/2", message: "modified_files[2] is not a regular file: src" },
        { messageId: "notAPath", pointer: "/modified_files/3", message: "received number 7" },
      ],
    },
    { name: "a modified file that does not exist (a warning: it may be a deletion)", input: implemented({ modified_files: ["src/gone.ts"] }), errors: [{ messageId: "modifiedFileMissing", pointer: "/modified_files/0", message: "modified_files[0] does not exist: src/gone.ts" }] },
  ],
});
