// Mastra running docs/frameworks.md's snippet against the suite's scripted model (Chat Completions
// at MODEL_URL, through Mastra's OpenAI-compatible model config); the research sub-agent can write
// files in the project.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Agent } from "@mastra/core/agent";
import { createTool } from "@mastra/core/tools";
import { z } from "zod";
import { orchestrate } from "./mastra.snippet.mjs";

const model = { providerId: "openai", modelId: "scripted", url: `${process.env.MODEL_URL}/v1`, apiKey: "scripted", api: "chat" };
const writeFile = createTool({
  id: "write_file",
  description: "Writes a file of the project.",
  inputSchema: z.object({ path: z.string(), content: z.string() }),
  execute: async ({ path: file, content }) => {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
    return `wrote ${file}`;
  },
});
const researcher = new Agent({ id: "lean-research-agent", name: "lean-research-agent", description: "Researches a task and writes its report.", instructions: process.env.RESEARCHER_PROMPT, model, tools: { write_file: writeFile } });
const verdicts = [];
const final = await orchestrate(process.env.PARENT_PROMPT, { model, researcher, onVerdict: (verdict) => verdicts.push(verdict) });
console.log(JSON.stringify({ node: process.version, verdicts, final }));
