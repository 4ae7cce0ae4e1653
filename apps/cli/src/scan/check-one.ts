import { commandOfStatus, isObject, isReturnlintError, isSuccessLike, stripBom, type FileView, type LoadedConfig } from "@returnlint/core";
import { readReturnFile, validate, type ValidationReport } from "@returnlint/api";

/** One return file of a scan: its report, or why it could not be read. */
export type Outcome =
  | { readonly source: string; readonly report: ValidationReport; readonly phantom: boolean }
  | { readonly source: string; readonly unreadable: string };

export interface ScanContext {
  readonly cwd: string;
  readonly config: LoadedConfig;
  /** `--command`; null: each return's command comes from its status (core's `commandOfStatus`). */
  readonly command: string | null;
  readonly preset: string | undefined;
  /** One view for the whole scan, one moment: the folders above the task folders are looked at once. */
  readonly files: FileView;
}

const NOT_FOLLOWED = { followSymlink: false } as const;

/**
 * Reads one return file (never through a symlink) and validates it: one read, one parse.
 * `source` is the file as output shows it; `returnFile` its path below the project root
 * (undefined outside it), what rules that look beside it (the postflight marker) are given.
 */
export async function checkReturnFile(file: string, source: string, returnFile: string | undefined, context: ScanContext): Promise<Outcome> {
  let text: string;
  try {
    text = stripBom(readReturnFile(file, NOT_FOLLOWED).text);
  } catch (error) {
    return { source, unreadable: isReturnlintError(error) ? error.message : `Cannot read ${file}: ${String(error)}.` };
  }
  // One object of one shape per return (validate treats an undefined option as one not given).
  const report = await validate(text, {
    cwd: context.cwd,
    files: context.files,
    config: context.config,
    command: context.command ?? undefined,
    commandOf: context.command === null ? commandOfMetadataFile : undefined,
    fromFile: true,
    source,
    returnFile,
    preset: context.preset,
  });
  // A handoff lists no artifacts of its own: the metadata file beside it carries them; a batch lists tasks.
  const phantom = report.format === "handoff" ? false : report.format === "multi-task" ? completedNoTask(report.value) : claimsPhantomWork(report.value, context.files);
  return { source, report, phantom };
}

/** A metadata file's status names the command it answers; anything else is checked with no command. */
function commandOfMetadataFile(value: unknown): string | null {
  return isObject(value) ? commandOfStatus(value.status) : null;
}

/** A multi-task return's phantom work: a batch that says it finished and lists no completed task. */
function completedNoTask(value: unknown): boolean {
  if (!isObject(value) || typeof value.status !== "string" || !isSuccessLike(value.status)) return false;
  const completed = isObject(value.metadata) ? value.metadata.tasks_completed : undefined;
  return !Array.isArray(completed) || completed.length === 0;
}

/**
 * Phantom work, as the words say: a status that claims success (researched, planned,
 * implemented, completed, or a word like done) and not one artifact that exists,
 * whether the list is empty, left out, or names only files that are not there.
 */
function claimsPhantomWork(value: unknown, files: FileView): boolean {
  if (!isObject(value) || typeof value.status !== "string" || !isSuccessLike(value.status)) return false;
  const artifacts: unknown[] = Array.isArray(value.artifacts) ? (value.artifacts as unknown[]) : [];
  return !artifacts.some((artifact) => {
    const named = typeof artifact === "string" ? artifact : isObject(artifact) ? artifact.path : undefined;
    return typeof named === "string" && files.check(named).ok;
  });
}
