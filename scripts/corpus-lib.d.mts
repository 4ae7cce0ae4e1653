// Types of scripts/corpus-lib.mjs, for test/corpus.test.ts.

export declare const PRESET: "metadata-file";
export declare const UNCHECKED_STATUSES: readonly string[];
export declare const CONTEXTUAL_STATUSES: readonly string[];
export declare const BAD_MARKS: readonly string[];

/** One line of the corpus' INDEX.jsonl (the fields the replay reads). */
export interface IndexEntry {
  readonly file: string;
  readonly path: string;
  readonly status?: string | null;
  readonly artifact_paths_at_commit?: readonly (readonly [string, string])[];
}

export interface Expectations {
  readonly badPaths: readonly { readonly path: string; readonly mark: string }[];
  /** False for the statuses the artifacts rule skips (partial, failed, blocked, in_progress). */
  readonly artifactsChecked: boolean;
  /** Invariant (a). */
  readonly mustFailBadPath: boolean;
  /** A bad path under a status whose artifacts are not checked. */
  readonly exemptBadPath: boolean;
  /** Invariant (b). */
  readonly mustFailNoArtifacts: boolean;
  /** Invariant (c). */
  readonly mustPass: boolean;
}

export interface Problem {
  readonly ruleId: string;
  readonly level: "warn" | "fail";
  readonly messageId: string;
  readonly message: string;
  readonly detail?: string;
  readonly pointer?: string;
}

export interface ReplayRecord {
  readonly file: string;
  readonly path: string;
  readonly status: unknown;
  readonly command: string | null;
  readonly ok: boolean;
  readonly errorCount: number;
  readonly warningCount: number;
  /** The report's fail and warn results. */
  readonly problems: readonly Problem[];
  /** Paths that were not recreated under the root, and why. */
  readonly skipped: readonly { readonly path: string; readonly reason: string }[];
  readonly expectations: Expectations;
  /** With no config and no preset: the format detected when read from its path, whether the verdict matched the preset's, and the format from the content alone. */
  readonly detection: { readonly fromPath: string; readonly sameVerdict: boolean; readonly contentOnly: string };
}

export interface ReplayRun {
  readonly corpusDir: string;
  /** The parent of every temporary root; removed when the replay ends. */
  readonly tempDir: string;
  readonly records: readonly ReplayRecord[];
  readonly elapsedMs: number;
}

export interface MessageCounts {
  returns: number;
  findings: number;
}

export interface StatusCounts {
  readonly command: string | null;
  total: number;
  pass: number;
  fail: number;
}

export interface InvariantResult {
  readonly id: "a" | "b" | "c";
  readonly title: string;
  readonly checked: number;
  readonly violations: readonly ReplayRecord[];
  readonly exempt: readonly ReplayRecord[];
}

export interface CorpusSummary {
  readonly corpusDir: string;
  readonly elapsedMs: number;
  readonly total: number;
  readonly passed: number;
  readonly failed: number;
  readonly byRule: ReadonlyMap<string, ReadonlyMap<string, MessageCounts>>;
  readonly warnings: ReadonlyMap<string, ReadonlyMap<string, MessageCounts>>;
  readonly statuses: ReadonlyMap<string, StatusCounts>;
  /** Metadata files by the format detected from their content alone. */
  readonly detection: ReadonlyMap<string, number>;
  readonly skippedPaths: readonly ReplayRecord[];
  readonly invariants: readonly [InvariantResult, InvariantResult, InvariantResult, InvariantResult];
  readonly ok: boolean;
}

export declare class CorpusMissingError extends Error {
  readonly code: "CORPUS_MISSING";
  constructor(dir: string);
}

export declare function resolveCorpusDir(repoRoot: string, override?: string): string;
export declare function corpusExists(dir: string): boolean;
export declare function commandForStatus(status: unknown): string | null;
export declare function isSuccessLike(status: unknown): boolean;
export declare function insideRoot(root: string, relative: unknown): string | null;
export declare function expectationsFor(entry: IndexEntry, value: unknown): Expectations;
export declare function readIndex(corpusDir: string): Promise<IndexEntry[]>;
export declare function replayCorpus(corpusDir: string, options?: { readonly concurrency?: number }): Promise<ReplayRun>;
export declare function summarize(run: ReplayRun): CorpusSummary;
export declare function causeOf(record: ReplayRecord): string;
export declare function describeRecord(record: ReplayRecord): string[];
export declare function formatSummary(summary: CorpusSummary): string;
