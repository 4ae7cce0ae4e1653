import { closeSync } from "node:fs";
import { isObject, readPrefix, ReturnlintError, UnsafePathError, type SafeDir } from "@returnlint/core";
import type { ValidationReport } from "@returnlint/api";
import { locate, replaceOrWrite, withLock } from "./atomic.js";
import { environmentError } from "@returnlint/api";
import { maxInputBytes } from "@returnlint/api";

export interface ErrorLogContext {
  readonly sessionId?: string;
  readonly task?: string;
  readonly source: string;
}

/**
 * `--log-errors FILE`: appends one entry per failing validation to an errors.json
 * (the validation documents' "Log error to errors.json"). Many validators run at once, so the
 * read-append-write holds a lock beside the real file (`errors.json.lock`; a
 * symlinked log is followed, as `-o` is) and replaces the file atomically; a file
 * that is not an errors log is never overwritten.
 */
export async function appendErrorLog(file: string, report: ValidationReport, context: ErrorLogContext): Promise<void> {
  const failures = report.results.filter((result) => result.level === "fail");
  const [first] = failures;
  if (first === undefined) return;
  const entry = {
    id: `err_${Date.now().toString(36)}_${process.pid.toString(36)}_${Math.random().toString(36).slice(2, 10)}`,
    timestamp: new Date().toISOString(),
    error_type: "validation_failed",
    severity: "high",
    agent: report.agent,
    command: report.command,
    task: context.task ?? null,
    session_id: context.sessionId ?? null,
    source: context.source,
    validation_step: first.ruleId,
    message: first.message,
    recoverable: true,
    recommendation: first.recommendation ?? null,
    failures: failures.map(({ ruleId, messageId, message, pointer }) => ({ ruleId, messageId, message, pointer: pointer ?? null })),
  };
  let target;
  try {
    target = locate(file);
  } catch (error) {
    throw environmentError(`write the error log ${file}`, error);
  }
  if ("descriptor" in target) throw new ReturnlintError("LOG_UNUSABLE", `The error log ${file} is a standard stream; --log-errors needs a file it can read and replace.`);
  const { dir, name } = target;
  try {
    await withLock(dir, `${name}.lock`, () => {
      // Looked at again under the lock: another writer may have replaced it since.
      const now = { dir, name, stats: dir.lstat(name) };
      const log = readLog(dir, name, file);
      log.errors.push(entry);
      try {
        replaceOrWrite(now, `${JSON.stringify(log.document, null, 2)}\n`);
      } catch (error) {
        throw environmentError(`write the error log ${file}`, error);
      }
    });
  } finally {
    dir.close();
  }
}

function readLog(dir: SafeDir, name: string, file: string): { document: unknown; errors: unknown[] } {
  let text: string;
  try {
    const { fd, stats } = dir.openFile(name);
    try {
      if (stats.size > maxInputBytes()) throw new ReturnlintError("LOG_UNUSABLE", `The error log ${file} is larger than the input limit; it was left as it is. Move it aside, then run again.`);
      text = readPrefix(fd, stats.size).toString("utf8");
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    if (error instanceof UnsafePathError && error.kind === "missing") {
      const errors: unknown[] = [];
      return { document: { errors }, errors };
    }
    if (error instanceof UnsafePathError) throw new ReturnlintError("LOG_UNUSABLE", `The error log ${file} is not a regular file; it was left as it is.`);
    throw error instanceof ReturnlintError ? error : environmentError(`read the error log ${file}`, error);
  }
  let document: unknown;
  try {
    document = text.trim() === "" ? { errors: [] } : (JSON.parse(text) as unknown);
  } catch {
    throw new ReturnlintError("LOG_UNUSABLE", `The error log ${file} is not valid JSON; it was left as it is. Fix or move it, then run again.`);
  }
  if (Array.isArray(document)) return { document, errors: document as unknown[] };
  if (isObject(document) && (document.errors === undefined || Array.isArray(document.errors))) {
    const errors = (document.errors ?? []) as unknown[];
    document.errors = errors;
    return { document, errors };
  }
  throw new ReturnlintError("LOG_UNUSABLE", `The error log ${file} is neither a list nor an object with an "errors" list; it was left as it is.`);
}
