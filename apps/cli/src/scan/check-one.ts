import type { FileView, LoadedConfig } from "@returnlint/core";
import { lintSource, type LintResult } from "@returnlint/api";
import type { FoundSource, Unreadable } from "./find.js";

/** One return file of a scan: its result, or why it could not be read. */
export type Outcome = LintResult | Unreadable;

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
}

/** Lints what the walk found (find.ts): a return file read, or one that could not be read, which is its own outcome. */
export function checkFound(found: FoundSource | Unreadable, context: ScanContext): Promise<Outcome> {
  return "unreadable" in found ? Promise.resolve(found) : lintSource(found.source, context);
}
