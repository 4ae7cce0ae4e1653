import path from "node:path";
import { isReturnlintError } from "@returnlint/core";
import { integerOption, parseCommandLine } from "../args.js";
import { loadReturnlintConfig } from "../api.js";
import { checkReturn, commandForAgent, locateReturn, problemLines, type CheckedReturn, type Problem } from "../hook/subagent.js";
import { parsePayload, type StopPayload } from "../hook/payload.js";
import { prepareStateDir, safeName, STATE_DIR, updateLedger, writeStateFile, type LedgerEntry } from "../hook/state.js";
import { readStdin } from "../input.js";
import type { CommandIo } from "./io.js";

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
when the task is known, else AGENT_TYPE--AGENT_ID.json) for the orchestrator's
postflight to gate on. A broken payload or configuration never blocks: it is
reported on standard error and the hook exits 0.

Options:
  --agent NAME         the agent's name when the payload has none (a Stop hook)
  --command NAME       the command whose rules apply (default: the config's
                       "agents" map, else research/plan/revise/implement in the name)
  --config FILE        use FILE instead of looking for returnlint.config.* from cwd
  --max-blocks N       block at most N times per subagent (default 3)
  --fail-closed        exit 2 on a broken payload or configuration (the host then
                       keeps the agent working and shows it the error)
  -h, --help           show this help

Agents that map to no command are not checked.
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
type AllowedBecause = "max-blocks" | "repeated-feedback" | "stop-hook-active" | "internal-error";
type Decision = { readonly kind: "pass" } | { readonly kind: "block" } | { readonly kind: "allow"; readonly because: AllowedBecause };

export async function hook(argv: readonly string[], io: CommandIo): Promise<number> {
  // Decided before anything can fail: a broken hook must not block the host by accident.
  const failClosed = argv.includes("--fail-closed");
  try {
    return await runHook(argv, io);
  } catch (error) {
    const message = isReturnlintError(error) ? [error.message, ...error.problems].join("\n  - ") : error instanceof Error ? error.message : String(error);
    return giveWay(io, failClosed, message);
  }
}

async function runHook(argv: readonly string[], io: CommandIo): Promise<number> {
  const { values, positionals } = parseCommandLine("hook", argv, OPTIONS);
  if (values.help === true) {
    io.stdout(HOOK_HELP);
    return 0;
  }
  const failClosed = values["fail-closed"] === true;
  const [host, ...extra] = positionals;
  if (host === undefined || !HOSTS.includes(host) || extra.length > 0) {
    return giveWay(io, failClosed, `usage: returnlint hook claude [options]; received "${positionals.join(" ")}". Run "returnlint hook --help".`);
  }
  const maxBlocks = integerOption("max-blocks", values["max-blocks"]) ?? DEFAULT_MAX_BLOCKS;

  const outcome = parsePayload((await readStdin(io.stdin)).text);
  if (!outcome.ok) return giveWay(io, failClosed, `ignoring a broken hook payload: ${outcome.reason}`);
  const payload = outcome.payload;
  const root = path.resolve(io.cwd, payload.cwd);
  const agent = values.agent ?? payload.agentType;

  const config = await loadReturnlintConfig({
    cwd: root,
    ...(values.config === undefined ? {} : { configFile: path.resolve(io.cwd, values.config) }),
  });
  const command = values.command ?? commandForAgent(config, agent);
  // An agent returnlint knows nothing about (Explore, general-purpose, …) returns prose by design.
  if (command === null) return 0;
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
  const stateDir = path.join(root, STATE_DIR);
  prepareStateDir(stateDir);
  const digest = digestOf(checked.problems);
  const { decision, entry } = await updateLedger(stateDir, safeName(payload.sessionId, payload.agentId ?? agent ?? "main"), (current) =>
    decide(current, { payload, agent: agent ?? "main", checked, digest, maxBlocks }),
  );
  writeVerdict(stateDir, { payload, agent, command, checked, entry, decision });

  if (decision.kind === "allow" && decision.because === "internal-error") {
    return giveWay(io, failClosed, `a rule crashed while checking the return of ${agent ?? "the main agent"}; the verdict in ${STATE_DIR}/verdicts/ records it`);
  }
  if (decision.kind === "block") {
    io.stdout(`${JSON.stringify({ decision: "block", reason: reasonText(checked, { command, attempt: entry.attempts }) })}\n`);
  }
  return 0;
}

/** Lets the stop through, says why on standard error; `--fail-closed` makes it exit 2 (the host's "blocking error"). */
function giveWay(io: CommandIo, failClosed: boolean, message: string): number {
  io.stderr(`returnlint hook: ${message}${failClosed ? "" : " (the stop goes through; --fail-closed blocks instead)"}\n`);
  return failClosed ? 2 : 0;
}

function decide(
  current: LedgerEntry | undefined,
  input: { readonly payload: StopPayload; readonly agent: string; readonly checked: CheckedReturn; readonly digest: string; readonly maxBlocks: number },
): { entry: LedgerEntry; result: { decision: Decision; entry: LedgerEntry } } {
  const { payload, checked, digest, maxBlocks } = input;
  const attempts = (current?.attempts ?? 0) + 1;
  const blocks = current?.blocks ?? 0;
  const decision: Decision = checked.ok
    ? { kind: "pass" }
    : checked.internalError
      ? { kind: "allow", because: "internal-error" }
      : // Another stop hook is holding this agent: do not stack a second loop on it. Our own loop is bounded below.
        payload.stopHookActive && blocks === 0
        ? { kind: "allow", because: "stop-hook-active" }
        : blocks >= maxBlocks
          ? { kind: "allow", because: "max-blocks" }
          : current?.lastProblems === digest
            ? { kind: "allow", because: "repeated-feedback" }
            : { kind: "block" };
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
    readonly command: string;
    readonly checked: CheckedReturn;
    readonly entry: LedgerEntry;
    readonly decision: Decision;
  },
): void {
  const { payload, agent, checked, entry, decision } = input;
  const name = checked.task === null ? safeName(agent ?? "main", payload.agentId ?? payload.sessionId) : safeName(`task-${checked.task}`);
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

/** The feedback without the attempt counter, so that the same problems compare equal. */
function digestOf(problems: readonly Problem[]): string {
  const text = problems.map((problem) => [problem.message, problem.detail ?? "", problem.recommendation ?? ""].join("\n")).join("\n\n");
  return process.getBuiltinModule("node:crypto").createHash("sha256").update(text).digest("hex").slice(0, 32);
}

/** What the subagent reads: each problem with the seeds' Error/Recommendation lines, and what to do. */
function reasonText(checked: CheckedReturn, context: { readonly command: string; readonly attempt: number }): string {
  const where = checked.origin === "file" ? `Your return in ${checked.source}` : "Your final message's return";
  const count = checked.problems.length;
  const lines = [
    `returnlint: ${where} failed validation for /${context.command} (${String(count)} ${count === 1 ? "problem" : "problems"}, attempt ${String(context.attempt)}):`,
  ];
  lines.push(...problemLines(checked.problems));
  lines.push(
    checked.origin === "file"
      ? `Do the missing work or correct the metadata file so that it only claims what exists, then finish again.`
      : `Do the missing work or correct the return so that it only claims what exists, then finish again with the corrected JSON return as your final message.`,
  );
  return lines.join("\n");
}
