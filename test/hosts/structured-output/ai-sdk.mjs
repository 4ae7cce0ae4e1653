// The AI SDK given the printed schema through jsonSchema(); prints what it sent and what it returned.
import { readFileSync } from "node:fs";
import { generateText, jsonSchema, Output } from "ai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { scriptedOpenAI } from "./scripted-openai.mjs";

const schema = JSON.parse(readFileSync(process.env.SCHEMA_FILE, "utf8"));
const model = await scriptedOpenAI(JSON.parse(process.env.ANSWER));
const provider = createOpenAICompatible({ name: "scripted", baseURL: model.url, apiKey: "scripted", supportsStructuredOutputs: true });
const result = await generateText({ model: provider("scripted"), prompt: "Review the parser.", output: Output.object({ schema: jsonSchema(schema) }) });
await model.close();
console.log(JSON.stringify({ sent: model.bodies[0]?.response_format, output: result.output }));
