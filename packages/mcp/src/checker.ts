import { Worker } from "node:worker_threads";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { ToolCall } from "./tools.js";

/** How long one call may run: longer than one rule may (core's 10 s), so that a slow rule is its own finding. */
export const CALL_DEADLINE_MS = 30_000;
/** The most memory one call's thread may hold. */
export const CALL_HEAP_MB = 1024;

type FromThread = { readonly id: number; readonly result: CallToolResult } | { readonly log: string };

/**
 * Runs the tools in a worker thread, one call at a time, each with a deadline and a memory
 * limit: a call past either is stopped (the thread ended and started anew for the next call)
 * and answered with a tool error, so no return, config or file can hang the server or take it
 * out of memory. The protocol stays on the main thread and keeps answering meanwhile.
 */
export class Checker {
  private thread: Worker | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private calls = 0;

  constructor(
    private readonly configFile: string | undefined,
    private readonly log: (line: string) => void,
  ) {}

  run(call: ToolCall): Promise<CallToolResult> {
    const answered = this.queue.then(() => this.runNow(call));
    this.queue = answered;
    return answered;
  }

  /** Starts the thread ahead of the first call, so that it is ready when the subagent asks. */
  warm(): void {
    this.threadOf();
  }

  close(): Promise<void> {
    const thread = this.thread;
    this.thread = undefined;
    return thread === undefined ? Promise.resolve() : thread.terminate().then(() => undefined);
  }

  private threadOf(): Worker {
    if (this.thread !== undefined) return this.thread;
    const thread = new Worker(new URL("./check-thread.js", import.meta.url), {
      workerData: this.configFile === undefined ? {} : { configFile: this.configFile },
      resourceLimits: { maxOldGenerationSizeMb: CALL_HEAP_MB },
      // Standard output is the protocol's: what a custom rule prints there goes to standard error.
      stdout: true,
    });
    thread.stdout.on("data", (chunk: Buffer) => {
      this.log(`a rule wrote to standard output: ${chunk.toString("utf8", 0, Math.min(chunk.length, 200)).trimEnd()}`);
    });
    thread.on("message", (message: FromThread) => {
      if ("log" in message) this.log(message.log);
    });
    // A thread that is only waiting for calls does not keep the server running.
    thread.unref();
    this.thread = thread;
    return thread;
  }

  private runNow(call: ToolCall): Promise<CallToolResult> {
    const thread = this.threadOf();
    const id = ++this.calls;
    return new Promise((resolve) => {
      const finish = (result: CallToolResult) => {
        clearTimeout(timer);
        thread.off("message", onMessage);
        thread.off("error", onError);
        thread.off("exit", onExit);
        resolve(result);
      };
      const stop = (sentence: string) => {
        if (this.thread === thread) this.thread = undefined;
        void thread.terminate();
        this.log(`${call.tool}: ${sentence}`);
        finish({ content: [{ type: "text", text: sentence }], isError: true });
      };
      const onMessage = (message: FromThread) => {
        if ("id" in message && message.id === id) finish(message.result);
      };
      const onError = (error: Error & { code?: string }) => {
        stop(
          error.code === "ERR_WORKER_OUT_OF_MEMORY"
            ? `returnlint stopped this call: checking it needed more than ${String(CALL_HEAP_MB)} MB of memory. No return a subagent hands back is this large; shorten it and call again.`
            : `returnlint stopped this call: its checking thread failed (${error.message}).`,
        );
      };
      const onExit = () => {
        stop("returnlint stopped this call: its checking thread ended before it answered.");
      };
      const timer = setTimeout(() => {
        stop(
          `returnlint stopped this call after ${String(CALL_DEADLINE_MS / 1000)} s without an answer: the return is too large to check in that time, or a file it reads (the config, the return) never finished reading. Shorten the return, or fix the file, and call again.`,
        );
      }, CALL_DEADLINE_MS);
      thread.on("message", onMessage);
      thread.on("error", onError);
      thread.on("exit", onExit);
      thread.postMessage({ ...call, id });
    });
  }
}
