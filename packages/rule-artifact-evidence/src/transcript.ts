import { constants } from "node:fs";
import { open } from "node:fs/promises";
import path from "node:path";
import { createInterface } from "node:readline";
import { isObject } from "@returnlint/core";
import { WRITE_TOOLS, type Transcript, type TranscriptWrite } from "./transcript-tools.js";

interface PendingWrite {
  readonly file: string;
  readonly tool: string;
  readonly line: number;
  readonly id: unknown;
}

/**
 * Reads a Claude Code JSONL transcript, line by line and at most `maxBytes` of it, and
 * collects its file-writing tool calls. Lines that are not JSON are counted and skipped:
 * a transcript being written while we read ends in a partial line. Relative file paths
 * resolve against the line's `cwd`, else the project root.
 */
export async function readTranscript(file: string, root: string, maxBytes: number): Promise<Transcript> {
  // O_NONBLOCK: a FIFO named as the transcript must not make the run wait.
  const handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK).catch((error: unknown) => error as NodeJS.ErrnoException);
  if (!("fd" in handle)) {
    return { ok: false, reason: handle.code === "ENOENT" ? `${file} does not exist` : `${file} cannot be opened (${handle.code ?? "error"})` };
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) return { ok: false, reason: `${file} is not a regular file` };
    const pending: PendingWrite[] = [];
    const failedIds = new Set<unknown>();
    let badLines = 0;
    let line = 0;
    const lines = createInterface({ input: handle.createReadStream({ start: 0, end: maxBytes - 1, autoClose: false }), crlfDelay: Infinity });
    for await (const text of lines) {
      line += 1;
      if (text.trim() === "") continue;
      let entry: unknown;
      try {
        entry = JSON.parse(text);
      } catch {
        badLines += 1;
        continue;
      }
      if (!isObject(entry) || !isObject(entry.message) || !Array.isArray(entry.message.content)) continue;
      const base = typeof entry.cwd === "string" && path.isAbsolute(entry.cwd) ? entry.cwd : root;
      for (const item of entry.message.content as unknown[]) {
        if (!isObject(item)) continue;
        if (item.type === "tool_result" && item.is_error === true) failedIds.add(item.tool_use_id);
        if (item.type !== "tool_use" || typeof item.name !== "string" || !isObject(item.input)) continue;
        const field = WRITE_TOOLS[item.name];
        const named = field === undefined ? undefined : item.input[field];
        if (typeof named !== "string" || named === "") continue;
        pending.push({ file: path.resolve(base, named), tool: item.name, line, id: item.id });
      }
    }
    const writes = new Map<string, TranscriptWrite[]>();
    for (const { file: written, tool, line: at, id } of pending) {
      const list = writes.get(written) ?? [];
      list.push({ tool, line: at, failed: id !== undefined && failedIds.has(id) });
      writes.set(written, list);
    }
    return { ok: true, writes, badLines, truncated: stats.size > maxBytes };
  } catch (error) {
    return { ok: false, reason: `${file} could not be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})` };
  } finally {
    await handle.close();
  }
}
