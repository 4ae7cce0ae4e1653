import path from "node:path";
import { EXIT, isReturnlintError, type Importer, type LoadedConfig, type SafeDir } from "@returnlint/core";
import {
  blockReason,
  BUILT_IN_AGENTS,
  checkReturn,
  commandForAgent,
  DEFAULT_MAX_BLOCKS,
  knownCommand,
  loadReturnlintConfig,
  owesReturn,
  problemsDigest,
  retryDecision,
  returnOfMessage,
  systemReason,
  type AllowedBecause,
  type CheckedReturn,
  type NotValidated,
} from "@returnlint/api";
import { emitVerdicts } from "@returnlint/telemetry";
import type { HostAdapter, StopPayload } from "./host.js";
import { claude } from "./hosts/claude.js";
import { readTail, subagentRun } from "./run.js";
import { isoTimestamp, openEntry, openStateDir, safeName, STATE_DIR, updateLedger, writeStateFile, type LedgerEntry } from "./state.js";

/** Where the hook writes: its answer to the host on `stdout`, why it let a stop through on `stderr`. */
export interface HookOutput {
  stdout(text: string): void;
  stderr(text: string): void;
}

/** One run of a stop hook: the payload the host sent, and the hook's options (`returnlint hook HOST`'s flags). */
export interface StopHookOptions extends HookOutput {
  /** The hook's JSON payload, as the host wrote it on standard input. */
  readonly payloadText: string;
  /** The directory the hook runs in: the payload's `cwd` and `configFile` are resolved from it. */
  readonly cwd: string;
  /** The agent's name when the payload has none (a Stop hook). */
  readonly agent?: string;
  /** The command whose rules apply (default: the config's "agents" map, else the agent's name); one the config does not know is a misconfiguration. */
  readonly command?: string;
  /** A config file, instead of looking for returnlint.config.* from the project. */
  readonly configFile?: string;
  /** Blocks at most this many times per subagent (default 3). */
  readonly maxBlocks?: number;
  /** Exit 2 on a broken payload or configuration (bounded like blocks) instead of letting the stop through. */
  readonly failClosed?: boolean;
  /**
   * A person runs the hook by hand, not a host: a usage mistake (an unknown `command`) is thrown, for
   * the exit 2 every command gives one, instead of said and the stop let through.
   */
  readonly interactive?: boolean;
  /** Imports a config file and the modules it names (the bin lends its loader's); Node's `import()` when absent. */
  readonly importer?: Importer;
  /** The hook's environment: when it names an OTLP endpoint, the verdict goes there as an OpenTelemetry event (`@returnlint/telemetry`). */
  readonly env?: NodeJS.ProcessEnv;
  /** returnlint's version, for the events' instrumentation scope. */
  readonly version?: string;
}

type Decision = { readonly kind: "pass" } | { readonly kind: "block" } | { readonly kind: "allow"; readonly because: AllowedBecause };

/** The options of the Claude Code hook (the name it had before there were other hosts). */
export type ClaudeHookOptions = StopHookOptions;

/**
 * Validates the return a stopping (sub)agent leaves, as `returnlint hook HOST` does: prints the
 * host's block (`host.block`) on `stdout` to fail the return, records the attempt in the ledger and
 * the verdict in `.returnlint/verdicts/`, and answers the exit code (0, or 2 when `failClosed` holds
 * the agent). It throws only a usage mistake when `interactive`: any other failure lets the stop
 * through, said to the user (see giveWay).
 */
export async function runStopHook(host: HostAdapter, options: StopHookOptions): Promise<number> {
  const io: HostOutput = { ...options, host };
  try {
    return await runHook(io, options);
  } catch (error) {
    if (options.interactive === true && isReturnlintError(error) && error.code === "USAGE") throw error;
    return giveWay(io, options.failClosed === true, describeFailure(error));
  }
}

/** `returnlint hook claude`: runStopHook with the Claude Code adapter. */
export async function runClaudeHook(options: StopHookOptions): Promise<number> {
  return await runStopHook(claude, options);
}

/** Where the hook writes, and the host that reads it. */
export interface HostOutput extends HookOutput {
  readonly host: HostAdapter;
}

async function runHook(io: HostOutput, options: StopHookOptions): Promise<number> {
  const { host } = io;
  const failClosed = options.failClosed === true;
  const maxBlocks = options.maxBlocks ?? DEFAULT_MAX_BLOCKS;

  const outcome = host.parse(options.payloadText);
  if (!outcome.ok) return giveWay(io, failClosed, `ignoring a broken hook payload: ${outcome.reason}`);
  if ("ignore" in outcome) return passed(io);
  const payload = outcome.payload;
  const root = path.resolve(options.cwd, payload.cwd);
  const agent = options.agent ?? payload.agentType;
  const attempt = { payload, root, agent, command: options.command ?? null, failClosed, maxBlocks };

  let config: LoadedConfig;
  try {
    config = await loadReturnlintConfig({
      cwd: root,
      ...(options.configFile === undefined ? {} : { configFile: path.resolve(options.cwd, options.configFile) }),
      ...(options.importer === undefined ? {} : { importer: options.importer }),
    });
  } catch (error) {
    if (!isReturnlintError(error)) throw error;
    // Without a config, only the name rule says which agents this hook is for: a host's own
    // agents (Explore, Plan, …) and a Stop hook that names none are never held up by it.
    if ((options.command === undefined && agent === undefined) || (agent !== undefined && BUILT_IN_AGENTS.has(agent))) return giveWay(io, false, describeFailure(error), !failClosed);
    return await cannotValidate(io, attempt, describeFailure(error), "config-error");
  }
  // A host's own agent (Explore, Plan, …) returns prose by design: checked only when the agents map names it, whatever --command says.
  const hostsOwn = agent !== undefined && BUILT_IN_AGENTS.has(agent) && commandForAgent(config, agent) === null;
  let command: string | null;
  try {
    command = options.command === undefined ? commandForAgent(config, agent) : knownCommand(config, options.command);
  } catch (error) {
    if (!isReturnlintError(error) || options.interactive === true) throw error;
    // A misspelt --command in settings.json is the user's to fix: said to them, never a block of every subagent.
    if (hostsOwn) return giveWay(io, false, describeFailure(error), !failClosed);
    return await cannotValidate(io, attempt, describeFailure(error), "config-error");
  }
  // An agent returnlint knows nothing about returns prose by design.
  if (hostsOwn || command === null) return passed(io);
  if (payload.lastAssistantMessage === undefined) {
    return giveWay(io, failClosed, `ignoring a hook payload without the agent's final message (${payload.event} of ${agent ?? "the main agent"}): this ${host.title} version does not send it`);
  }

  const transcriptPath = await caughtUpTranscript(host, payload, root, io);
  let checked: CheckedReturn;
  try {
    const run = subagentRun({ root, host, ...(transcriptPath === undefined ? {} : { transcriptPath }), ...(agent === undefined ? {} : { agent }) });
    // An agent whose own definition asks for another kind of return (`REPORT_CREATED: path`) is left alone, unless --command or the agents map says otherwise.
    if (options.command === undefined && !owesReturn({ config, ...(agent === undefined ? {} : { agent }), run, message: payload.lastAssistantMessage })) return passed(io);
    const source = returnOfMessage({ message: payload.lastAssistantMessage, root, command, config, run });
    checked = await checkReturn(source, {
      root,
      command,
      config,
      ...(agent === undefined ? {} : { agent }),
      ...(transcriptPath === undefined ? {} : { transcriptPath }),
      ...(payload.transcriptAgentId === undefined ? {} : { transcriptAgentId: payload.transcriptAgentId }),
    });
  } catch (error) {
    // A return the hook could not judge is never passed unremarked: it goes as --fail-closed says, said to the user and recorded in the verdict.
    return await cannotValidate(io, { ...attempt, command }, `could not check the return of ${agent ?? "the main agent"}: ${describeFailure(error)}`, "internal-error");
  }
  if (options.env !== undefined && checked.report !== undefined) {
    const warn = (line: string) => {
      io.stderr(`${line}\n`);
    };
    await emitVerdicts([checked.report], { env: options.env, command: "hook", host: host.name, root, warn, ...(options.version === undefined ? {} : { version: options.version }) });
  }
  if (checked.internalError) {
    return await cannotValidate(io, { ...attempt, command }, `a rule crashed while checking the return of ${agent ?? "the main agent"}`, "internal-error");
  }
  const deliver = (entry: LedgerEntry) => {
    io.stdout(host.block(blockReason(checked, { command, attempt: entry.attempts, reader: host.reader, agent, returned: payload.lastAssistantMessage })));
  };
  const { decision, entry, verdict, undelivered } = await record({ ...attempt, command }, checked, () => problemsDigest(checked.problems), { deliver });
  if (undelivered !== undefined) {
    io.stderr(`returnlint hook: could not send ${agent ?? "the main agent"} back: writing the block to standard output failed (${systemReason(undelivered)}); its return fails; the verdict in ${verdict} records it\n`);
    return EXIT.error;
  }
  if (decision.kind === "allow") {
    return giveWay(io, false, `${gaveUp(decision.because, entry)}: the return of ${agent ?? "the main agent"} still fails (${String(checked.problemCount)} ${checked.problemCount === 1 ? "problem" : "problems"}); the verdict in ${verdict} records it`, false);
  }
  // A block was the whole answer: nothing may follow it on standard output.
  return decision.kind === "block" ? EXIT.passed : passed(io);
}

/** How long the hook waits for a host's log to catch up with the stop, and how often it looks. */
const TRANSCRIPT_WAIT_MS = 3000;
const TRANSCRIPT_POLL_MS = 50;
/** How much of the log's end is read to find the stop in it: the stop's own entry repeats the final message. */
const tailBytes = (payload: StopPayload): number => 1024 * 1024 + 4 * (payload.lastAssistantMessage?.length ?? 0);

/**
 * The transcript to check the return against: the payload's, once the host's log has caught up
 * with this stop (`transcriptCaughtUp`). One that has not within TRANSCRIPT_WAIT_MS is not read:
 * the rules then say there is no transcript, and no claim is failed for work the log had yet to show.
 */
async function caughtUpTranscript(host: HostAdapter, payload: StopPayload, root: string, io: HostOutput): Promise<string | undefined> {
  const given = payload.transcriptPath;
  if (given === undefined || host.transcriptCaughtUp === undefined) return given;
  const file = path.resolve(root, given);
  const deadline = Date.now() + TRANSCRIPT_WAIT_MS;
  for (;;) {
    const tail = readTail(file, tailBytes(payload));
    // A log that cannot be read is the rules' to report, as it is.
    if (tail === undefined || host.transcriptCaughtUp(payload, tail)) return given;
    if (Date.now() >= deadline) break;
    // A plain timer rather than node:timers/promises, which every stop would pay to load.
    await new Promise((resolve) => setTimeout(resolve, TRANSCRIPT_POLL_MS));
  }
  io.stderr(`returnlint hook: ${host.title} had not written this stop to ${given} after ${String(TRANSCRIPT_WAIT_MS / 1000)} s; the return's claims are not checked against it\n`);
  return undefined;
}

/** The return passes, or is none of the hook's business: the host's "carry on". */
function passed(io: HostOutput): number {
  if (io.host.passOutput !== "") io.stdout(io.host.passOutput);
  return EXIT.passed;
}

/** Why a failing stop went through, in words. */
function gaveUp(because: AllowedBecause, entry: LedgerEntry): string {
  switch (because) {
    case "repeated-feedback":
      return `gave up after ${String(entry.attempts)} attempts: the problems are the same as the ones last sent back (repeated-feedback)`;
    case "max-blocks":
      return entry.blocks === 0 ? "let the stop through: --max-blocks is 0 (max-blocks)" : `gave up after ${String(entry.blocks)} ${entry.blocks === 1 ? "block" : "blocks"}, the most --max-blocks allows (max-blocks)`;
    case "stop-hook-active":
      return "let the stop through: another stop hook is already holding this agent (stop-hook-active)";
    default:
      return `let the stop through (${because})`;
  }
}

interface Attempt {
  readonly payload: StopPayload;
  readonly root: string;
  readonly agent: string | undefined;
  readonly command: string | null;
  readonly failClosed: boolean;
  readonly maxBlocks: number;
}

interface Recorded {
  readonly decision: Decision;
  readonly entry: LedgerEntry;
  /** Where the verdict was written, as the user sees it. */
  readonly verdict: string;
  /** Why a block could not be written: then no feedback counts as sent (the hook exits 2 instead). */
  readonly undelivered?: unknown;
}

/**
 * Counts the attempt in the ledger, decides, sends a block (`deliver`, under the ledger's lock, so
 * that a block counts only once it was written), and leaves the verdict for postflight. The state
 * directory is opened once per stop.
 */
async function record(
  attempt: Attempt,
  checked: CheckedReturn,
  digest: () => string,
  how: { readonly deliver?: (entry: LedgerEntry) => void; readonly notValidated?: NotValidated },
): Promise<Recorded> {
  const { payload, root, agent, maxBlocks } = attempt;
  const state = openStateDir(path.join(root, STATE_DIR));
  try {
    let undelivered: unknown;
    const key = safeName(payload.sessionId, payload.agentId ?? agent ?? "main");
    const decideFor = (current: LedgerEntry | undefined) =>
      decide(current, {
        payload,
        agent: agent ?? "main",
        failing: !checked.ok,
        digest,
        maxBlocks,
        ...(how.notValidated !== undefined && !attempt.failClosed ? { giveWay: how.notValidated } : {}),
      });
    const counted = (current: LedgerEntry | undefined) => {
      const decided = decideFor(current);
      if (decided.result.decision.kind !== "block" || how.deliver === undefined) return decided;
      try {
        how.deliver(decided.entry);
        return decided;
      } catch (error) {
        // The hook exits 2 instead, which holds the agent too: it counts towards --max-blocks, but
        // no feedback reached it, so the next stop is told again, never let through as "already told".
        undelivered = error;
        const entry: LedgerEntry = { ...decided.entry, lastProblems: current?.lastProblems ?? null };
        return { entry, result: { ...decided.result, entry } };
      }
    };
    // A pass with no run in progress has nothing to count or close: no lock, no ledger write (the common stop).
    const result = checked.ok && openEntry(state, key) === undefined ? decideFor(undefined).result : await updateLedger(state, key, counted);
    const name = verdictName({ agent, agentId: payload.agentId, sessionId: payload.sessionId, task: checked.task });
    writeVerdict(state, name, { payload, agent, command: attempt.command, checked, ...result });
    return { ...result, verdict: `${STATE_DIR}/verdicts/${name}.json`, ...(undelivered === undefined ? {} : { undelivered }) };
  } finally {
    state.close();
  }
}

/**
 * The return could not be validated (a broken config, a rule that crashed). The stop goes
 * through, unless --fail-closed: then the hook holds the agent (hold: the host keeps it working
 * and shows it the message), bounded by the same ledger as blocks, so that a problem the agent
 * cannot fix does not re-run it until the host's own limit (Copilot CLI has none).
 */
async function cannotValidate(io: HostOutput, attempt: Attempt, message: string, because: NotValidated): Promise<number> {
  const checked: CheckedReturn = {
    ok: false,
    status: null,
    origin: "none",
    source: "none",
    missing: false,
    task: null,
    problems: [{ message, reask: message }],
    problemCount: 1,
    warningCount: 0,
    internalError: true,
    phantom: false,
  };
  const { decision, verdict } = await record(attempt, checked, () => problemsDigest(checked.problems), { notValidated: because });
  if (decision.kind !== "block") {
    const why = attempt.failClosed && decision.kind === "allow" ? ` (--fail-closed gave way: ${decision.because})` : "";
    return giveWay(io, false, `${message.replace(/\.$/, "")}${why}; the verdict in ${verdict} records it`, !attempt.failClosed);
  }
  return hold(io, `returnlint hook: ${message}`);
}

/**
 * Holds the agent for --fail-closed, the way its host can (HostAdapter.holdBy): exit 2, or the
 * host's block. A hold nothing counts (`counted` false: no ledger entry) blocks only where the host
 * caps the loop itself (`capsLoops`): a block repeated without end would hold the agent forever.
 */
function hold(io: HostOutput, sentence: string, counted = true): number {
  io.stderr(`${sentence}\n`);
  if (io.host.holdBy !== "block" || (!counted && io.host.capsLoops !== true)) return EXIT.error;
  io.stdout(io.host.block(sentence));
  return EXIT.passed;
}

/** An error as the hook says it on standard error: a returnlint error with its problems, else its message. */
export function describeFailure(error: unknown): string {
  return isReturnlintError(error) ? [error.message, ...error.problems].join("\n  - ") : error instanceof Error ? error.message : String(error);
}

/**
 * Lets the stop through and says why where the user sees it: the host's notice on standard output
 * (Claude Code's `systemMessage`: an exit-0 hook's standard error is seen only in verbose mode), and
 * the same sentence on standard error for logs; a host that shows only a failing hook's standard
 * error gets exit 2 (`noticeExitCode`). `--fail-closed` holds the agent instead (hold).
 */
export function giveWay(io: HostOutput, failClosed: boolean, message: string, hint = true): number {
  const sentence = `returnlint hook: ${message}${failClosed || !hint ? "" : " (the stop goes through; --fail-closed blocks instead)"}`;
  if (failClosed) return hold(io, sentence, false);
  const notice = io.host.notice(sentence);
  io.stdout(notice === "" ? io.host.passOutput : notice);
  io.stderr(`${sentence}\n`);
  return io.host.noticeExitCode ?? EXIT.passed;
}

function decide(
  current: LedgerEntry | undefined,
  input: {
    readonly payload: StopPayload;
    readonly agent: string;
    readonly failing: boolean;
    /** The digest of the problems, worked out only for a failing return: a pass loads no node:crypto (about 3 ms). */
    readonly digest: () => string;
    readonly maxBlocks: number;
    readonly giveWay?: AllowedBecause;
  },
): { entry: LedgerEntry; result: { decision: Decision; entry: LedgerEntry } } {
  const { payload, maxBlocks } = input;
  const attempts = (current?.attempts ?? 0) + 1;
  const blocks = current?.blocks ?? 0;
  const decided = retryDecision(current, {
    failing: input.failing,
    digest: input.digest,
    maxBlocks,
    otherHookHolding: payload.stopHookActive,
    ...(input.giveWay === undefined ? {} : { giveWay: input.giveWay }),
  });
  const digest = decided.kind === "block" ? decided.digest : null;
  const decision: Decision = decided.kind === "block" ? { kind: "block" } : decided;
  const blocked = decision.kind === "block";
  const entry: LedgerEntry = {
    sessionId: payload.sessionId,
    agent: payload.agentId ?? input.agent,
    attempts,
    blocks: blocked ? blocks + 1 : blocks,
    lastProblems: blocked ? digest : (current?.lastProblems ?? null),
    open: blocked,
    updatedAt: isoTimestamp(Date.now()),
  };
  return { entry, result: { decision, entry } };
}

function writeVerdict(
  state: SafeDir,
  name: string,
  input: {
    readonly payload: StopPayload;
    readonly agent: string | undefined;
    readonly command: string | null;
    readonly checked: CheckedReturn;
    readonly entry: LedgerEntry;
    readonly decision: Decision;
  },
): void {
  const { payload, agent, checked, entry, decision } = input;
  const verdict = {
    ok: checked.ok,
    status: checked.status,
    command: input.command,
    agentType: agent ?? null,
    agentId: payload.agentId ?? null,
    sessionId: payload.sessionId,
    task: checked.task,
    origin: checked.origin,
    source: checked.source,
    phantom: checked.phantom,
    errors: checked.problems.map((problem) => problem.message),
    warningCount: checked.warningCount,
    attempts: entry.attempts,
    decision: decision.kind,
    ...(decision.kind === "allow" ? { allowedBecause: decision.because } : {}),
    timestamp: entry.updatedAt,
  };
  writeStateFile(state, ["verdicts", `${name}.json`], `${JSON.stringify(verdict, null, 2)}\n`);
}

/**
 * The verdict's file name in `.returnlint/verdicts/`: `task-N` when the return is a task's
 * metadata file (as `--task` names it: one verdict for `specs/003_x` and "task 3"), else
 * `AGENT_TYPE--AGENT_ID` (a Stop hook: `AGENT--SESSION_ID`).
 */
export function verdictName(input: { readonly agent: string | undefined; readonly agentId: string | undefined; readonly sessionId: string; readonly task: string | null }): string {
  return input.task === null ? safeName(input.agent ?? "main", input.agentId ?? input.sessionId) : safeName(`task-${input.task}`);
}
