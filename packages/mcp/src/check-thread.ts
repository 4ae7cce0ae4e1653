import { parentPort, workerData } from "node:worker_threads";
import { Tools, type ToolCall } from "./tools.js";

/** The thread the server's tools run in (checker.ts): calls in, answers out, one at a time. */
const port = parentPort;
if (port === null) throw new Error("check-thread.js runs as a worker thread of the returnlint MCP server.");
const tools = new Tools((workerData as { configFile?: string }).configFile, (line) => {
  port.postMessage({ log: line });
});
port.on("message", (call: ToolCall & { readonly id: number }) => {
  void tools.run(call).then((result) => {
    port.postMessage({ id: call.id, result });
  });
});
