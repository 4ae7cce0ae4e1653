import { readFileSync } from "node:fs";
import { isObject, ReturnlintError } from "@returnlint/core";
import type { ValidationReport } from "./api.js";
import { withLock, writeFileAtomic } from "./atomic.js";

export interface ErrorLogContext {
  readonly sessionId?: string;
  readonly task?: string;
  readonly source: string;
}

/**
 * `--log-errors FILE`: appends one entry per failing validation to an errors.json
 * (the seeds' "Log error to errors.json"). Many validators run at once, so the
 * read-append-write holds a lock and replaces the file atomically; a file that is
 * not an errors log is never overwritten.
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
  await withLock(`${file}.lock`, () => {
    const log = readLog(file);
    log.errors.push(entry);
    writeFileAtomic(file, `${JSON.stringify(log.document, null, 2)}\n`);
  });
}

function readLog(file: string): { document: unknown; errors: unknown[] } {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") {
      const errors: unknown[] = [];
      return { document: { errors }, errors };
    }
    throw new ReturnlintError("LOG_UNUSABLE", `Cannot read the error log ${file}: ${(error as Error).message}.`);
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
