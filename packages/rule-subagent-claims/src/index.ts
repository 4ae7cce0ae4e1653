import { CLAIMS_TRANSCRIPT_BYTES, claimsFacts, MAX_TRANSCRIPT_BYTES_OPTION, claimedValues, defineRule, docsUrl, isObject } from "@returnlint/core";

interface Options {
  maxTranscriptBytes: number;
}

/**
 * Where a return reports on the subagents it delegated to (the README names where each was
 * seen): a name, or an object naming the agent in `agent`, `agent_type`, `subagent_type` or `name`.
 */
const KNOWN_PLACES = ["/delegated_to", "/subagents/*", "/subagent_results/*", "/delegations/*", "/metadata/subagents/*"];
const NAME_FIELDS = ["agent", "agent_type", "subagent_type", "name"] as const;
/** An entry that itself says its subagent never came back makes no claim that it did. */
const NOT_RETURNED_WORDS = new Set(["failed", "timeout", "timed_out", "not_returned", "no_return", "running", "pending", "blocked"]);

interface Reported {
  readonly agent: string;
  readonly pointer: string;
  readonly admitsNoReturn: boolean;
}

function reportedSubagent(value: unknown, pointer: string): Reported | undefined {
  if (typeof value === "string") return value.trim() === "" ? undefined : { agent: value.trim(), pointer, admitsNoReturn: false };
  if (!isObject(value)) return undefined;
  const field = NAME_FIELDS.find((name) => typeof value[name] === "string" && value[name] !== "");
  if (field === undefined) return undefined;
  const status = typeof value.status === "string" ? value.status.toLowerCase() : "";
  return { agent: String(value[field]).trim(), pointer: `${pointer}/${field}`, admitsNoReturn: NOT_RETURNED_WORDS.has(status) };
}

/** Issue 35: each nested subagent the return reports on was called in this run and returned. */
export default defineRule<Options>(docsUrl)({
  id: "subagent-claims",
  meta: {
    description: "Each nested subagent the return reports on was called in this run and returned: its results are not presented as fact when it never came back.",
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
      noTranscript: { text: "Subagent claims not checked: no transcript of the run", detail: "Note: {count} subagent(s) reported on; pass --transcript FILE (the hooks pass the host's own) to check them" },
      transcriptUnreadable: {
        text: "Subagent claims not checked: {reason}",
        detail: "Warning: the subagents' results are taken on trust",
        recommendation: "Pass the delegating agent's own transcript (Claude Code's agent_transcript_path, Codex's rollout, Copilot CLI's events.jsonl)",
      },
      transcriptTruncated: { text: "Transcript read up to {maxBytes} bytes of {file}", detail: "Note: calls after that point are not seen; raise maxTranscriptBytes" },
      returned: { text: "Subagent called and returned: {nested}", detail: "Transcript line {line}: called; line {returnLine}: returned" },
      notCalled: {
        text: "Subagent reported on, but never called: {nested}",
        detail: "Error: no subagent call in {file} names {nested}{calledList}",
        recommendation: "Verify {subagent} reports only on subagents it delegated to in this run",
        reask: "you report on {nested}, but your transcript shows no call of it; delegate to it, or stop reporting its results",
      },
      notReturned: {
        text: "Subagent reported on, but it never returned: {nested}",
        detail: "Transcript line {line}: {nested} was called; no result of that call is in {file}\nError: its results are presented as fact, and it never came back",
        recommendation: "Verify {subagent} waits for each subagent's return before it reports its results",
        reask: "{nested} was called (transcript line {line}) but never returned; wait for its return, or report that it did not return",
      },
    },
  },
  check(context) {
    const { value } = context;
    const reported = claimedValues(value, KNOWN_PLACES).flatMap(({ pointer, value: entry }) => reportedSubagent(entry, pointer) ?? []);
    if (reported.length === 0) return;
    const facts = claimsFacts(context, reported.length);
    if (facts === undefined) return;
    const calledList = facts.subagents.length === 0 ? " (it called none)" : ` (it called ${[...new Set(facts.subagents.map((call) => call.agent))].join(", ")})`;
    for (const { agent, pointer, admitsNoReturn } of reported) {
      const calls = facts.subagents.filter((call) => call.agent === agent);
      const back = calls.find((call) => call.returned);
      if (calls.length === 0) context.report({ messageId: "notCalled", data: { nested: agent, file: facts.file, calledList }, pointer });
      else if (back !== undefined) context.pass({ messageId: "returned", data: { nested: agent, line: back.line, returnLine: back.returnLine ?? back.line } });
      else if (!admitsNoReturn) context.report({ messageId: "notReturned", data: { nested: agent, line: calls[0]?.line ?? 0, file: facts.file }, pointer });
    }
  },
});
