import type { AuditedReturn } from "./returns.js";

/** Counts over a group of returns. `failed`: returns that failed validation; `phantom`: returns that claimed work not in their commit. */
export interface Tally {
  readonly returns: number;
  readonly failed: number;
  readonly phantom: number;
  /** failed ÷ returns, 0 to 1. */
  readonly failureRate: number;
  /** phantom ÷ returns, 0 to 1. */
  readonly phantomRate: number;
}

export interface RuleTally {
  readonly rule: string;
  /** Failures the rule reported, over every return. */
  readonly failures: number;
  /** Returns it failed. */
  readonly returns: number;
}

export interface WorstReturn {
  readonly commit: string;
  readonly date: string;
  readonly path: string;
  readonly agent: string | null;
  readonly status: string | null;
  readonly phantom: boolean;
  readonly failures: number;
  /** The first failure's message. */
  readonly message: string | null;
}

export interface AuditSummary extends Tally {
  readonly passed: number;
  /** Early metadata: `in_progress` versions a later version of their file replaced (among the returns and the passed, never failed). */
  readonly early: number;
  /** Versions that could not be validated (too large, or missing objects). */
  readonly unreadable: number;
  /** Returns on which a rule crashed. */
  readonly internalErrors: number;
  /** Commits that introduced at least one audited version. */
  readonly commits: number;
  readonly byAgent: readonly (Tally & { readonly agent: string | null })[];
  readonly byCommand: readonly (Tally & { readonly command: string | null })[];
  readonly byStatus: readonly (Tally & { readonly status: string | null })[];
  /**
   * Months in UTC (`2025-03`), every month from the first return's to the last's, empty ones included;
   * only the months with returns when those are more than a century apart (`emptyMonthsOmitted`).
   */
  readonly byMonth: readonly (Tally & { readonly month: string })[];
  /** The first and last returns are more than MAX_FILLED_MONTHS apart (a commit dated 9999, say): byMonth leaves out the empty months. */
  readonly emptyMonthsOmitted: boolean;
  /** Each agent's months with returns: the phantom rate over time per agent. */
  readonly byAgentAndMonth: readonly (Tally & { readonly agent: string | null; readonly month: string })[];
  readonly failuresByRule: readonly RuleTally[];
  /** Phantom work first, then the most failures, then the most recent. */
  readonly worst: readonly WorstReturn[];
}

const WORST = 10;

class Counter {
  returns = 0;
  failed = 0;
  phantom = 0;

  add(audited: AuditedReturn): void {
    this.returns += 1;
    if (!audited.ok) this.failed += 1;
    if (audited.phantom) this.phantom += 1;
  }

  tally(): Tally {
    const rate = (count: number) => (this.returns === 0 ? 0 : count / this.returns);
    return { returns: this.returns, failed: this.failed, phantom: this.phantom, failureRate: rate(this.failed), phantomRate: rate(this.phantom) };
  }
}

/** Counters keyed by a value that may be null (no agent, no status): the key is kept as it was. */
class Groups<K extends string | null> {
  private readonly counters = new Map<K, Counter>();

  add(key: K, audited: AuditedReturn): void {
    let counter = this.counters.get(key);
    if (counter === undefined) {
      counter = new Counter();
      this.counters.set(key, counter);
    }
    counter.add(audited);
  }

  /** Most returns first, then by name (null last), so that two runs print the same tables. */
  rows(): [K, Tally][] {
    return [...this.counters]
      .map(([key, counter]): [K, Tally] => [key, counter.tally()])
      .sort(([a, x], [b, y]) => y.returns - x.returns || compareKeys(a, b));
  }

  get(key: K): Tally | undefined {
    return this.counters.get(key)?.tally();
  }
}

function compareKeys(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a < b ? -1 : 1;
}

export const monthOf = (date: string): string => date.slice(0, 7);

/** The most months the month table fills in between the first return's and the last's: a century. */
export const MAX_FILLED_MONTHS = 1200;

const monthNumber = (label: string): number => {
  const [year = 0, month = 1] = label.split("-").map(Number);
  return year * 12 + month - 1;
};

/** Every month from `first` to `last` (`2025-01` … `2025-04`), inclusive; null when that is more than MAX_FILLED_MONTHS. */
export function monthsBetween(first: string, last: string): string[] | null {
  const from = monthNumber(first);
  const span = monthNumber(last) - from + 1;
  if (span > MAX_FILLED_MONTHS) return null;
  return Array.from({ length: Math.max(span, 1) }, (_, index) => {
    const number = from + index;
    return `${String(Math.floor(number / 12)).padStart(4, "0")}-${String((number % 12) + 1).padStart(2, "0")}`;
  });
}

/** Adds returns one at a time (memory grows with the groups, not with the returns, apart from the worst ones kept). */
export class SummaryBuilder {
  private readonly all = new Counter();
  private readonly agents = new Groups<string | null>();
  private readonly commands = new Groups<string | null>();
  private readonly statuses = new Groups<string | null>();
  private readonly months = new Groups<string>();
  private readonly agentMonths = new Map<string | null, Groups<string>>();
  private readonly rules = new Map<string, { failures: number; returns: number }>();
  private readonly commitsSeen = new Set<string>();
  private worst: WorstReturn[] = [];
  private early = 0;
  unreadable = 0;
  internalErrors = 0;

  add(audited: AuditedReturn): void {
    this.all.add(audited);
    this.agents.add(audited.agent, audited);
    this.commands.add(audited.command, audited);
    this.statuses.add(audited.status, audited);
    const month = monthOf(audited.date);
    this.months.add(month, audited);
    let perMonth = this.agentMonths.get(audited.agent);
    if (perMonth === undefined) {
      perMonth = new Groups<string>();
      this.agentMonths.set(audited.agent, perMonth);
    }
    perMonth.add(month, audited);
    this.commitsSeen.add(audited.commit);
    if (audited.early) this.early += 1;
    if (audited.internalError) this.internalErrors += 1;
    const failedBy = new Set<string>();
    for (const failure of audited.failures) {
      const rule = this.rules.get(failure.ruleId) ?? { failures: 0, returns: 0 };
      rule.failures += 1;
      if (!failedBy.has(failure.ruleId)) rule.returns += 1;
      failedBy.add(failure.ruleId);
      this.rules.set(failure.ruleId, rule);
    }
    if (!audited.ok || audited.phantom) this.keepWorst(audited);
  }

  private keepWorst(audited: AuditedReturn): void {
    this.worst.push({
      commit: audited.commit,
      date: audited.date,
      path: audited.path,
      agent: audited.agent,
      status: audited.status,
      phantom: audited.phantom,
      failures: audited.failures.length,
      message: audited.failures[0]?.message ?? null,
    });
    if (this.worst.length > WORST * 4) this.worst = rankWorst(this.worst).slice(0, WORST);
  }

  build(): AuditSummary {
    const total = this.all.tally();
    const byMonth = this.months.rows().map(([month, tally]) => ({ month, ...tally }));
    const sortedMonths = byMonth.map(({ month }) => month).sort();
    const first = sortedMonths[0];
    const last = sortedMonths[sortedMonths.length - 1];
    const empty = { returns: 0, failed: 0, phantom: 0, failureRate: 0, phantomRate: 0 };
    const filled = first === undefined || last === undefined ? [] : monthsBetween(first, last);
    return {
      ...total,
      passed: total.returns - total.failed,
      early: this.early,
      unreadable: this.unreadable,
      internalErrors: this.internalErrors,
      commits: this.commitsSeen.size,
      byAgent: this.agents.rows().map(([agent, tally]) => ({ agent, ...tally })),
      byCommand: this.commands.rows().map(([command, tally]) => ({ command, ...tally })),
      byStatus: this.statuses.rows().map(([status, tally]) => ({ status, ...tally })),
      byMonth: (filled ?? sortedMonths).map((month) => ({ month, ...(this.months.get(month) ?? empty) })),
      emptyMonthsOmitted: filled === null,
      byAgentAndMonth: this.agents.rows().flatMap(([agent]) =>
        (this.agentMonths.get(agent)?.rows() ?? []).map(([month, tally]) => ({ agent, month, ...tally })).sort((a, b) => (a.month < b.month ? -1 : 1)),
      ),
      failuresByRule: [...this.rules]
        .map(([rule, counts]) => ({ rule, ...counts }))
        .sort((a, b) => b.failures - a.failures || (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0)),
      worst: rankWorst(this.worst).slice(0, WORST),
    };
  }
}

function rankWorst(returns: readonly WorstReturn[]): WorstReturn[] {
  return [...returns].sort(
    (a, b) => Number(b.phantom) - Number(a.phantom) || b.failures - a.failures || (a.date < b.date ? 1 : a.date > b.date ? -1 : a.path < b.path ? -1 : a.path > b.path ? 1 : 0),
  );
}
