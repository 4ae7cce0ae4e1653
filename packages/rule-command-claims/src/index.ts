import { CLAIMS_TRANSCRIPT_BYTES, claimsFacts, MAX_TRANSCRIPT_BYTES_OPTION, claimedValues, defineRule, docsUrl, isObject, isSuccessLike, lastOutputLine, type CommandFact } from "@returnlint/core";

interface Options {
  maxTranscriptBytes: number;
}

/**
 * Where returns say which commands they ran, besides a contract's `"x-returnlint": "command"`:
 * the names real envelopes use (see the README for where each was seen). An entry is the
 * command itself, or an object with the command in `command` or `cmd`.
 */
const KNOWN_PLACES = ["/commands_run/*", "/commands_executed/*", "/verification/commands/*", "/verification/commands_run/*"];

/** What an entry says of its own outcome: an exit code, or a status word. */
const FAILURE_WORDS = new Set(["failed", "failure", "error", "errored", "fail"]);

interface Claimed {
  readonly command: string;
  readonly pointer: string;
  /** The entry itself says the command failed (a non-zero exit_code, a failed status): no claim of success. */
  readonly admitsFailure: boolean;
}

function claimedCommand(value: unknown, pointer: string): Claimed | undefined {
  if (typeof value === "string") return value.trim() === "" ? undefined : { command: value.trim(), pointer, admitsFailure: false };
  if (!isObject(value)) return undefined;
  const command = typeof value.command === "string" ? value.command : typeof value.cmd === "string" ? value.cmd : undefined;
  if (command === undefined || command.trim() === "") return undefined;
  const exit = value.exit_code ?? value.exitCode;
  const status = typeof value.status === "string" ? value.status : typeof value.result === "string" ? value.result : "";
  return { command: command.trim(), pointer: `${pointer}/${typeof value.command === "string" ? "command" : "cmd"}`, admitsFailure: (typeof exit === "number" && exit !== 0) || FAILURE_WORDS.has(status.toLowerCase()) };
}

const squeezed = (command: string): string => command.replace(/\s+/g, " ").trim();

/** The last run of a claimed command: the same command, or one that runs it as a step (`cd app && pnpm test`). */
function lastRunOf(claimed: string, commands: readonly CommandFact[]): CommandFact | undefined {
  const wanted = squeezed(claimed);
  return commands.findLast((ran) => {
    const command = squeezed(ran.command);
    return command === wanted || command.split(/\s*(?:&&|\|\||;)\s*/).some((step) => step === wanted || step.startsWith(`${wanted} `));
  });
}

/** Issue 35: a command the return says it ran is in the transcript, and exited 0 when the return says it succeeded. */
export default defineRule<Options>(docsUrl)({
  id: "command-claims",
  meta: {
    description: "Each command the return says it ran is in the run's transcript, and exited 0 when the return says it succeeded.",
    schema: {
      type: "object",
      additionalProperties: false,
      properties: {
        maxTranscriptBytes: MAX_TRANSCRIPT_BYTES_OPTION,
      },
      required: ["maxTranscriptBytes"],
    },
    defaultOptions: { maxTranscriptBytes: CLAIMS_TRANSCRIPT_BYTES },
    messages: {
      noTranscript: {
        text: "Command claims not checked: no transcript of the run",
        detail: "Note: {count} command(s) claimed; pass --transcript FILE (the hooks pass the host's own) to check them",
      },
      transcriptUnreadable: {
        text: "Command claims not checked: {reason}",
        detail: "Warning: the claimed commands are taken on trust",
        recommendation: "Pass the subagent's own transcript (Claude Code's agent_transcript_path, Codex's rollout, Copilot CLI's events.jsonl)",
      },
      transcriptTruncated: { text: "Transcript read up to {maxBytes} bytes of {file}", detail: "Note: commands run after that point are not seen; raise maxTranscriptBytes" },
      ran: { text: "Command ran: {command}", detail: "Transcript line {line}: exit code {exitCode}" },
      notRun: {
        text: "Command claimed but never run: {command}",
        detail: "Error: no shell command in {file} runs it ({count} command(s) ran{ranList})",
        recommendation: "Verify {agent} runs the commands it reports, and reports only those",
        reask: "you say you ran `{command}`, but your transcript shows no such command; run it, or remove it from the commands you report",
      },
      failed: {
        text: "Command claimed to succeed exited {exitCode}: {command}",
        detail: "Transcript line {line}: `{ran}` exited {exitCode}\nOutput ends: {lastLine}\nError: a command that ran is not a command that passed",
        recommendation: "Verify {agent} reads the exit codes of the commands it reports as done",
        reask: "`{command}` exited {exitCode} (transcript line {line}: {lastLine}); fix what failed and run it again, or report it as failed",
      },
      exitUnknown: {
        text: "Command ran, its exit code is not recorded: {command}",
        detail: "Transcript line {line}: the call has no result in the transcript (it never finished, or the transcript ends before it)",
      },
    },
  },
  check(context) {
    const { value, claims } = context;
    const claimed = claimedValues(value, [...claims.map.commands, ...KNOWN_PLACES]).flatMap(({ pointer, value: entry }) => claimedCommand(entry, pointer) ?? []);
    if (claimed.length === 0) return;
    const facts = claimsFacts(context, claimed.length);
    if (facts === undefined) return;
    // A return that says its work failed does not claim its commands succeeded; that they ran, it still does.
    const claimsSuccess = claims.counted ?? (claims.status === null || isSuccessLike(claims.status));
    const ranList = facts.commands.length === 0 ? "" : `: ${facts.commands.slice(-5).map((ran) => `line ${String(ran.line)} \`${squeezed(ran.command).slice(0, 80)}\``).join(", ")}`;
    for (const { command, pointer, admitsFailure } of claimed) {
      const ran = lastRunOf(command, facts.commands);
      if (ran === undefined) {
        context.report({ messageId: "notRun", data: { command, file: facts.file, count: facts.commands.length, ranList }, pointer });
      } else if (ran.exitCode === undefined) {
        context.info({ messageId: "exitUnknown", data: { command, line: ran.line } });
      } else if (ran.exitCode !== 0 && claimsSuccess && !admitsFailure) {
        context.report({ messageId: "failed", data: { command, ran: squeezed(ran.command).slice(0, 200), line: ran.line, exitCode: ran.exitCode, lastLine: lastOutputLine(ran) || "(no output)" }, pointer });
      } else {
        context.pass({ messageId: "ran", data: { command, line: ran.line, exitCode: ran.exitCode } });
      }
    }
  },
});
