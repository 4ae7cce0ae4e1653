// A scripted OpenAI Chat Completions model on 127.0.0.1 for the drivers here: it answers every
// request with the answer it is given, and keeps each request's body for the driver to report.
import { createServer } from "node:http";

export async function scriptedOpenAI(answer) {
  const bodies = [];
  const server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      const parsed = JSON.parse(body === "" ? "{}" : body);
      bodies.push(parsed);
      response.writeHead(200, { "content-type": "application/json" });
      const message = { role: "assistant", content: JSON.stringify(answer) };
      response.end(JSON.stringify({ id: "chatcmpl-scripted", object: "chat.completion", created: 0, model: parsed.model ?? "scripted", choices: [{ index: 0, finish_reason: "stop", message }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } }));
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${String(server.address().port)}/v1`, bodies, close: () => new Promise((resolve) => server.close(resolve)) };
}
