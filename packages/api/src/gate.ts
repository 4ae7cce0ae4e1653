import path from "node:path";
import type { Importer, LoadedConfig } from "@returnlint/core";
import { blockReason, problemsDigest, type BlockReader } from "./block-reason.js";
import { knownCommand } from "./commands.js";
import type { ReportObject } from "./report-object.js";
import { DEFAULT_MAX_BLOCKS, retryDecision, type AllowedBecause, type NotValidated, type RetryRecord } from "./retries.js";
import { checkReturn, commandForAgent, returnOfMessage, type CheckedReturn, type Problem } from "./subagent.js";
import { loadReturnlintConfig } from "./validate.js";

// The stop hooks' verdict for programs that delegate to subagents in-process (the framework
// adapters: @returnlint/claude-agent-sdk, @returnlint/openai-agents, @returnlint/ai-sdk,
// @returnlint/mastra): the same return found the same way, the same rules, the same reask, the
// same bounded retries, kept in memory instead of the hooks' ledger on disk.

export interface ReturnGateOptions {
  /** The project: artifact paths and the config are relative to it (default: the process's working directory). */
  readonly cwd?: string;
  /** A config file, instead of looking for returnlint.config.* from `cwd` as the CLI does. */
  readonly configFile?: string;
  /** The command whose rules apply to every subagent (default: the config's `agents` map, else the command in the agent's name). */
  readonly command?: string;
  /** Sends a subagent back at most this many times per run (default 3, as the hooks). */
  readonly maxBlocks?: number;
  /** Called with every verdict, before the framework acts on it: the orchestrator's own decision. */
  readonly onVerdict?: (verdict: GateVerdict) => void | Promise<void>;
  /** Imports a config file and the modules it names; Node's `import()` when absent. */
  readonly importer?: Importer;
}

/** A subagent's return as a framework hands it over. */
export interface SubagentReturn {
  /** The subagent's name: it says which command's rules apply. */
  readonly agent: string | undefined;
  /** Its final message (or the output the framework hands the parent). */
  readonly message: string;
  /** What its attempts are counted under until one passes: the framework's id for this subagent's run, or its name. */
  readonly run: string;
  /** Who reads the reason when the return is refused: the subagent, continued, or the parent, given the reason in place of the return. */
  readonly reader: BlockReader;
  /** The subagent's transcript (Claude Code's JSONL), the artifact-evidence rule's proof of work. */
  readonly transcriptPath?: string;
}

/**
 * The verdict on one return: `pass` (it passed), `block` (refused: `reason` goes to `reader`),
 * `allow` (it fails, and goes through all the same: `allowedBecause`), `skip` (an agent
 * returnlint knows nothing about: a host's built-in one, a name that maps to no command).
 */
export interface GateVerdict {
  readonly decision: "pass" | "block" | "allow" | "skip";
  readonly allowedBecause?: AllowedBecause;
  readonly agent: string | undefined;
  readonly command: string | null;
  /** This run's attempts so far, this one included. */
  readonly attempt: number;
  readonly reader: BlockReader;
  /** What the reader gets instead of the return, when it is refused. */
  readonly reason?: string;
  /** The report object (`check --format json`'s), when the return was checked. */
  readonly report?: ReportObject;
  readonly problems: readonly Problem[];
  /** Why the return could not be checked (a broken config, a rule that crashed). */
  readonly error?: string;
}

export interface ReturnGate {
  /** Checks a subagent's return and decides; the verdict goes to `onVerdict` first. */
  check(stop: SubagentReturn): Promise<GateVerdict>;
}

interface RunRecord extends RetryRecord {
  readonly attempts: number;
}

/** A gate for one orchestrator: its config is found and loaded once, its runs' attempts are counted in memory. */
export function createReturnGate(options: ReturnGateOptions = {}): ReturnGate {
  const root = path.resolve(options.cwd ?? process.cwd());
  const maxBlocks = options.maxBlocks ?? DEFAULT_MAX_BLOCKS;
  const runs = new Map<string, RunRecord>();
  let config: Promise<LoadedConfig> | undefined;
  const loaded = () =>
    (config ??= loadReturnlintConfig({
      cwd: root,
      ...(options.configFile === undefined ? {} : { configFile: path.resolve(root, options.configFile) }),
      ...(options.importer === undefined ? {} : { importer: options.importer }),
    }));

  const decided = async (stop: SubagentReturn, command: string | null, checked: CheckedReturn | undefined, failure?: { readonly because: NotValidated; readonly error: string }): Promise<GateVerdict> => {
    const previous = runs.get(stop.run);
    const attempt = (previous?.attempts ?? 0) + 1;
    const problems = checked?.problems ?? [];
    const decision = retryDecision(previous, {
      failing: checked?.ok !== true,
      digest: () => problemsDigest(problems),
      maxBlocks,
      ...(failure === undefined ? {} : { giveWay: failure.because }),
    });
    if (decision.kind === "block") runs.set(stop.run, { attempts: attempt, blocks: (previous?.blocks ?? 0) + 1, lastProblems: decision.digest });
    else runs.delete(stop.run);
    const verdict: GateVerdict = {
      decision: decision.kind,
      ...(decision.kind === "allow" ? { allowedBecause: decision.because } : {}),
      agent: stop.agent,
      command,
      attempt,
      reader: stop.reader,
      ...(decision.kind === "block" && checked !== undefined && command !== null
        ? { reason: blockReason(checked, { command, attempt, reader: stop.reader, agent: stop.agent, returned: stop.message }) }
        : {}),
      ...(checked?.report === undefined ? {} : { report: checked.report }),
      problems,
      ...(failure === undefined ? {} : { error: failure.error }),
    };
    await options.onVerdict?.(verdict);
    return verdict;
  };

  return {
    async check(stop) {
      let command: string | null = null;
      let checked: CheckedReturn;
      try {
        const current = await loaded();
        command = options.command === undefined ? commandForAgent(current, stop.agent) : knownCommand(current, options.command);
        if (command === null) {
          const skipped: GateVerdict = { decision: "skip", agent: stop.agent, command, attempt: 1, reader: stop.reader, problems: [] };
          await options.onVerdict?.(skipped);
          return skipped;
        }
        const source = returnOfMessage({ message: stop.message, root, command, config: current });
        checked = await checkReturn(source, {
          root,
          command,
          config: current,
          ...(stop.agent === undefined ? {} : { agent: stop.agent }),
          ...(stop.transcriptPath === undefined ? {} : { transcriptPath: stop.transcriptPath }),
        });
      } catch (error) {
        // A return that could not be judged goes through, said in the verdict, as the hooks let a stop through.
        const because = command === null ? "config-error" : "internal-error";
        return await decided(stop, command, undefined, { because, error: error instanceof Error ? error.message : String(error) });
      }
      if (checked.internalError) return await decided(stop, command, checked, { because: "internal-error", error: `a rule crashed while checking the return of ${stop.agent ?? "the subagent"}` });
      return await decided(stop, command, checked);
    },
  };
}
