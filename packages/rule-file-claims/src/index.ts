import { FILE_PROBLEM_REASON, MAX_ARTIFACT_PATHS, archivedPath, defineRule, docsUrl, isObject, judgedPaths, pointerOf, receivedValue as received, type FileCheck, type FileProblem, type RuleContext } from "@returnlint/core";

/** Problems that put a modified file's path outside what a scoped `git add` of the project may touch. */
const OUTSIDE: readonly FileProblem[] = ["emptyPath", "nulByte", "absolute", "homeRelative", "escapesRoot", "symlinkEscapesRoot", "symlinkLoop", "nameTooLong"];

type Context = RuleContext<Record<string, never>, "fileInvalid" | "fileEmpty" | "fileExists" | "fileArchived">;

/**
 * The file a path in a task folder names, found where the task was archived since
 * (`specs/archive/{N}_{SLUG}/…`), as the artifacts rule finds an artifact: undefined when it is not there.
 */
function archivedTwin(context: Context, found: FileCheck, path: string): { readonly movedTo: string; readonly size: number } | undefined {
  if (found.ok || found.problem !== "notFound") return undefined;
  const movedTo = archivedPath(path);
  if (movedTo === undefined) return undefined;
  const twin = context.files.check(movedTo);
  return twin.ok ? { movedTo, size: twin.size } : undefined;
}

/** A file the return says holds content: a non-empty regular file inside the root (or where its task was archived since). */
function checkContentFile(context: Context, found: FileCheck, path: string, pointer: string, field: string): void {
  const archived = archivedTwin(context, found, path);
  if (archived !== undefined) {
    if (archived.size > 0) context.pass({ messageId: "fileArchived", data: { field, path, movedTo: archived.movedTo, size: archived.size } });
    else context.report({ messageId: "fileEmpty", data: { field, path: archived.movedTo }, pointer });
  } else if (!found.ok) {
    context.report({ messageId: "fileInvalid", data: { field, path, reason: FILE_PROBLEM_REASON[found.problem] }, pointer });
  } else if (found.size === 0) {
    context.report({ messageId: "fileEmpty", data: { field, path }, pointer });
  } else {
    context.pass({ messageId: "fileExists", data: { field, path, size: found.size } });
  }
}

/** The paths the rule looks up, as it meets them: the handoff, each memory's source, each modified file. */
function namedPaths(value: Readonly<Record<string, unknown>>): string[] {
  const progress = value.partial_progress;
  const handoff = isObject(progress) && typeof progress.handoff_path === "string" ? [progress.handoff_path] : [];
  const candidates = Array.isArray(value.memory_candidates) ? (value.memory_candidates as unknown[]) : [];
  const sources = candidates.flatMap((candidate) => (isObject(candidate) && typeof candidate.source_artifact === "string" ? [candidate.source_artifact] : []));
  const modified = Array.isArray(value.modified_files) ? (value.modified_files as unknown[]).filter((entry): entry is string => typeof entry === "string") : [];
  return [...handoff, ...sources, ...modified];
}

/**
 * The files a metadata file names besides its artifacts: the handoff to resume from, the artifact a
 * memory was drawn from, and the files a scoped `git add` will stage.
 */
export default defineRule(docsUrl)({
  id: "file-claims",
  meta: {
    description:
      "The files a metadata file names besides its artifacts are real: partial_progress.handoff_path and memory_candidates[].source_artifact are non-empty files inside the root, modified_files[] are paths inside it.",
    schema: { type: "object", additionalProperties: false },
    defaultOptions: {},
    messages: {
      fileInvalid: {
        text: "{field} is not a file: {path} ({reason})",
        detail: "Error: {field} must name a non-empty regular file inside the project root, checked like an artifact",
        recommendation: "Verify {agent} writes {path} before the metadata file, at a path relative to the project root",
        reask: "{field} names {path}, which is not a file you wrote ({reason}); write it, or correct the path (relative to the project root)",
      },
      fileEmpty: {
        text: "{field} is an empty file: {path}",
        detail: "Error: the file {field} names holds nothing",
        recommendation: "Verify {agent} writes its content to {path} before the metadata file",
        reask: "{path}, named in {field}, is empty; write its content",
      },
      fileExists: { text: "{field} exists: {path} ({size} bytes)" },
      fileArchived: { text: "{field} was archived with its task: {path} is now {movedTo} ({size} bytes)" },
      notAPath: {
        text: "{field} is not a path: received {received}",
        detail: "Error: {field} must be a path relative to the project root",
        recommendation: "Fix {subagent} to write {field} as a relative path",
        reask: "{field} is {received}; write it as a path relative to the project root",
      },
      notAList: {
        text: "modified_files is not an array: received {received}",
        detail: "Error: modified_files lists the repository-relative paths the postflight stages with git add",
        recommendation: "Fix {subagent} to write modified_files as an array of relative paths",
        reask: "modified_files is {received}; write it as an array of the paths you changed, relative to the project root",
      },
      modifiedFileOutside: {
        text: "{field} is not a path inside the project: {path} ({reason})",
        detail: "Error: the postflight stages modified_files with a scoped git add; a path outside the project is not one it may stage",
        recommendation: "Fix {subagent} to list modified files relative to the project root",
        reask: "{field} is {path}, outside the project ({reason}); list only files inside it, relative to the project root",
      },
      modifiedFileNotAFile: {
        text: "{field} is not a regular file: {path}",
        detail: "Error: a scoped git add of a folder stages everything below it, not the files this run changed",
        recommendation: "Fix {subagent} to list each modified file, not its folder",
        reask: "{field} is {path}, not a file; list each file you changed, not its folder",
      },
      modifiedFileMissing: {
        text: "{field} does not exist: {path}",
        detail: "Warning: git add stages a deleted file only when git tracks it; a path that never existed makes the scoped git add fail",
        recommendation: "Verify {agent} lists the files it changed, with their paths relative to the project root",
        reask: "{field} is {path}, which does not exist; list only the files you changed, with their paths relative to the project root",
      },
      modifiedFilesInside: { text: "Modified files are inside the project: {count}" },
      tooManyFiles: {
        text: "The metadata file names more than {limit} different files: {unjudged} entries past the first {limit} paths were not checked",
        detail: "Error: returnlint looks up at most {limit} different paths of a return, and does not pass a return it has not judged whole",
        recommendation: "Fix {subagent} to list the files it wrote and changed, each once",
        reask: "the metadata file names more than {limit} different files in partial_progress, memory_candidates and modified_files; list each file you wrote or changed once",
      },
    },
  },
  check(context) {
    const { value } = context;
    // Each path is looked up once, the first MAX_ARTIFACT_PATHS different ones; more is said first,
    // before the entries' findings fill the list.
    const paths = judgedPaths(namedPaths(value), context.files);
    if (paths.unjudged > 0) context.report({ messageId: "tooManyFiles", data: { limit: MAX_ARTIFACT_PATHS, unjudged: paths.unjudged }, pointer: "" });

    const progress = value.partial_progress;
    if (isObject(progress)) {
      const handoff = progress.handoff_path;
      if (typeof handoff === "string") {
        const found = paths.check(handoff);
        if (found !== undefined) checkContentFile(context, found, handoff, "/partial_progress/handoff_path", "partial_progress.handoff_path");
      } else if (handoff !== undefined && handoff !== null) {
        context.report({ messageId: "notAPath", data: { field: "partial_progress.handoff_path", received: received(handoff) }, pointer: "/partial_progress/handoff_path" });
      }
    }

    const candidates = value.memory_candidates;
    if (Array.isArray(candidates)) {
      candidates.forEach((candidate: unknown, index) => {
        if (!isObject(candidate)) return;
        const source = candidate.source_artifact;
        const field = `memory_candidates[${String(index)}].source_artifact`;
        const pointer = pointerOf("memory_candidates", index, "source_artifact");
        if (typeof source === "string") {
          const found = paths.check(source);
          if (found !== undefined) checkContentFile(context, found, source, pointer, field);
        } else if (source !== undefined && source !== null) context.report({ messageId: "notAPath", data: { field, received: received(source) }, pointer });
      });
    }

    const modified = value.modified_files;
    if (modified === undefined) return;
    if (!Array.isArray(modified)) {
      context.report({ messageId: "notAList", data: { received: received(modified) }, pointer: "/modified_files" });
      return;
    }
    let inside = 0;
    modified.forEach((entry: unknown, index) => {
      const field = `modified_files[${String(index)}]`;
      const pointer = pointerOf("modified_files", index);
      if (typeof entry !== "string") {
        context.report({ messageId: "notAPath", data: { field, received: received(entry) }, pointer });
        return;
      }
      const found = paths.check(entry);
      if (found === undefined) return;
      if (found.ok || found.problem === "returnFile" || found.problem === "unreadable" || archivedTwin(context, found, entry) !== undefined) inside += 1;
      else if (OUTSIDE.includes(found.problem)) context.report({ messageId: "modifiedFileOutside", data: { field, path: entry, reason: FILE_PROBLEM_REASON[found.problem] }, pointer });
      else if (found.problem === "notAFile") context.report({ messageId: "modifiedFileNotAFile", data: { field, path: entry }, pointer });
      else context.report({ messageId: "modifiedFileMissing", data: { field, path: entry }, pointer, level: "warn" });
    });
    if (inside > 0 && inside === modified.length) context.pass({ messageId: "modifiedFilesInside", data: { count: inside } });
  },
});
