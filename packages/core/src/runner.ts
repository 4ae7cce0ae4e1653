import { claimsOf, FORMAT_CLAIMS, type Claims } from "./claims.js";
import type { Contract, ContractView } from "./contract.js";
import { fillTemplate, MAX_QUOTED_CHARS, quoted } from "./messages.js";
import { isolatedModule, runIsolated } from "./isolation.js";
import { isObject } from "./pointer.js";
import { jsonType, preview } from "./json/render.js";
import type {
  AnyRule,
  Expected,
  FileView,
  FormatName,
  JsonObject,
  Level,
  MessageData,
  MessageSpec,
  ParseOutcome,
  Report,
  ReportDescriptor,
  Result,
  RuleContext,
} from "./types.js";

/** A rule as the config resolved it for one command: what to run, how loud, with which options. */
export interface ConfiguredRule {
  readonly rule: AnyRule;
  readonly severity: "warn" | "error";
  readonly options: unknown;
  /** Where the rule came from (a package name or a file), named when it crashes. */
  readonly source: string;
}

export interface RunInput {
  readonly text: string;
  readonly parse: ParseOutcome;
  readonly command: string | null;
  readonly format: FormatName;
  readonly expected: Expected;
  readonly rules: readonly ConfiguredRule[];
  readonly files: FileView;
  /** The contract the return is checked under (rulesFor's), whose annotations say where its claims are. */
  readonly contract?: Contract;
  /** The return's claims, when the caller worked them out already (`claimsOf`); else the runner does, once. */
  readonly claims?: Claims;
  /**
   * How long one rule's check may take, in milliseconds (default 10 s): a rule that
   * has not settled by then becomes an internal error, and the run goes on without it.
   */
  readonly ruleTimeoutMs?: number;
  /**
   * false: passes and notes are counted and checked against their rule's meta, and not listed in
   * the report's results (no message is made for them), for a caller that shows problems only
   * (scan's table). Default true.
   */
  readonly listNotes?: boolean;
}

export const DEFAULT_RULE_TIMEOUT_MS = 10_000;

const UNKNOWN_AGENT = "the subagent";

/** How templates' `{subagent}` names the agent: "researcher subagent", or "the subagent" when no name is known. */
export function subagentName(agent: string): string {
  return agent === UNKNOWN_AGENT ? agent : `${agent} subagent`;
}

/** The agent messages name: the caller's word first, then the return's own claim. */
export function agentName(expected: Expected, value: unknown): string {
  if (expected.agent !== undefined && expected.agent !== "") return expected.agent;
  const claimed = claimedAgent(value);
  return claimed === undefined ? UNKNOWN_AGENT : quoted(claimed);
}

/** The agent a return names: `metadata.agent_type`, else a top-level `agent_type`; undefined when it names none. */
export function claimedAgent(value: unknown): string | undefined {
  if (!isObject(value)) return undefined;
  const claimed = isObject(value.metadata) ? value.metadata.agent_type : value.agent_type;
  return typeof claimed === "string" && claimed !== "" ? claimed : undefined;
}

/** What one rule's check produced: the results it lists, how many more it reported by level, or why its verdict is missing. */
export interface RuleRun {
  readonly own: readonly Result[];
  readonly omitted?: Tally;
  readonly failure?: Failure;
}

/** Results counted by level. */
export type Tally = Record<Level, number>;

/**
 * How many results one rule lists: its first 100 problems (failures and warnings) and its first
 * 100 notes (passes and infos). Every result is counted (the report's errorCount and warningCount,
 * and so the verdict and --max-warnings, see them all); the ones past a limit are summed up in one
 * result per rule, `resultsOmitted` ("… and N more"), so that a return naming a million artifacts
 * costs every output, block reason and verdict file a bounded size.
 */
export const MAX_LISTED_PER_RULE = 100;
/** How many problems, and how many notes, one return lists, every rule together. */
export const MAX_LISTED_PER_RETURN = 1000;
/** The message id of the line that sums up what a rule reported past the limits. */
export const RESULTS_OMITTED = "resultsOmitted";

/** What every rule's context shares for one return; plain data, so that it crosses threads. */
export type SharedContext = Pick<RuleContext<unknown>, "value" | "text" | "parse" | "command" | "format" | "expected" | "agent" | "claims" | "contract"> & {
  /** Filled into every message: {agent}, {subagent}, {command}. */
  readonly names: MessageData;
};

/**
 * Runs the configured rules, in order, over one parsed return and collects
 * every result. A rule that throws, reports something it did not declare,
 * returns a value instead of reporting, or does not settle within the time
 * limit becomes an internal-error result naming it; the others still run.
 * A rule loaded from a file or a package (not one of the host's built-in rules)
 * runs in returnlint's rule thread (isolation.ts), where a loop that never
 * returns is stopped at the time limit.
 */
export async function runRules(input: RunInput): Promise<Report> {
  return runRulesEagerly(input);
}

/**
 * runRules, without a promise when every check settles synchronously (the built-in rules do): a
 * caller validating many returns saves a turn of the microtask queue per return. An asynchronous
 * check, or one in the rule thread, makes the rest of the run asynchronous, in the same order.
 */
export function runRulesEagerly(input: RunInput): Report | Promise<Report> {
  const parsedValue = input.parse.ok ? input.parse.value : undefined;
  const value: JsonObject = isObject(parsedValue) ? parsedValue : {};
  const agent = agentName(input.expected, parsedValue);
  // Templates say "Fix {subagent} to …": "Fix researcher subagent to …", or "Fix the subagent to …".
  const subagent = subagentName(agent);
  const shared: SharedContext = {
    value,
    text: input.text,
    parse: input.parse,
    command: input.command,
    format: input.format,
    expected: input.expected,
    agent,
    names: { agent, subagent, command: input.command ?? "" },
    claims: input.claims ?? claimsOfReturn(parsedValue, input.contract),
    contract: contractView(input.contract, parsedValue),
  };
  return runFrom({ input, shared, parsedValue, timeoutMs: timeLimit(input.ruleTimeoutMs), listing: new ReturnListing(MAX_LISTED_PER_RETURN, input.listNotes !== false), internalError: false }, 0);
}

/** What `value` claims: where its contract says, else in the formats' fields. */
export function claimsOfReturn(value: unknown, contract: Contract | undefined): Claims {
  return contract === undefined ? claimsOf(value, FORMAT_CLAIMS, false) : claimsOf(value, contract.claims, true);
}

/** The contract as rules see it, its violations found once (none for a return that is not an object: json-structure says so). */
function contractView(contract: Contract | undefined, value: unknown): ContractView | undefined {
  if (contract === undefined) return undefined;
  return { file: contract.file, schema: contract.schema, claims: contract.claims, violations: isObject(value) ? contract.check(value) : [] };
}

interface Run {
  readonly input: RunInput;
  readonly shared: SharedContext;
  readonly parsedValue: unknown;
  readonly timeoutMs: number;
  readonly listing: ReturnListing;
  internalError: boolean;
}

const isProblem = (level: Level): boolean => level === "fail" || level === "warn";

function emptyTally(): Tally {
  return { fail: 0, warn: 0, pass: 0, info: 0 };
}

/** What one return lists of its rules' results, what room is left, and every result counted by level. */
class ReturnListing {
  readonly results: Result[] = [];
  readonly counts: Tally = emptyTally();
  omitted = 0;
  problemRoom: number;
  noteRoom: number;

  constructor(
    room: number,
    /** Whether passes and notes are listed (RunInput's `listNotes`); counted either way. */
    readonly listsNotes: boolean,
  ) {
    this.problemRoom = room;
    this.noteRoom = room;
  }

  /** Adds a result that is always listed (a rule's crash, a summary), counted unless it is a summary. */
  append(result: Result, counted: boolean): void {
    this.results.push(result);
    if (counted) this.counts[result.level] += 1;
  }
}

/** One rule's share of a listing: listed while its limit and the return's allow, the rest counted by level. */
class RuleListing {
  /** What the rule reported past the limits, by level; made when the first result is left out (most rules never). */
  omitted: Tally | undefined;
  #problems = 0;
  #notes = 0;

  constructor(readonly listing: ReturnListing) {}

  /** Counts a result of this level, and says whether it is listed. */
  admits(level: Level): boolean {
    const { listing } = this;
    listing.counts[level] += 1;
    if (isProblem(level)) {
      if (this.#problems < MAX_LISTED_PER_RULE && listing.problemRoom > 0) {
        this.#problems += 1;
        listing.problemRoom -= 1;
        return true;
      }
    } else if (!listing.listsNotes) {
      // Not listed, and not left out either: the caller asked for none, so none is summed up.
      return false;
    } else if (this.#notes < MAX_LISTED_PER_RULE && listing.noteRoom > 0) {
      this.#notes += 1;
      listing.noteRoom -= 1;
      return true;
    }
    this.#omit(level, 1);
    return false;
  }

  /** What the rule thread listed and counted, taken into this listing under the return's limits. */
  take(run: RuleRun): void {
    for (const result of run.own) {
      if (this.admits(result.level)) this.listing.results.push(result);
    }
    if (run.omitted === undefined) return;
    for (const level of LEVELS) {
      const more = run.omitted[level];
      this.listing.counts[level] += more;
      this.#omit(level, more);
    }
  }

  #omit(level: Level, count: number): void {
    this.omitted ??= emptyTally();
    this.omitted[level] += count;
    this.listing.omitted += count;
  }
}

const LEVELS: readonly Level[] = ["fail", "warn", "pass", "info"];

/** Runs the configured rules from `first` on, in order; waits only for a check that does not settle at once. */
function runFrom(run: Run, first: number): Report | Promise<Report> {
  const { input, shared, timeoutMs } = run;
  for (let index = first; index < input.rules.length; index += 1) {
    const configured = input.rules[index];
    if (configured === undefined) continue;
    // The value first: nearly every return is an object, and then no rule's meta need be read.
    if (!isObject(run.parsedValue) && (configured.rule.meta.input ?? "object") === "object") continue;
    const isolated = isolatedModule(configured.rule);
    if (isolated !== undefined) {
      return runIsolated(isolated, configured, shared, input.files, timeoutMs).then((ruleRun) => {
        const listing = new RuleListing(run.listing);
        listing.take(ruleRun);
        ruleDone(run, configured, listing, ruleRun.failure);
        return runFrom(run, index + 1);
      });
    }
    // In this thread, the rule's results go straight into the run's: rules run one after another.
    const { rule } = configured;
    const listing = new RuleListing(run.listing);
    const context = new Context(shared, configured.options, input.files, rule, listing, configured.severity === "error" ? "fail" : "warn");
    const settled = settle(rule, context, timeoutMs);
    // Only an asynchronous check costs a turn of the event loop.
    if (settled instanceof Promise) {
      return settled.then((outcome) => {
        ruleDone(run, configured, listing, Context.finish(context, outcome));
        return runFrom(run, index + 1);
      });
    }
    ruleDone(run, configured, listing, Context.finish(context, settled));
  }
  return reportOf(run);
}

/** After a rule: the line summing up what it reported past the limits, and why its verdict is missing, if it is. */
function ruleDone(run: Run, configured: ConfiguredRule, listing: RuleListing, failure: Failure | undefined): void {
  const summary = omittedSummary(configured.rule.id, listing.omitted);
  if (summary !== undefined) run.listing.append(summary, false);
  if (failure === undefined) return;
  run.internalError = true;
  run.listing.append(internalFailure(configured, failure, run.timeoutMs), true);
}

function reportOf({ input, shared, listing, internalError }: Run): Report {
  const errorCount = listing.counts.fail;
  // The status the claims hang on: `status`, or where a contract's success annotation points.
  const { status } = shared.claims;
  return {
    ok: errorCount === 0,
    command: input.command,
    format: input.format,
    status: status === null ? null : quoted(status),
    agent: shared.agent,
    errorCount,
    warningCount: listing.counts.warn,
    internalError,
    results: listing.results,
    ...(listing.omitted === 0 ? {} : { omitted: listing.omitted }),
  };
}

/**
 * The one result that stands for what a rule reported past the limits, as loud as the loudest
 * of them (a failure when any failed), so that `--quiet`, the block reason and every format
 * show it where they show problems. Not counted itself: the report's counts already hold
 * every result it sums up. Its data gives each count.
 */
function omittedSummary(ruleId: string, omitted: Tally | undefined): Result | undefined {
  if (omitted === undefined) return undefined;
  const total = omitted.fail + omitted.warn + omitted.pass + omitted.info;
  if (total === 0) return undefined;
  const level: Level = omitted.fail > 0 ? "fail" : omitted.warn > 0 ? "warn" : "info";
  const problems = omitted.fail + omitted.warn;
  const parts = [
    counted(omitted.fail, "failure", "failures"),
    counted(omitted.warn, "warning", "warnings"),
    counted(omitted.pass, "passed check", "passed checks"),
    counted(omitted.info, "note", "notes"),
  ].filter((part) => part !== "");
  const listed = `returnlint lists the first ${String(MAX_LISTED_PER_RULE)} problems and ${String(MAX_LISTED_PER_RULE)} passed checks of each rule (${String(MAX_LISTED_PER_RETURN)} of each per return); every result counts in the totals and the verdict`;
  return {
    ruleId,
    level,
    messageId: RESULTS_OMITTED,
    message: `… and ${String(total)} more ${total === 1 ? "result" : "results"} of ${ruleId}, not listed: ${parts.join(", ")}`,
    detail: `Note: ${listed}`,
    ...(problems === 0
      ? {}
      : { reask: `${String(problems)} more ${problems === 1 ? "problem" : "problems"} like the ones above ${problems === 1 ? "is" : "are"} not listed; fix every entry of that kind, not only the ones listed` }),
    data: { rule: ruleId, omitted: total, failures: omitted.fail, warnings: omitted.warn, passes: omitted.pass, notes: omitted.info },
  };
}

function counted(count: number, one: string, many: string): string {
  return count === 0 ? "" : `${String(count)} ${count === 1 ? one : many}`;
}

/**
 * Runs one rule's check in this thread. `timeoutMs` bounds the wait for an asynchronous
 * check (undefined: no bound, for the rule thread, which its host stops from outside).
 */
export function runRule(
  configured: Pick<ConfiguredRule, "rule" | "severity" | "options">,
  shared: SharedContext,
  files: FileView,
  timeoutMs: number | undefined,
): RuleRun | Promise<RuleRun> {
  const { rule } = configured;
  // The rule's own limit here; the return's is applied where its results are taken in (RuleListing.take).
  const listing = new RuleListing(new ReturnListing(MAX_LISTED_PER_RULE, true));
  const context = new Context(shared, configured.options, files, rule, listing, configured.severity === "error" ? "fail" : "warn");
  const settled = settle(rule, context, timeoutMs);
  return settled instanceof Promise ? settled.then((outcome) => ruleRun(listing, Context.finish(context, outcome))) : ruleRun(listing, Context.finish(context, settled));
}

function ruleRun(listing: RuleListing, failure: Failure | undefined): RuleRun {
  const { results: own } = listing.listing;
  const { omitted } = listing;
  const listed = omitted === undefined ? { own } : { own, omitted };
  return failure === undefined ? listed : { ...listed, failure };
}

/**
 * One rule's context, and what its check reports until it settles. A class, so that what a rule
 * never looks at costs it nothing: the lazy `signal`, and the return's facts, read through from
 * the context the return's rules share rather than copied into each rule's. The recording is in
 * private (#) fields, out of the rule's sight. One object and its three report functions per rule
 * and run: the hot path allocates little.
 */
class Context implements RuleContext<unknown> {
  private controller: AbortController | undefined;

  // Own properties, not methods: a rule may take them out of the context (`const { report } = context`).
  readonly report: (descriptor: ReportDescriptor) => void;
  readonly pass: (descriptor: ReportDescriptor) => void;
  readonly info: (descriptor: ReportDescriptor) => void;

  readonly #shared: SharedContext;
  readonly #rule: AnyRule;
  /** Where the results go, in the order reported, as far as the limits list them. */
  readonly #listing: RuleListing;
  // Reports that arrive after the rule settled or timed out are dropped: its verdict is already counted.
  #open = true;
  // Kept even if the rule catches what report threw.
  #misreport: Failure | undefined;

  constructor(
    shared: SharedContext,
    readonly options: unknown,
    readonly files: FileView,
    rule: AnyRule,
    listing: RuleListing,
    level: "fail" | "warn",
  ) {
    this.#shared = shared;
    this.#rule = rule;
    this.#listing = listing;
    this.report = (descriptor) => {
      this.#emit(level, descriptor);
    };
    this.pass = (descriptor) => {
      this.#emit("pass", descriptor);
    };
    this.info = (descriptor) => {
      this.#emit("info", descriptor);
    };
  }

  get value(): JsonObject {
    return this.#shared.value;
  }

  get text(): string {
    return this.#shared.text;
  }

  get parse(): ParseOutcome {
    return this.#shared.parse;
  }

  get command(): string | null {
    return this.#shared.command;
  }

  get format(): FormatName {
    return this.#shared.format;
  }

  get expected(): Expected {
    return this.#shared.expected;
  }

  get agent(): string {
    return this.#shared.agent;
  }

  get claims(): Claims {
    return this.#shared.claims;
  }

  get contract(): ContractView | undefined {
    return this.#shared.contract;
  }

  #emit(level: Level, descriptor: ReportDescriptor): void {
    if (!this.#open) return;
    try {
      const effective = level === "fail" && isObject(descriptor) && descriptor.level === "warn" ? "warn" : level;
      // Past the limits a report is checked against the rule's meta and counted, and no message is made.
      if (this.#listing.admits(effective)) this.#listing.listing.results.push(toResult(this.#rule, effective, descriptor, this.#shared.names));
      else declaredSpec(this.#rule, descriptor);
    } catch (error) {
      this.#misreport ??= { kind: "threw", reason: describeThrown(error) };
      throw error;
    }
  }

  /** Closes the recording (later reports are dropped); why the rule's verdict is missing, if it is. */
  static finish(context: Context, outcome: Failure | undefined): Failure | undefined {
    context.#open = false;
    if (outcome?.kind === "timedOut") context.abort();
    return context.#misreport ?? outcome;
  }

  get signal(): AbortSignal {
    this.controller ??= new AbortController();
    return this.controller.signal;
  }

  abort(): void {
    this.controller?.abort(new Error("the rule's time limit passed"));
  }
}

/** Why a rule's check did not complete as the contract says; plain data, so that it crosses threads. */
export type Failure =
  | { readonly kind: "threw"; readonly reason: string }
  | { readonly kind: "returned"; readonly reason: string }
  | { readonly kind: "timedOut" };

/**
 * Runs one check; for an asynchronous one, waits for it at most `timeoutMs`.
 * A synchronous check settles synchronously and pays for no timer or promise; a
 * timer that did not fire is cleared, so it keeps neither the process alive nor
 * the run waiting.
 */
function settle(rule: AnyRule, context: Context, timeoutMs: number | undefined): Failure | undefined | Promise<Failure | undefined> {
  let returned: unknown;
  let thenable: boolean;
  try {
    returned = rule.check(context);
    thenable = isThenable(returned);
  } catch (error) {
    return { kind: "threw", reason: describeThrown(error) };
  }
  if (!thenable) return returned === undefined ? undefined : returnedFailure(returned);
  return settleAsync(returned, timeoutMs);
}

async function settleAsync(returned: unknown, timeoutMs: number | undefined): Promise<Failure | undefined> {
  const completed = Promise.resolve(returned).then(
    (value): Failure | undefined => (value === undefined ? undefined : returnedFailure(value)),
    (error: unknown): Failure => ({ kind: "threw", reason: describeThrown(error) }),
  );
  if (timeoutMs === undefined) return completed;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<Failure>((resolve) => {
    timer = setTimeout(() => {
      resolve({ kind: "timedOut" });
    }, timeoutMs);
  });
  try {
    return await Promise.race([completed, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

function returnedFailure(value: unknown): Failure {
  return { kind: "returned", reason: `check returned ${describeValue(value)} instead of reporting through context.report; nothing it found was recorded` };
}

/** Node fires a longer timer at once (after a warning): the largest delay it keeps is 2^31 - 1 ms. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

export function timeLimit(ms: number | undefined): number {
  if (ms === undefined || !(ms > 0)) return DEFAULT_RULE_TIMEOUT_MS;
  return Math.min(Math.ceil(ms), LONGEST_TIMER_MS);
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (typeof value === "object" || typeof value === "function") && value !== null && typeof (value as { then?: unknown }).then === "function";
}

function internalFailure(configured: ConfiguredRule, failure: Failure, timeoutMs: number): Result {
  const { rule, source } = configured;
  const verdict = "the verdict is incomplete";
  if (failure.kind === "timedOut") {
    return {
      ruleId: rule.id,
      level: "fail",
      messageId: "ruleTimedOut",
      message: `Rule ${rule.id} timed out after ${formatMs(timeoutMs)} (from ${source})`,
      detail: "Error: its check did not settle in time; its findings were not counted",
      recommendation: `Report this to the maintainers of ${source}; ${verdict}. If the rule is only slow, raise the rule time limit`,
      data: { rule: rule.id, source: quoted(source), timeoutMs },
    };
  }
  return {
    ruleId: rule.id,
    level: "fail",
    messageId: "ruleCrashed",
    message: `Rule ${rule.id} crashed (from ${source})`,
    detail: `Error: ${quoted(failure.reason, MAX_REASON_CHARS)}`,
    recommendation: `Report this to the maintainers of ${source}; ${verdict}`,
    data: { rule: rule.id, source: quoted(source), reason: quoted(failure.reason, MAX_REASON_CHARS) },
  };
}

/** A crash's reason is the rule's own text: shown, but bounded like anything else quoted. */
const MAX_REASON_CHARS = 1000;

// What a rule threw or returned is arbitrary code's value: describing it must not throw in turn.
export function describeValue(value: unknown): string {
  try {
    const type = jsonType(value);
    const article = type === "object" || type === "array" ? (type === "array" ? "an array" : "an object") : type;
    return `${article} ${preview(value, 40)}`;
  } catch {
    return "a value that cannot be shown";
  }
}

export function describeThrown(error: unknown): string {
  try {
    return error instanceof Error ? error.message : typeof error === "string" ? error : preview(error, 80);
  } catch {
    return "it threw a value that cannot be shown";
  }
}

function formatMs(ms: number): string {
  return ms >= 1000 && ms % 1000 === 0 ? `${String(ms / 1000)} s` : `${String(ms)} ms`;
}

/** The message a report names, checked against the rule's meta: a report it does not declare throws, which crashes the rule. */
function declaredSpec(rule: AnyRule, descriptor: ReportDescriptor): MessageSpec {
  if (!isObject(descriptor) || typeof descriptor.messageId !== "string") {
    throw new Error(`reported ${preview(descriptor, 40)} instead of an object with a messageId`);
  }
  const { messageId, data: given, pointer } = descriptor;
  const messages = rule.meta.messages;
  const spec = Object.hasOwn(messages, messageId) ? messages[messageId] : undefined;
  if (spec === undefined) {
    throw new Error(`reported unknown messageId "${messageId}"`);
  }
  if (given !== undefined && !isObject(given)) {
    throw new Error(`reported "${messageId}" with data ${preview(given, 40)} instead of an object`);
  }
  if (pointer !== undefined && typeof pointer !== "string") {
    throw new Error(`reported "${messageId}" with pointer ${preview(pointer, 40)} instead of a JSON Pointer string`);
  }
  return spec;
}

/** The result a report describes; a report the rule's meta does not declare throws, which crashes the rule. */
function toResult(rule: AnyRule, level: Level, descriptor: ReportDescriptor, context: MessageData): Result {
  const spec = declaredSpec(rule, descriptor);
  const { messageId, data: given, pointer } = descriptor;
  // The rule's own data (a bounded copy, kept on the result) first, then the context's names; no merged copy per result.
  const own = given === undefined ? undefined : reportedData(given);
  const data = own ?? context;
  const names = own === undefined ? undefined : context;
  const result: Writable<Result> = { ruleId: rule.id, level, messageId, message: fillTemplate(spec.text, data, names) };
  if (spec.detail !== undefined) result.detail = leveledDetail(fillTemplate(spec.detail, data, names), level);
  if (spec.recommendation !== undefined) result.recommendation = fillTemplate(spec.recommendation, data, names);
  if (spec.reask !== undefined) result.reask = fillTemplate(spec.reask, data, names);
  if (pointer !== undefined) result.pointer = pointer;
  if (own !== undefined) result.data = own;
  return result;
}

type Writable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * A detail line's opening word says the finding's level: a message written as a failure
 * ("Error: …") that is reported as a warning (a rule's option, or the config's severity) reads
 * "Warning: …", and the other way round.
 */
function leveledDetail(detail: string, level: Level): string {
  if (level === "warn" && detail.startsWith("Error: ")) return `Warning: ${detail.slice("Error: ".length)}`;
  if (level === "fail" && detail.startsWith("Warning: ")) return `Error: ${detail.slice("Warning: ".length)}`;
  return detail;
}

/** The most entries of a report's data a result keeps: templates name a handful. */
export const MAX_DATA_ENTRIES = 50;

/**
 * The data a rule reported, as the result carries it and its messages are filled
 * from: a copy the rule cannot change afterwards, JSON-safe (strings and finite
 * numbers; anything else a custom rule passes becomes its short preview), and
 * bounded (every long string cut, as messages quote the return's own text).
 */
function reportedData(data: MessageData): MessageData {
  const copy: Record<string, string | number> = {};
  let entries = 0;
  for (const key of Object.keys(data)) {
    if (entries === MAX_DATA_ENTRIES) break;
    // A placeholder is a short word: a longer name is no template's, and would not be bounded.
    if (key.length > MAX_QUOTED_CHARS) continue;
    const value: unknown = data[key];
    // Left out, as a template leaves its placeholder unfilled.
    if (value === undefined) continue;
    const safe =
      typeof value === "string" ? quoted(value) : typeof value === "number" && Number.isFinite(value) ? value : typeof value === "number" ? String(value) : preview(value, 40);
    // defineProperty for "__proto__" only, so that it stays a plain entry; any other key is a plain store.
    if (key === "__proto__") Object.defineProperty(copy, key, { value: safe, enumerable: true, writable: true, configurable: true });
    else copy[key] = safe;
    entries += 1;
  }
  return copy;
}
