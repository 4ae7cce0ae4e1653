import type { AuditedReturn, UnreadableReturn } from "./returns.js";
import type { AuditSummary } from "./summary.js";

/** Everything an audit found: what `--format json` prints, and what the other formats render. */
export interface AuditDocument {
  readonly repo: {
    /** The top-level folder of the clone, or the bare repository's folder. */
    readonly path: string;
    readonly bare: boolean;
    readonly shallow: boolean;
    /** The revision whose history was walked (`HEAD` unless --rev), and the commit it named (null: no commits yet). */
    readonly rev: string;
    readonly head: string | null;
    /** The repository's page on its forge, from `remote.origin.url`, when the forge is one returnlint knows. */
    readonly web: string | null;
  };
  /** `since` and `until` as given (inclusive instants, UTC), and the dates of the first and last return audited. */
  readonly range: { readonly since: string | null; readonly until: string | null; readonly first: string | null; readonly last: string | null };
  /** Where the config came from: `HEAD:returnlint.config.yaml`, a --config file, or null (built-in presets, format detected per return). */
  readonly config: string | null;
  /** A config in the clone's working tree that was not applied (not committed, or changed since the tip), as `--config` takes it; else null. */
  readonly unappliedConfig: string | null;
  readonly summary: AuditSummary;
  readonly returns: readonly AuditedReturn[];
  readonly unreadable: readonly UnreadableReturn[];
}

/** The JSON report: one document, each return on a line of its own so that a long history stays greppable. */
export function renderJson(document: AuditDocument): string {
  const indent = (text: string) => text.replaceAll("\n", "\n  ");
  const list = (items: readonly unknown[]) => (items.length === 0 ? "[]" : `[\n    ${items.map((item) => JSON.stringify(item)).join(",\n    ")}\n  ]`);
  const returns = document.returns.map(({ commit, date, path, status, agent, command, ok, phantom, early, failures }) => ({
    commit,
    date,
    path,
    status,
    agent,
    command,
    ok,
    phantom,
    early,
    failures,
  }));
  return [
    "{",
    `  "repo": ${JSON.stringify(document.repo)},`,
    `  "range": ${JSON.stringify(document.range)},`,
    `  "config": ${JSON.stringify(document.config)},`,
    `  "unappliedConfig": ${JSON.stringify(document.unappliedConfig)},`,
    `  "summary": ${indent(JSON.stringify(document.summary, null, 2))},`,
    `  "unreadable": ${list(document.unreadable)},`,
    `  "returns": ${list(returns)}`,
    "}",
    "",
  ].join("\n");
}
