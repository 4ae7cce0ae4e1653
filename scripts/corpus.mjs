// `pnpm corpus [DIR]`: replays the corpus of real returns and checks the invariants of issue 3.
// Exit 0 all invariants hold, 1 an invariant is violated, 2 the corpus (or the build) is missing.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const repoRoot = fileURLToPath(new URL("..", import.meta.url));

if (!existsSync(new URL("../packages/api/dist/index.js", import.meta.url))) {
  console.error("returnlint corpus: packages/api/dist/index.js is missing; run `pnpm build` first (or `pnpm corpus`, which builds).");
  process.exit(2);
}

const { CorpusMissingError, formatSummary, replayCorpus, resolveCorpusDir, summarize } = await import("./corpus-lib.mjs");

const corpusDir = resolveCorpusDir(repoRoot, process.argv[2] ?? process.env.RETURNLINT_CORPUS);
try {
  const summary = summarize(await replayCorpus(corpusDir));
  console.log(formatSummary(summary));
  process.exitCode = summary.ok ? 0 : 1;
} catch (error) {
  if (!(error instanceof CorpusMissingError)) throw error;
  console.error(`returnlint corpus: ${error.message}`);
  process.exitCode = 2;
}
