import { isReturnlintError, type FileView, type LoadedConfig } from "@returnlint/core";
import { lintSource, openWalkedFile, type LintResult } from "@returnlint/api";

/** One return file of a scan: its result, or why it could not be read. */
export type Outcome = LintResult | { readonly source: string; readonly unreadable: string };

export interface ScanContext {
  readonly cwd: string;
  readonly root: string;
  readonly config: LoadedConfig;
  /** `--command`; null: each return's own (the library's `commandOfReturn`). */
  readonly command: string | null;
  readonly preset: string | undefined;
  /** One view for the whole scan, one moment: the folders above the task folders are looked at once. */
  readonly files: FileView;
  /** `--max-warnings`: more warnings than this make a return fail. */
  readonly maxWarnings?: number;
  /** false: the reports list problems only (passes and notes counted), for outputs that show no more. */
  readonly listNotes: boolean;
  /** The input limit (RETURNLINT_MAX_INPUT_BYTES), read once; undefined: read for each file, which says what is wrong with it. */
  readonly maxBytes: number | undefined;
}

/**
 * Reads one return file (never through a symlink) and lints it: one read, one parse. `name` is
 * the file as output shows it; `below` its path below the project root (undefined outside it).
 */
export async function checkReturnFile(file: string, name: string, below: string | undefined, context: ScanContext): Promise<Outcome> {
  let source;
  try {
    source = openWalkedFile(file, { name, below, maxBytes: context.maxBytes });
  } catch (error) {
    return { source: name, unreadable: isReturnlintError(error) ? error.message : `Cannot read ${file}: ${String(error)}.` };
  }
  return lintSource(source, context);
}
