// The Claude Agent SDK given the printed schema as outputFormat; the model is the suite's scripted one
// (ANTHROPIC_BASE_URL). Prints the result message's structured output.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { query } from "@anthropic-ai/claude-agent-sdk";

const schema = JSON.parse(readFileSync(process.env.SCHEMA_FILE, "utf8"));
const home = mkdtempSync(path.join(tmpdir(), "returnlint-claude-sdk-"));
let result;
try {
  for await (const message of query({ prompt: "Review the parser.", options: { cwd: home, maxTurns: 4, outputFormat: { type: "json_schema", schema }, env: { ...process.env, HOME: home } } })) {
    if (message.type === "result") result = message;
  }
  console.log(JSON.stringify({ subtype: result?.subtype, output: result?.structured_output }));
} catch (error) {
  console.log(JSON.stringify({ error: error instanceof Error ? error.message.split("\n")[0] : String(error) }));
}
