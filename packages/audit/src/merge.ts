import { ReturnlintError } from "@returnlint/core";
import { escapeInvisible } from "./document.js";
import type { AuditLine } from "./ndjson.js";
import type { AuditFailure, AuditedReturn } from "./returns.js";
import { SummaryBuilder, type AuditSummary, type Tally } from "./summary.js";

/** One repository's figures in a merged report. */
export interface RepositoryTally extends Tally {
  readonly repository: string;
  readonly early: number;
  readonly unreadable: number;
  readonly internalErrors: number;
  /** The dates of its first and last return (null when none). */
  readonly first: string | null;
  readonly last: string | null;
}

/** `returnlint audit merge`: the audits of many repositories as one report. */
export interface MergedAudit {
  /** How many ndjson files were read. */
  readonly files: number;
  /** Most returns first, then by name. */
  readonly repositories: readonly RepositoryTally[];
  /** Each repository's agents: the phantom rate per agent per repository. */
  readonly byRepositoryAndAgent: readonly (Tally & { readonly repository: string; readonly agent: string | null })[];
  /** Every repository's returns together: by agent, command, status, month and rule, as one audit's summary. */
  readonly summary: AuditSummary;
}

/** The most problems a merge lists before it stops reading: enough to see the pattern, not a flood. */
const MAX_PROBLEMS = 20;

const KEYS: readonly (keyof AuditLine)[] = ["repository", "commit", "date", "path", "status", "agent", "command", "ok", "phantom", "early", "internalError", "unreadable", "failures"];

/**
 * Merges the lines of `audit --format ndjson` files. A version listed twice (an audit run again,
 * or the same repository in two files) counts once, as its last listing says. Every line that is
 * not one of those lines is a problem; all are said at once, each with its file and line.
 */
export function mergeAudits(files: readonly { readonly name: string; readonly text: string }[]): MergedAudit {
  const problems: string[] = [];
  const lines = new Map<string, AuditLine>();
  for (const { name, text } of files) {
    let number = 0;
    for (const raw of text.split("\n")) {
      number += 1;
      if (raw.trim() === "") continue;
      const line = parseLine(raw);
      if (typeof line === "string") {
        if (problems.length < MAX_PROBLEMS) problems.push(`${name}:${String(number)}: ${line}`);
        continue;
      }
      lines.set(`${line.repository}\0${line.commit}\0${line.path}`, line);
    }
  }
  if (problems.length > 0) {
    throw new ReturnlintError("USAGE", `returnlint audit merge reads the lines "returnlint audit --format ndjson" writes; ${problems.length === 1 ? "one line is not one" : "these lines are not"}:`, problems);
  }

  const builders = new Map<string, SummaryBuilder>();
  const all = new SummaryBuilder();
  for (const line of lines.values()) {
    let builder = builders.get(line.repository);
    if (builder === undefined) {
      builder = new SummaryBuilder();
      builders.set(line.repository, builder);
    }
    if (line.unreadable !== null || line.date === null) {
      builder.unreadable += 1;
      all.unreadable += 1;
      continue;
    }
    const audited: AuditedReturn = { ...line, date: line.date };
    builder.add(audited);
    all.add(audited);
  }
  const summaries = [...builders].map(([repository, builder]) => ({ repository, summary: builder.build() }));
  const repositories = summaries
    .map(({ repository, summary }) => {
      const months = summary.byMonth.filter((month) => month.returns > 0);
      return {
        repository,
        returns: summary.returns,
        failed: summary.failed,
        phantom: summary.phantom,
        failureRate: summary.failureRate,
        phantomRate: summary.phantomRate,
        early: summary.early,
        unreadable: summary.unreadable,
        internalErrors: summary.internalErrors,
        first: months[0]?.month ?? null,
        last: months[months.length - 1]?.month ?? null,
      };
    })
    .sort((a, b) => b.returns - a.returns || (a.repository < b.repository ? -1 : a.repository > b.repository ? 1 : 0));
  const order = new Map(repositories.map((row, index) => [row.repository, index]));
  const byRepositoryAndAgent = summaries
    .sort((a, b) => (order.get(a.repository) ?? 0) - (order.get(b.repository) ?? 0))
    .flatMap(({ repository, summary }) => summary.byAgent.map((row) => ({ repository, ...row })));
  return { files: files.length, repositories, byRepositoryAndAgent, summary: all.build() };
}

/** A line of ndjson as an AuditLine, or why it is not one. */
function parseLine(raw: string): AuditLine | string {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return "not JSON";
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "not a JSON object";
  const line = value as Record<string, unknown>;
  const missing = KEYS.filter((key) => !(key in line));
  if (missing.length > 0) return `no ${missing.map((key) => `"${key}"`).join(", ")} (is it from "returnlint audit --format ndjson"?)`;
  const text = (key: string, nullable: boolean) => typeof line[key] === "string" || (nullable && line[key] === null);
  const wrong = [
    ...["repository", "commit", "path"].filter((key) => !text(key, false)),
    ...["date", "status", "agent", "command", "unreadable"].filter((key) => !text(key, true)),
    ...["ok", "phantom", "early", "internalError"].filter((key) => typeof line[key] !== "boolean"),
    ...(Array.isArray(line.failures) && line.failures.every(isFailure) ? [] : ["failures"]),
  ];
  if (wrong.length > 0) return `${wrong.map((key) => `"${key}"`).join(", ")} ${wrong.length === 1 ? "is not" : "are not"} what an audit line holds there`;
  return line as unknown as AuditLine;
}

function isFailure(value: unknown): value is AuditFailure {
  if (typeof value !== "object" || value === null) return false;
  const failure = value as Record<string, unknown>;
  return typeof failure.ruleId === "string" && typeof failure.messageId === "string" && typeof failure.message === "string" && (failure.pointer === undefined || typeof failure.pointer === "string");
}

/** The merged report as JSON: the repositories, each repository's agents, and the summary over all. */
export function renderMergedJson(merged: MergedAudit): string {
  return `${escapeInvisible(JSON.stringify(merged, null, 2))}\n`;
}
