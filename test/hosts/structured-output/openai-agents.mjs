// The OpenAI Agents SDK given the printed schema as an agent's outputType; prints what it sent and what it returned.
import { readFileSync } from "node:fs";
import { Agent, run, setDefaultOpenAIClient, setOpenAIAPI, setTracingDisabled } from "@openai/agents";
import OpenAI from "openai";
import { scriptedOpenAI } from "./scripted-openai.mjs";

const schema = JSON.parse(readFileSync(process.env.SCHEMA_FILE, "utf8"));
const model = await scriptedOpenAI(JSON.parse(process.env.ANSWER));
setTracingDisabled(true);
setOpenAIAPI("chat_completions");
setDefaultOpenAIClient(new OpenAI({ baseURL: model.url, apiKey: "scripted" }));
const agent = new Agent({ name: "reviewer", instructions: "Review the change.", model: "scripted", outputType: { type: "json_schema", name: "subagent_return", strict: false, schema } });
const result = await run(agent, "Review the parser.");
await model.close();
console.log(JSON.stringify({ sent: model.bodies[0]?.response_format, output: result.finalOutput }));
