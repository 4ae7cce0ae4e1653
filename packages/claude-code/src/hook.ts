import path from "node:path";
import { EXIT, isReturnlintError, type LoadedConfig } from "@returnlint/core";
import { integerOption, parseCommandLine } from "../args.js";
import { loadReturnlintConfig } from "../host.js";
import { BUILT_IN_AGENTS, checkReturn, commandForAgent, locateReturn, reaskLines, type CheckedReturn, type Problem } from "@returnlint/api";
import { parsePayload, type StopPayload } from "../hook/payload.js";
import { prepareStateDir, safeName, STATE_DIR, updateLedger, writeStateFile, type LedgerEntry } from "../hook/state.js";
import { readStdinOf, type CommandIo } from "./io.js";

export const HOOK_HELP = `Usage: returnlint hook claude [options]

A Claude Code SubagentStop or Stop command hook (Codex sends the same payload).
Reads the hook's JSON payload on standard input, finds the subagent's return
(its last message, or the specs/N_*/.return-meta.json it names), and validates it.

  pass        prints nothing: the subagent stops
  fail        prints {"decision":"block","reason":…}: the subagent is sent back
              with the list of problems, e.g. the artifact that does not exist

It lets the stop through when another stop hook is already holding the agent
(stop_hook_active), after --max-blocks blocks, or when the same problems would
be sent twice; the failure is then recorded in the verdict file.
Every validated return leaves a verdict in .returnlint/verdicts/ (task-N.json
when the return is a task's metadata file, else AGENT_TYPE--AGENT_ID.json, for
a Stop hook AGENT--SESSION_ID.json) for the orchestrator's postflight to gate on.
A broken payload or configuration never blocks unless --fail-closed: it is
reported on standard error, the hook exits 0, and a broken configuration's
verdict says "config-error".

Options:
  --agent NAME         the agent's name when the payload has none (a Stop hook)
  --command NAME       the command whose rules apply (default: the config's
                       "agents" map, else research/plan/revise/implement in the name)
  --config FILE        use FILE instead of looking for returnlint.config.* from cwd
  --max-blocks N       block at most N times per subagent (default 3)
  --fail-closed        exit 2 on a broken payload or configuration (the host then
                       keeps the agent working and shows it the error); bounded
                       like blocks: once per problem, at most --max-blocks times
  -h, --help           show this help

Agents that map to no command, and the hosts' own agents (Plan, Explore,
general-purpose, …) unless the config's "agents" map names them, are not checked.
`;

const OPTIONS = {
  agent: { type: "string" },
  command: { type: "string", short: "c" },
  config: { type: "string" },
  "max-blocks": { type: "string" },
  "fail-closed": { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

const DEFAULT_MAX_BLOCKS = 3;
const HOSTS = ["claude"];

/** Why the hook let a failing return through. */
type AllowedBecause = "max-blocks" | "repeated-feedback" | "stop-hook-active" | NotValidated;
/** Why a return could not be validated: the config is broken, or a rule crashed. */
type NotValidated = "config-error" | "internal-error";
type Decision = { readonly kind: "pass" } | { readonly kind: "block" } | { readonly kind: "allow"; readonly because: AllowedBecause };

export async function hook(argv: readonly string[], io: CommandIo): Promise<number> {
  // Decided before anything can fail: a broken hook must not block the host by accident.
  const failClosed = argv.includes("--fail-closed");
  try {
    return await runHook(argv, io);
  } catch (error) {
    return giveWay(io, failClosed, describeFailure(error));
  }
}

async function runHook(argv: readonly string[], io: CommandIo): Promise<number> {
  const { values, positionals } = parseCommandLine("hook", argv, OPTIONS);
  if (values.help === true) {
    io.stdout(HOOK_HELP);
    return EXIT.passed;
  }
  const failClosed = values["fail-closed"] === true;
  const [host, ...extra] = positionals;
  if (host === undefined || !HOSTS.includes(host) || extra.length > 0) {
    return giveWay(io, failClosed, `usage: returnlint hook claude [options]; received "${positionals.join(" ")}". Run "returnlint hook --help".`);
  }
  const maxBlocks = integerOption("max-blocks", values["max-blocks"]) ?? DEFAULT_MAX_BLOCKS;

  const outcome = parsePayload((await readStdinOf(io)).text);
  if (!outcome.ok) return giveWay(io, failClosed, `ignoring a broken hook payload: ${outcome.reason}`);
  const payload = outcome.payload;
  const root = path.resolve(io.cwd, payload.cwd);
  const agent = values.agent ?? payload.agentType;
  const attempt = { payload, root, agent, command: values.command ?? null, failClosed, maxBlocks };

  let config: LoadedConfig;
  try {
    config = await loadReturnlintConfig({
      cwd: root,
      ...(values.config === undefined ? {} : { configFile: path.resolve(io.cwd, values.config) }),
    });
  } catch (error) {
    if (!isReturnlintError(error)) throw error;
    // Without a config, only the name rule says which agents this hook is for: a host's own
    // agents (Explore, Plan, …) and a Stop hook that names none are never held up by it.
    if (values.command === undefined && (agent === undefined || BUILT_IN_AGENTS.has(agent))) return giveWay(io, false, describeFailure(error), !failClosed);
    return await cannotValidate(io, attempt, describeFailure(error), "config-error");
  }
  const command = values.command ?? commandForAgent(config, agent);
  // An agent returnlint knows nothing about (Explore, general-purpose, …) returns prose by design.
  if (command === null) return EXIT.passed;
  if (payload.lastAssistantMessage === undefined) {
    return giveWay(io, failClosed, `ignoring a hook payload without "last_assistant_message" (${payload.event} of ${agent ?? "the main agent"}): this Claude Code version does not send the agent's final message`);
  }

  const located = locateReturn({ message: payload.lastAssistantMessage, root, command, config });
  const checked = await checkReturn(located, {
    root,
    command,
    config,
    ...(agent === undefined ? {} : { agent }),
    ...(payload.transcriptPath === undefined ? {} : { transcriptPath: payload.transcriptPath }),
  });
  if (checked.internalError) {
    return await cannotValidate(io, { ...attempt, command }, `a rule crashed while checking the return of ${agent ?? "the main agent"}`, "internal-error");
  }
  const { decision, entry } = await record({ ...attempt, command }, checked, () => digestOf(checked.problems));
  if (decision.kind === "block") {
    io.stdout(`${JSON.stringify({ decision: "block", reason: reasonText(checked, { command, attempt: entry.attempts }) })}\n`);
  }
  return EXIT.passed;
}

interface Attempt {
  readonly payload: StopPayload;
  readonly root: string;
  readonly agent: string | undefined;
  readonly command: string | null;
  readonly failClosed: boolean;
  readonly maxBlocks: number;
}

/** Counts the attempt in the ledger, decides, and leaves the verdict for postflight. */
async function record(attempt: Attempt, checked: CheckedReturn, digest: () => string, notValidated?: NotValidated): Promise<{ decision: Decision; entry: LedgerEntry }> {
  const { payload, root, agent, maxBlocks } = attempt;
  const stateDir = path.join(root, STATE_DIR);
  prepareStateDir(stateDir);
  const result = await updateLedger(stateDir, safeName(payload.sessionId, payload.agentId ?? agent ?? "main"), (current) =>
    decide(current, { payload, agent: agent ?? "main", failing: !checked.ok, digest, maxBlocks, ...(notValidated !== undefined && !attempt.failClosed ? { giveWay: notValidated } : {}) }),
  );
  writeVerdict(stateDir, { payload, agent, command: attempt.command, checked, ...result });
  return result;
}

/**
 * The return could not be validated (a broken config, a rule that crashed). The stop goes
 * through, unless --fail-closed: then the hook exits 2 (the host keeps the agent working and
 * shows it the message), bounded by the same ledger as blocks, so that a problem the agent
 * cannot fix does not re-run it until the host's own limit.
 */
async function cannotValidate(io: CommandIo, attempt: Attempt, message: string, because: NotValidated): Promise<number> {
  const checked: CheckedReturn = {
    ok: false,
    status: null,
    origin: "none",
    source: "none",
    task: null,
    problems: [{ message, reask: message }],
    warningCount: 0,
    internalError: true,
  };
  const { decision } = await record(attempt, checked, () => digestOf(checked.problems), because);
  if (decision.kind !== "block") {
    const why = attempt.failClosed && decision.kind === "allow" ? ` (--fail-closed gave way: ${decision.because})` : "";
    return giveWay(io, false, `${message}${why}; the verdict in ${STATE_DIR}/verdicts/ records it`, !attempt.failClosed);
  }
  io.stderr(`returnlint hook: ${message}\n`);
  return EXIT.error;
}

function describeFailure(error: unknown): string {
  return isReturnlintError(error) ? [error.message, ...error.problems].join("\n  - ") : error instanceof Error ? error.message : String(error);
}

/** Lets the stop through, says why on standard error; `--fail-closed` makes it exit 2 (the host's "blocking error"). */
function giveWay(io: CommandIo, failClosed: boolean, message: string, hint = true): number {
  io.stderr(`returnlint hook: ${message}${failClosed || !hint ? "" : " (the stop goes through; --fail-closed blocks instead)"}\n`);
  return failClosed ? EXIT.error : EXIT.passed;
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
  const { payload, failing, maxBlocks } = input;
  const attempts = (current?.attempts ?? 0) + 1;
  const blocks = current?.blocks ?? 0;
  let digest: string | null = null;
  let decision: Decision;
  if (!failing) decision = { kind: "pass" };
  else if (input.giveWay !== undefined) decision = { kind: "allow", because: input.giveWay };
  // Another stop hook is holding this agent: do not stack a second loop on it. Our own loop is bounded below.
  else if (payload.stopHookActive && blocks === 0) decision = { kind: "allow", because: "stop-hook-active" };
  else if (blocks >= maxBlocks) decision = { kind: "allow", because: "max-blocks" };
  else {
    // Hashed only here, where it decides.
    digest = input.digest();
    decision = current?.lastProblems === digest ? { kind: "allow", because: "repeated-feedback" } : { kind: "block" };
  }
  const blocked = decision.kind === "block";
  const entry: LedgerEntry = {
    sessionId: payload.sessionId,
    agent: payload.agentId ?? input.agent,
    attempts,
    blocks: blocked ? blocks + 1 : blocks,
    lastProblems: blocked ? digest : (current?.lastProblems ?? null),
    open: blocked,
    updatedAt: new Date().toISOString(),
  };
  return { entry, result: { decision, entry } };
}

function writeVerdict(
  stateDir: string,
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
  const name = verdictName({ agent, agentId: payload.agentId, sessionId: payload.sessionId, task: checked.task });
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
    errors: checked.problems.map((problem) => problem.message),
    warningCount: checked.warningCount,
    attempts: entry.attempts,
    decision: decision.kind,
    ...(decision.kind === "allow" ? { allowedBecause: decision.because } : {}),
    timestamp: entry.updatedAt,
  };
  writeStateFile(stateDir, ["verdicts", `${name}.json`], `${JSON.stringify(verdict, null, 2)}\n`);
}

/**
 * The verdict's file name in `.returnlint/verdicts/`: `task-N` when the return is a task's
 * metadata file, else `AGENT_TYPE--AGENT_ID` (a Stop hook: `AGENT--SESSION_ID`).
 */
export function verdictName(input: { readonly agent: string | undefined; readonly agentId: string | undefined; readonly sessionId: string; readonly task: string | null }): string {
  return input.task === null ? safeName(input.agent ?? "main", input.agentId ?? input.sessionId) : safeName(`task-${input.task}`);
}

/** The feedback without the attempt counter, so that the same problems compare equal. */
function digestOf(problems: readonly Problem[]): string {
  const text = problems.map((problem) => [problem.message, problem.detail ?? "", problem.recommendation ?? ""].join("\n")).join("\n\n");
  return process.getBuiltinModule("node:crypto").createHash("sha256").update(text).digest("hex").slice(0, 32);
}

/** What the subagent reads: each problem addressed to it (`--format reask`'s lines, which never give away the expected session id), and what to do. */
function reasonText(checked: CheckedReturn, context: { readonly command: string; readonly attempt: number }): string {
  const where = checked.origin === "file" ? `Your return in ${checked.source}` : "Your final message's return";
  const count = checked.problems.length;
  const lines = [
    `returnlint: ${where} failed validation for /${context.command} (${String(count)} ${count === 1 ? "problem" : "problems"}, attempt ${String(context.attempt)}):`,
  ];
  lines.push(...reaskLines(checked.problems));
  lines.push(
    checked.origin === "file"
      ? `Do the missing work or correct the metadata file so that it only claims what exists, then finish again.`
      : `Do the missing work or correct the return so that it only claims what exists, then finish again with the corrected JSON return as your final message.`,
  );
  return lines.join("\n");
}
