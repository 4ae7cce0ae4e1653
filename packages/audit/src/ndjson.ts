import { escapeInvisible, type AuditDocument } from "./document.js";
import type { AuditFailure } from "./returns.js";

/**
 * One line of `audit --format ndjson`: one version of one metadata file. Every key is on every line,
 * in this order, so that `jq`, a spreadsheet import or `audit merge` read each line alike; the
 * repository is named on each line, so that the lines of many audits can be concatenated.
 */
export interface AuditLine {
  /** The repository's page on its forge when it is one returnlint knows, else its folder. */
  readonly repository: string;
  readonly commit: string;
  /** The commit's author date, ISO 8601 in UTC; null only for an unreadable version dated past what ISO can write. */
  readonly date: string | null;
  readonly path: string;
  readonly status: string | null;
  readonly agent: string | null;
  readonly command: string | null;
  readonly ok: boolean;
  readonly phantom: boolean;
  readonly early: boolean;
  readonly internalError: boolean;
  /** Why the version could not be validated (too large, its object missing, undatable); null when it was. */
  readonly unreadable: string | null;
  readonly failures: readonly AuditFailure[];
}

/** The repository as the lines name it. */
export const repositoryName = (document: AuditDocument): string => document.repo.web ?? document.repo.path;

/** The lines of an audit: the returns in history order, then the versions that could not be read. */
export function auditLines(document: AuditDocument): AuditLine[] {
  const repository = repositoryName(document);
  return [
    ...document.returns.map(({ commit, date, path, status, agent, command, ok, phantom, early, internalError, failures }) => ({
      repository,
      commit,
      date,
      path,
      status,
      agent,
      command,
      ok,
      phantom,
      early,
      internalError,
      unreadable: null,
      failures,
    })),
    ...document.unreadable.map(({ commit, date, path, unreadable }) => ({
      repository,
      commit,
      date,
      path,
      status: null,
      agent: null,
      command: null,
      ok: false,
      phantom: false,
      early: false,
      internalError: false,
      unreadable,
      failures: [],
    })),
  ];
}

/** `audit --format ndjson`: one JSON object per line, each version on its own line. */
export function renderNdjson(document: AuditDocument): string {
  return auditLines(document)
    .map((line) => `${escapeInvisible(JSON.stringify(line))}\n`)
    .join("");
}
