export { lastOutputLine, OUTPUT_TAIL_CHARS, TRANSCRIPT_HOSTS, type CommandFact, type NoFacts, type RunFacts, type SubagentFact, type TestRunFact, type TranscriptHost, type WriteFact } from "./facts.js";
export { CLAIMS_TRANSCRIPT_BYTES, claimsFacts, hostOf, MAX_TRANSCRIPT_BYTES_OPTION, readRunFacts, runFactsFor, type ReadFactsOptions } from "./read.js";
export { testRunOf } from "./runners.js";
