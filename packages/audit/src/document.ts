import type { AuditedReturn, UnreadableReturn } from "./returns.js";
import type { ConfigKind } from "./config.js";
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
  /**
   * A shallow clone's cut: the commits where its history stops, and the versions already there, which
   * are not audited (git shows them as added at the cut, though they were written before it). Null when
   * the clone is not shallow.
   */
  readonly shallowCut: { readonly commits: readonly string[]; readonly versions: number } | null;
  /** `since` and `until` as given (inclusive instants, UTC), and the dates of the first and last return audited. */
  readonly range: { readonly since: string | null; readonly until: string | null; readonly first: string | null; readonly last: string | null };
  /** Where the config came from: `HEAD:returnlint.config.yaml`, a --config file, or null (built-in presets, format detected per return). */
  readonly config: string | null;
  /** How it was applied: `given` (--config), `data` (the repository's, no code run), `trusted` (--trust-repo-config), `builtin` (none). */
  readonly configKind: ConfigKind;
  /** The committed config not applied because it is or names code (no --trust-repo-config), and why; else null. */
  readonly configRefused: string | null;
  /** A config in the clone's working tree that was not applied (not committed, or changed since the tip), as `--config` takes it; else null. */
  readonly unappliedConfig: string | null;
  readonly summary: AuditSummary;
  readonly returns: readonly AuditedReturn[];
  readonly unreadable: readonly UnreadableReturn[];
}

/**
 * What JSON.stringify leaves as it is and a terminal would act on: DEL and C1 controls, format
 * characters (the bidi overrides such as U+202E, zero-width characters) and line separators. They
 * can only be inside strings, where `\uXXXX` (a pair for an astral one) is the same text once parsed.
 */
const UNESCAPED = /[\u007f-\u009f\p{Cf}\p{Zl}\p{Zp}]/gu;

const escapeUnits = (char: string): string => [...Array(char.length).keys()].map((index) => `\\u${char.charCodeAt(index).toString(16).padStart(4, "0")}`).join("");

/** The JSON report: one document, each return on a line of its own so that a long history stays greppable. */
export function renderJson(document: AuditDocument): string {
  return escapeInvisible(jsonText(document));
}

/** JSON text with what a terminal would act on written as `\uXXXX` escapes (the same text once parsed). */
export function escapeInvisible(json: string): string {
  return json.replace(UNESCAPED, escapeUnits);
}

function jsonText(document: AuditDocument): string {
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
    `  "shallowCut": ${JSON.stringify(document.shallowCut)},`,
    `  "range": ${JSON.stringify(document.range)},`,
    `  "config": ${JSON.stringify(document.config)},`,
    `  "configKind": ${JSON.stringify(document.configKind)},`,
    `  "configRefused": ${JSON.stringify(document.configRefused)},`,
    `  "unappliedConfig": ${JSON.stringify(document.unappliedConfig)},`,
    `  "summary": ${indent(JSON.stringify(document.summary, null, 2))},`,
    `  "unreadable": ${list(document.unreadable)},`,
    `  "returns": ${list(returns)}`,
    "}",
    "",
  ].join("\n");
}
