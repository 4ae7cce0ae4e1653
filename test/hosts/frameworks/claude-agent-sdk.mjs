// The Claude Agent SDK running docs/frameworks.md's snippet: Claude Code (the SDK's own) talks to
// the suite's scripted model (ANTHROPIC_BASE_URL); the research subagent is defined in the query's
// options. Prints the verdicts the adapter handed the application and the run's result.
import { orchestrate } from "./claude-agent-sdk.snippet.mjs";

const verdicts = [];
const agents = {
  "lean-research-agent": { description: "Researches a task and writes its report.", prompt: process.env.RESEARCHER_PROMPT, tools: ["Read", "Write"] },
};
const final = await orchestrate(process.env.PARENT_PROMPT, { cwd: process.cwd(), agents, onVerdict: (verdict) => verdicts.push(verdict) });
console.log(JSON.stringify({ node: process.version, verdicts, final }));
