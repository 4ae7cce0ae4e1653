import { defineRule, docsUrl, fateOf, isObject, isSuccessLike, jsonType, judgedPaths, MAX_ARTIFACT_PATHS, MAX_QUOTED_CHARS, preview, type ArtifactFate, type ClaimedArtifact, type FileProblem } from "@returnlint/core";

interface Options {
  /** Statuses that say the work is unfinished: their artifacts are not checked (subagent-return-validation.md: such work may have incomplete artifacts). */
  skipStatuses: string[];
  /** A return that claims finished work lists at least one artifact: not a handoff, whose task's metadata file lists the task's. */
  requireArtifacts: boolean;
}

const WRONG_PATH = "Verify {agent} writes artifacts to correct paths";
const RELATIVE = "Fix {subagent} to name artifacts by paths relative to the project root";
const ARTIFACT_SHAPE = '{"type": …, "path": …, "summary": …}';

const PROBLEM_MESSAGE = {
  emptyPath: "emptyPath",
  nulByte: "nulByte",
  absolute: "absolutePath",
  homeRelative: "homeRelativePath",
  escapesRoot: "escapesRoot",
  symlinkEscapesRoot: "symlinkEscapesRoot",
  symlinkLoop: "symlinkLoop",
  notFound: "notFound",
  notAFile: "notAFile",
  nameTooLong: "nameTooLong",
  unreadable: "unreadable",
  returnFile: "returnFile",
} as const satisfies Readonly<Record<FileProblem, string>>;

/** The problems a fate can add to (core's `fateOf`): an archived twin, a near miss, the same file inside the root. */
const HINTED: ReadonlySet<FileProblem> = new Set<FileProblem>(["notFound", "absolute", "homeRelative"]);
/** How many artifacts of one return get a hint. */
const MAX_HINTED = 100;

/** The message a fate words better than the file view's problem alone, with its data. */
function hintOf(fate: ArtifactFate): { messageId: "nearMiss" | "absoluteInsideRoot"; data: Record<string, string> } | undefined {
  if (fate.fate === "near-miss") return { messageId: "nearMiss", data: { didYouMean: fate.didYouMean } };
  if (fate.fate === "absolute" && fate.insideRoot !== undefined) return { messageId: "absoluteInsideRoot", data: { insideRoot: fate.insideRoot } };
  return undefined;
}

/** The pointer of entry `index` of "artifacts" (a key that needs no escaping, for a list of a million entries). */
function entryPointer(index: number): string {
  return `/artifacts/${String(index)}`;
}

/** The paths of the claimed artifacts, one at a time. */
function* pathsOf(artifacts: Iterable<ClaimedArtifact>): Generator<string> {
  for (const { path } of artifacts) yield path;
}

/** Prints a path bare, as the validation documents' transcript does, unless it holds control characters that would garble the line. */
function shown(path: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what this looks for
  return /[\u0000-\u001f\u007f]/.test(path) ? JSON.stringify(path) : path;
}

/** A path as the subagent's line quotes it (`quotedPath`): in JSON, whole as far as any message quotes, so that a stray space or quote shows. */
function quotedPath(path: string): string {
  return preview(path, MAX_QUOTED_CHARS);
}

/** Step 5 (CRITICAL): a return that claims finished work names artifacts that really exist. */
export default defineRule<Options>(docsUrl)({
  id: "artifacts",
  meta: {
    description: "A return that claims finished work names artifacts that exist inside the root as non-empty regular files.",
    schema: {
      type: "object",
      additionalProperties: false,
      properties: {
        skipStatuses: {
          type: "array",
          items: { type: "string" },
          description: "Statuses that say the work is unfinished; their artifacts are not checked on disk.",
        },
        requireArtifacts: {
          type: "boolean",
          description:
            "Whether a return that claims finished work must list an artifact (`phantomWork` when it lists none). The `handoff` preset turns it off: a handoff lists artifacts only when it has its own, the metadata file beside it lists the task's.",
        },
      },
      required: ["skipStatuses", "requireArtifacts"],
    },
    defaultOptions: { skipStatuses: ["partial", "failed", "blocked", "in_progress"], requireArtifacts: true },
    messages: {
      skipped: {
        text: "Skipping artifact validation (status={status})",
        detail: "Note: Partial/failed/blocked status may have empty or incomplete artifacts",
      },
      phantomWork: {
        text: "Agent returned '{status}' status but created no artifacts",
        detail: "Error: Phantom work detected - status={status} but no artifacts",
        recommendation: "Verify {agent} creates artifacts before updating status",
        reask: `status "{status}" says the work is done but "artifacts" is empty; write the files and list each as ${ARTIFACT_SHAPE}, or set status to "partial"`,
      },
      artifactCount: { text: "Artifact count: {count}" },
      bareString: {
        text: "Artifact {index} is a bare path, not an object: {path}",
        detail: 'Error: each artifact must be an object with "type", "path" and "summary"',
        recommendation: "Fix {subagent} to return artifacts as objects with type, path and summary",
        reask: 'the artifact is a bare path; make it an object: {"type": …, "path": {quotedPath}, "summary": …}',
      },
      notAnObject: {
        text: "Artifact {index} is not an object: received {type}",
        detail: 'Error: each artifact must be an object with "type", "path" and "summary"',
        recommendation: "Fix {subagent} to return artifacts as objects with type, path and summary",
        reask: `the artifact is {value}, not an object; make it ${ARTIFACT_SHAPE}`,
      },
      missingPath: {
        text: "Artifact {index} has no path",
        detail: 'Error: each artifact must name its file in "path"',
        recommendation: "Fix {subagent} to give every artifact a path",
        reask: 'the artifact has no "path"; add the path of the file you wrote, relative to the project root',
      },
      pathNotString: {
        text: "Artifact {index} path is not a string: received {type}",
        detail: 'Error: "path" must be a string relative to the project root',
        recommendation: RELATIVE,
        reask: '"path" is {value}, not a string; give the file\'s path as a string relative to the project root',
      },
      emptyPath: {
        text: "Artifact {index} path is empty",
        detail: 'Error: "path" must name a file',
        recommendation: WRONG_PATH,
        reask: '"path" is empty; give the path of the file you wrote',
      },
      nulByte: {
        text: "Artifact path contains a NUL byte: {path}",
        detail: "Error: no file can have this name",
        recommendation: WRONG_PATH,
        reask: "the path {quotedPath} contains a NUL byte; fix the path",
      },
      absolutePath: {
        text: "Artifact path is absolute: {path}",
        detail: "Error: artifact paths must be relative to the project root ({root})",
        recommendation: RELATIVE,
        reask: "the path {quotedPath} is absolute; make it relative to the project root",
      },
      homeRelativePath: {
        text: "Artifact path is home-relative: {path}",
        detail: 'Error: "~" is expanded by a shell, never by the file system; artifact paths must be relative to the project root ({root})',
        recommendation: RELATIVE,
        reask: 'the path {quotedPath} starts with "~", which only a shell expands; make it relative to the project root',
      },
      escapesRoot: {
        text: "Artifact path leaves the project root: {path}",
        detail: "Error: the path resolves outside {root}",
        recommendation: RELATIVE,
        reask: "the path {quotedPath} leads outside the project root; write the file inside the project and give its relative path",
      },
      symlinkEscapesRoot: {
        text: "Artifact is a symlink leading outside the project root: {path}",
        detail: "Error: the link resolves outside {root}; returnlint does not follow it",
        recommendation: "Verify {agent} writes artifacts inside the project",
        reask: "{quotedPath} is a symlink leading outside the project; write the real file inside the project",
      },
      symlinkLoop: {
        text: "Artifact path is a symlink loop: {path}",
        detail: "Error: the links never reach a file",
        recommendation: WRONG_PATH,
        reask: "{quotedPath} is a symlink loop; replace it with the file itself",
      },
      notFound: {
        text: "Artifact does not exist: {path}",
        detail: "Error: Subagent claimed to create artifact but file does not exist",
        recommendation: WRONG_PATH,
        reask: "file {quotedPath} does not exist; write it, or fix the path",
      },
      nearMiss: {
        text: "Artifact does not exist: {path} (did you mean {didYouMean}?)",
        detail: "Error: Subagent claimed to create artifact but file does not exist; its folder holds {didYouMean}",
        recommendation: WRONG_PATH,
        reask: "file {quotedPath} does not exist (its folder holds {didYouMean}); write it, or fix the path",
      },
      absoluteInsideRoot: {
        text: "Artifact path is absolute: {path} (the file is at {insideRoot} in the project)",
        detail: "Error: artifact paths must be relative to the project root ({root})",
        recommendation: RELATIVE,
        reask: "the path {quotedPath} is absolute; write it relative to the project root: {insideRoot}",
      },
      archived: { text: "Artifact moved to the archive with its task: {path} (now {movedTo})" },
      notAFile: {
        text: "Artifact is not a regular file: {path} ({kind})",
        detail: "Error: Subagent named a {kind} as an artifact; artifacts are files",
        recommendation: WRONG_PATH,
        reask: '{quotedPath} is a {kind}, not a file; point "path" at the file you wrote',
      },
      nameTooLong: {
        text: "Artifact path is too long: {path}",
        detail: "Error: the file system rejects this name",
        recommendation: WRONG_PATH,
        reask: "the path {quotedPath} is too long for the file system; use a shorter name",
      },
      unreadable: {
        text: "Artifact cannot be inspected: {path}",
        detail: "Error: permission denied or an I/O error while looking at the file",
        recommendation: WRONG_PATH,
        reask: "file {quotedPath} cannot be read; make it readable, or fix the path",
      },
      returnFile: {
        text: "Artifact is a return file, not work: {path}",
        detail: "Error: a return metadata file (or the return being checked) cannot be the evidence of its own work",
        recommendation: "Verify {agent} lists the files its work produced, not its return",
        reask: "{quotedPath} is a return file, not work; list the files your work produced",
      },
      exists: { text: "Artifact exists: {path}" },
      empty: {
        text: "Artifact is empty: {path}",
        detail: "Error: Subagent created file but wrote no content",
        recommendation: "Verify {agent} writes content to artifacts",
        reask: "file {quotedPath} is empty; write its content",
      },
      nonEmpty: { text: "Artifact is non-empty: {path} ({size} bytes)" },
      tooManyArtifacts: {
        text: "Artifacts name more than {limit} different paths: {unjudged} entries past the first {limit} paths were not checked",
        detail: "Error: a return lists the files its work produced; returnlint looks up at most {limit} different paths, and does not pass a return it has not judged whole",
        recommendation: "Fix {subagent} to list the files it wrote, each once",
        reask: '"artifacts" names more than {limit} different paths; list only the files you wrote, each once',
      },
      allValidated: { text: "{count} artifacts validated" },
    },
  },
  check(context) {
    const { claims, files } = context;
    const { artifacts, status } = claims;
    // Nothing claimed and no list to claim in: required-fields, or the contract, reports a missing list.
    if (claims.artifactCount === 0 && claims.artifactList === undefined) return;
    // Under a contract its success status says whether the claims count; in a format, the status vocabulary and the options.
    if (claims.counted === undefined && status === null) return; // required-fields and status-enum report a missing status
    const shownStatus = status ?? "";
    const unfinished = claims.counted === undefined ? context.options.skipStatuses.includes(shownStatus) : !claims.counted;
    const finished = claims.counted ?? isSuccessLike(shownStatus);
    const entries = claims.entries ?? [];
    if (claims.artifactCount === 0 && entries.length === 0) {
      if (finished && context.options.requireArtifacts) context.report({ messageId: "phantomWork", data: { status: shownStatus }, pointer: claims.artifactList });
      else if (unfinished) context.info({ messageId: "skipped", data: { status: shownStatus } });
      return;
    }

    // Each path is looked up once however often it is named, and only the first MAX_ARTIFACT_PATHS
    // different ones: a return naming more is said first, before its entries' findings fill the list.
    const paths = judgedPaths(unfinished ? [] : pathsOf(artifacts), files);
    const { unjudged } = paths;
    let failures = 0;
    if (unjudged > 0) {
      failures += 1;
      context.report({ messageId: "tooManyArtifacts", data: { limit: MAX_ARTIFACT_PATHS, unjudged }, pointer: claims.artifactList });
    }

    // A format's entries' shape is checked whatever the status (a contract's schema checks its own); the disk only for finished work.
    entries.forEach((entry: unknown, index) => {
      if (typeof entry === "string") {
        failures += 1;
        context.report({ messageId: "bareString", data: { index, path: shown(entry), quotedPath: quotedPath(entry) }, pointer: entryPointer(index) });
      } else if (!isObject(entry)) {
        failures += 1;
        context.report({ messageId: "notAnObject", data: { index, type: jsonType(entry), value: preview(entry, 60) }, pointer: entryPointer(index) });
      } else if (entry.path === undefined || entry.path === null) {
        failures += 1;
        context.report({ messageId: "missingPath", data: { index }, pointer: entryPointer(index) });
      } else if (typeof entry.path !== "string") {
        failures += 1;
        context.report({ messageId: "pathNotString", data: { index, type: jsonType(entry.path), value: preview(entry.path, 60) }, pointer: `${entryPointer(index)}/path` });
      }
    });
    if (unfinished) {
      context.info({ messageId: "skipped", data: { status: shownStatus } });
      return;
    }
    const count = claims.entries === undefined ? claims.artifactCount : entries.length;
    context.info({ messageId: "artifactCount", data: { count } });

    // subagent-return-validation.md's order: every existence check, then every size check.
    let position = 0;
    for (const { path, pointer, index } of artifacts) {
      const checked = paths.check(path);
      // Where a hint may be found (the first artifacts only: a return of a million costs no million hints).
      const hintable = position < MAX_HINTED;
      position += 1;
      if (checked === undefined) continue;
      if (checked.ok) {
        context.pass({ messageId: "exists", data: { path: shown(path) } });
        continue;
      }
      const data = { index, path: shown(path), quotedPath: quotedPath(path), root: files.root, kind: checked.kind ?? "file" };
      const fate = hintable && HINTED.has(checked.problem) ? fateOf(path, files, { alsoClaimed: artifacts }) : undefined;
      if (fate?.fate === "archived") {
        // The task was archived after it finished: its files moved with it, and the work is there.
        context.pass({ messageId: "archived", data: { path: shown(path), movedTo: fate.movedTo } });
        continue;
      }
      failures += 1;
      const hinted = fate === undefined ? undefined : hintOf(fate);
      context.report(hinted === undefined ? { messageId: PROBLEM_MESSAGE[checked.problem], data, pointer } : { messageId: hinted.messageId, data: { ...data, ...hinted.data }, pointer });
    }
    for (const { path, pointer } of artifacts) {
      const checked = paths.check(path);
      if (checked?.ok !== true) continue;
      if (checked.size === 0) {
        failures += 1;
        context.report({ messageId: "empty", data: { path: shown(path), quotedPath: quotedPath(path) }, pointer });
      } else {
        context.pass({ messageId: "nonEmpty", data: { path: shown(path), size: checked.size } });
      }
    }
    if (failures === 0) context.pass({ messageId: "allValidated", data: { count } });
  },
});
