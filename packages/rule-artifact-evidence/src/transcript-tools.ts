// What index.ts needs to know about transcripts without loading the reader (node:readline
// and node:fs/promises), which only a run with --transcript pays for.

/** Claude Code's tools that write a file, and the input field naming it. */
export const WRITE_TOOLS: Readonly<Record<string, string>> = {
  Write: "file_path",
  Edit: "file_path",
  MultiEdit: "file_path",
  NotebookEdit: "notebook_path",
};
export const WRITE_TOOL_NAMES = Object.keys(WRITE_TOOLS);

export interface TranscriptWrite {
  readonly tool: string;
  /** 1-based line of the transcript that holds the tool call. */
  readonly line: number;
  /** The tool's result said it failed (`is_error`), so nothing was written. */
  readonly failed: boolean;
}

export type Transcript =
  | {
      readonly ok: true;
      /** Write tool calls by the absolute path they name. */
      readonly writes: ReadonlyMap<string, readonly TranscriptWrite[]>;
      readonly badLines: number;
      /** Only the first `maxBytes` were read. */
      readonly truncated: boolean;
    }
  | { readonly ok: false; readonly reason: string };
