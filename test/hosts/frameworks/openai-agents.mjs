// The OpenAI Agents SDK running docs/frameworks.md's snippet against the suite's scripted model
// (Chat Completions at MODEL_URL); the research subagent can write files in the project.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Agent, setDefaultOpenAIClient, setOpenAIAPI, setTracingDisabled, tool } from "@openai/agents";
import OpenAI from "openai";
import { z } from "zod";
import { orchestrate } from "./openai-agents.snippet.mjs";

setTracingDisabled(true);
setOpenAIAPI("chat_completions");
setDefaultOpenAIClient(new OpenAI({ baseURL: `${process.env.MODEL_URL}/v1`, apiKey: "scripted" }));
const writeFile = tool({
  name: "write_file",
  description: "Writes a file of the project.",
  parameters: z.object({ path: z.string(), content: z.string() }),
  execute: ({ path: file, content }) => {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
    return `wrote ${file}`;
  },
});
const researcher = new Agent({ name: "lean-research-agent", instructions: process.env.RESEARCHER_PROMPT, tools: [writeFile] });
const verdicts = [];
const final = await orchestrate(process.env.PARENT_PROMPT, { researcher, onVerdict: (verdict) => verdicts.push(verdict) });
console.log(JSON.stringify({ node: process.version, verdicts, final }));
