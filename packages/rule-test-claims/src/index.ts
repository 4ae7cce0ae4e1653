import { CLAIMS_TRANSCRIPT_BYTES, claimsFacts, MAX_TRANSCRIPT_BYTES_OPTION, claimedValues, defineRule, docsUrl, isSuccessLike, valueAt, type TestRunFact } from "@returnlint/core";

interface Options {
  maxTranscriptBytes: number;
  /** How a summary's words ("all tests pass") are weighed: a warning by default, or not read. */
  summaryWords: "warn" | "off";
}

/**
 * Where returns say their tests or their build passed, besides a contract's
 * `"x-returnlint": "test"` (the README names where each was seen). `build` claims are weighed
 * against the last build (lake build), `test` claims against the last test run of any other runner.
 */
const KNOWN_PLACES: readonly { readonly pointer: string; readonly kind: "test" | "build" }[] = [
  { pointer: "/tests_passed", kind: "test" },
  { pointer: "/verification/tests_passed", kind: "test" },
  { pointer: "/verification/build_passed", kind: "build" },
  { pointer: "/verification/lake_build_passed", kind: "build" },
  { pointer: "/verification/lake_build", kind: "build" },
  { pointer: "/metadata/build_verified", kind: "build" },
  { pointer: "/metadata/build_status", kind: "build" },
  { pointer: "/metadata/lake_build", kind: "build" },
  { pointer: "/metadata/lake_build_status", kind: "build" },
];
const BUILD_RUNNERS = new Set(["lake build"]);

/** What says "passed" in a claim: true, or a word of success. */
const PASS_WORDS = new Set(["pass", "passed", "passing", "success", "successful", "succeeded", "green", "ok"]);
const saysPassed = (value: unknown): boolean => value === true || (typeof value === "string" && PASS_WORDS.has(value.trim().toLowerCase()));

/** A summary that says the tests pass, in words. */
const PASS_PHRASE = /\b(?:all (?:the )?tests (?:now )?(?:pass(?:ed|ing)?|are (?:passing|green)|green)|tests (?:are )?(?:all )?(?:passing|green)|tests pass(?:ed)?\b|test suite pass(?:es|ed))/gi;
/** Words that turn the sentence around: "not all tests pass", "no tests passing yet". */
const NEGATION = /\b(?:not|no|never|none|nor|n't|until|unless|before)\b|n't\b/i;

/** The first phrase of the summary that says the tests pass, in a sentence that does not deny it. */
function passPhraseOf(summary: string): string | undefined {
  for (const match of summary.matchAll(PASS_PHRASE)) {
    const sentence = summary.slice(0, match.index).split(/[.!?\n]/).at(-1) ?? "";
    if (!NEGATION.test(sentence)) return match[0];
  }
  return undefined;
}

interface Claim {
  readonly pointer: string;
  readonly kind: "test" | "build";
  /** From the summary's words: a warning, since prose is read loosely. */
  readonly words?: string;
}

/** Issue 35: a return that says the tests pass is backed by the transcript's last test run having passed. */
export default defineRule<Options>(docsUrl)({
  id: "test-claims",
  meta: {
    description: "A return that says its tests (or build) pass is backed by the last test run (or build) in the run's transcript having passed; the finding quotes the runner's own closing line.",
    schema: {
      type: "object",
      additionalProperties: false,
      properties: {
        maxTranscriptBytes: MAX_TRANSCRIPT_BYTES_OPTION,
        summaryWords: { type: "string", enum: ["warn", "off"], description: "A summary that says the tests pass in words (\"all tests pass\"): checked as a warning, or not read." },
      },
      required: ["maxTranscriptBytes", "summaryWords"],
    },
    defaultOptions: { maxTranscriptBytes: CLAIMS_TRANSCRIPT_BYTES, summaryWords: "warn" },
    messages: {
      noTranscript: { text: "Test claims not checked: no transcript of the run", detail: "Note: pass --transcript FILE (the hooks pass the host's own) to check them" },
      transcriptUnreadable: {
        text: "Test claims not checked: {reason}",
        detail: "Warning: the claim that the tests pass is taken on trust",
        recommendation: "Pass the subagent's own transcript (Claude Code's agent_transcript_path, Codex's rollout, Copilot CLI's events.jsonl)",
      },
      transcriptTruncated: { text: "Transcript read up to {maxBytes} bytes of {file}", detail: "Note: test runs after that point are not seen; raise maxTranscriptBytes" },
      backed: { text: "{subject} claimed to pass, and the last {kind} run passed", detail: "Transcript line {line}: `{command}` ({runner}): {closingLine}" },
      lastRunFailed: {
        text: "{subject} claimed to pass, but the last {kind} run failed: {closingLine}",
        detail: "Transcript line {line}: `{command}` ({runner}) closed with: {closingLine}\nError: the return says {claim}",
        recommendation: "Verify {agent} reads the result of its last test run before it reports one",
        reask: "your last {kind} run failed (transcript line {line}, {runner}: {closingLine}); fix the failures and run it again, or report that it fails",
      },
      noTestRun: {
        text: "{subject} claimed to pass, but the transcript shows no {kind} run",
        detail: "Error: the return says {claim}; no command in {file} ends with a known runner's summary (vitest, jest, node --test, pytest, cargo test, go test, lake build)",
        recommendation: "Verify {agent} runs the tests it reports on",
        reask: "you say {claim}, but your transcript shows no {kind} run; run them and report what they say",
      },
    },
  },
  check(context) {
    const { value, claims, options } = context;
    const found: Claim[] = [
      ...claimedValues(value, claims.map.tests).flatMap(({ pointer, value: said }) => (saysPassed(said) ? [{ pointer, kind: "test" as const }] : [])),
      ...KNOWN_PLACES.flatMap(({ pointer, kind }) => claimedValues(value, [pointer]).flatMap(({ value: said }) => (saysPassed(said) ? [{ pointer, kind }] : []))),
    ];
    const summary = typeof value.summary === "string" ? value.summary : undefined;
    const words = options.summaryWords === "warn" && summary !== undefined ? passPhraseOf(summary) : undefined;
    if (words !== undefined && !found.some((claim) => claim.kind === "test")) found.push({ pointer: "/summary", kind: "test", words });
    if (found.length === 0) return;
    const claimsAt = [...new Map(found.map((claim) => [claim.pointer, claim])).values()];
    // A return that says it failed claims nothing passed, whatever its fields say.
    if (!(claims.counted ?? (claims.status === null || isSuccessLike(claims.status)))) return;
    const facts = claimsFacts(context, claimsAt.length);
    if (facts === undefined) return;
    for (const claim of claimsAt) {
      const runs = facts.tests.filter((run) => BUILD_RUNNERS.has(run.runner) === (claim.kind === "build"));
      const last: TestRunFact | undefined = runs.at(-1);
      const said = claim.words === undefined ? `${claim.pointer.slice(1).replace(/\//g, ".")} is ${JSON.stringify(valueAt(value, claim.pointer))}` : `"${claim.words}"`;
      const level = claim.words === undefined ? {} : { level: "warn" as const };
      const subject = claim.kind === "build" ? "The build" : "Tests";
      if (last === undefined) {
        context.report({ messageId: "noTestRun", data: { subject, kind: claim.kind, claim: said, file: facts.file }, pointer: claim.pointer, ...level });
      } else if (!last.passed) {
        context.report({ messageId: "lastRunFailed", data: { subject, kind: claim.kind, claim: said, line: last.line, command: last.command, runner: last.runner, closingLine: last.closingLine }, pointer: claim.pointer, ...level });
      } else {
        context.pass({ messageId: "backed", data: { subject, kind: claim.kind, line: last.line, command: last.command, runner: last.runner, closingLine: last.closingLine } });
      }
    }
  },
});
