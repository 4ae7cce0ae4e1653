// The AI SDK running docs/frameworks.md's snippet against the suite's scripted model (Chat
// Completions at MODEL_URL, through @ai-sdk/openai-compatible); the research subagent is a
// ToolLoopAgent that can write files in the project.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Experimental_Agent as ToolLoopAgent, stepCountIs, tool } from "ai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { z } from "zod";
import { orchestrate } from "./ai-sdk.snippet.mjs";

const model = createOpenAICompatible({ name: "scripted", baseURL: `${process.env.MODEL_URL}/v1`, apiKey: "scripted" })("scripted");
const write_file = tool({
  description: "Writes a file of the project.",
  inputSchema: z.object({ path: z.string(), content: z.string() }),
  execute: ({ path: file, content }) => {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
    return `wrote ${file}`;
  },
});
const researcher = new ToolLoopAgent({ model, instructions: process.env.RESEARCHER_PROMPT, tools: { write_file }, stopWhen: stepCountIs(4) });
const verdicts = [];
const final = await orchestrate(process.env.PARENT_PROMPT, { model, researcher, onVerdict: (verdict) => verdicts.push(verdict) });
console.log(JSON.stringify({ node: process.version, verdicts, final }));
