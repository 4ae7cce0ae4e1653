import v7 from "@returnlint/preset-v7";

/**
 * strict: v7 console returns, and every claim weighed against the run's own evidence. The claims
 * rules read the transcript (--transcript, or the path the host's hook gives): what the return
 * says it ran, tested, created and delegated, against what the run did. Without a transcript they
 * say so and fail nothing; an unreadable one is a warning, never a block.
 */
export default {
  name: "strict",
  format: "v7",
  description: "v7 console returns, every claim checked against the run's evidence: artifact-evidence, and the commands, tests, writes and subagents a return claims against its transcript",
  rules: {
    ...v7.rules,
    "artifact-evidence": "error",
    "command-claims": "error",
    "test-claims": "error",
    "write-claims": "error",
    "subagent-claims": "error",
  },
} as const;
