import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { MessagePort, Worker } from "node:worker_threads";
import { completeMeta, describeMs } from "./config/modules.js";
import { ReturnlintError, type ErrorCode } from "./errors.js";
import type { ConfiguredRule, Failure, RuleRun, SharedContext } from "./runner.js";
import type { AnyRule, FileView } from "./types.js";

/**
 * Custom rules (files and packages a config names) are code returnlint does not
 * control, so they run in a thread of their own, the rule thread: a check that loops
 * without end, waits on Atomics.wait, exhausts its heap or calls process.exit() is
 * stopped or contained there, and the run reports it as an internal error of that
 * rule. The main thread never imports a custom rule; it gets the rule's meta (plain
 * data) from the rule thread. Built-in rules run in the main thread: a run without
 * custom rules never starts the thread.
 *
 * The rule thread reaches artifacts through the caller's FileView, by a synchronous
 * call to the main thread (rule-worker.ts), so a rule sees exactly what the built-in
 * rules see.
 */

/** Set by a host that bundles core (returnlint's CLI): where its copy of the rule thread's script is. */
export const RULE_WORKER = Symbol.for("returnlint.ruleWorker");

/** The heap a rule thread may use before it is stopped. */
export const RULE_MEMORY_MB = 512;

const ISOLATED = Symbol("returnlint.isolated");

/** A rule module, as the rule thread loads it. */
export interface RuleModule {
  /** The absolute path of the module file. */
  readonly file: string;
  /** The id the config gives the rule. */
  readonly id: string;
  /** What the user wrote (a package name or the file), for messages. */
  readonly specifier: string;
}

/** Messages to the rule thread. */
export type ToThread =
  | { readonly type: "load"; readonly id: number; readonly module: RuleModule }
  | {
      readonly type: "check";
      readonly id: number;
      readonly module: RuleModule;
      readonly severity: "warn" | "error";
      readonly options: unknown;
      readonly shared: SharedContext;
      readonly root: string;
    };

/** Messages from the rule thread. */
export type FromThread =
  | { readonly id: number; readonly ok: true; readonly meta: AnyRule["meta"]; readonly ruleId: string }
  | { readonly id: number; readonly ok: true; readonly run: RuleRun }
  | { readonly id: number; readonly ok: false; readonly code: ErrorCode; readonly message: string };

/** A file-view call from the rule thread, answered synchronously. */
export interface FileCall {
  readonly id: number;
  readonly op: "check" | "read";
  readonly path: unknown;
  readonly maxBytes?: unknown;
}

export type FileAnswer = { readonly value: unknown } | { readonly error: string };

/** What the rule thread receives when it starts. */
export interface ThreadData {
  readonly port: MessagePort;
  /** Set to 1 by the main thread when it has answered a file call. */
  readonly signal: Int32Array;
}

export function isolatedModule(rule: AnyRule): RuleModule | undefined {
  return (rule as { [ISOLATED]?: RuleModule })[ISOLATED];
}

/** Whether custom rules can run in the rule thread here (its script was found). */
export function canIsolate(): boolean {
  return workerScript() !== undefined;
}

/**
 * Loads a rule module in the rule thread, waiting at most `timeoutMs`. The rule
 * returned carries the module's meta; its check runs in the rule thread.
 */
export async function loadIsolatedRule(module: RuleModule, timeoutMs: number): Promise<AnyRule> {
  const answer = await thread().request({ type: "load", id: 0, module }, timeoutMs);
  const cannot = (reason: string) => new ReturnlintError("RULE_NOT_FOUND", `cannot load ${module.specifier} (${module.file}): ${reason}`);
  if ("stopped" in answer) {
    throw cannot(answer.stopped === "timedOut" ? `it did not finish loading within ${describeMs(timeoutMs)} (a top-level await that never settles, or a loop?)` : answer.reason);
  }
  if (!answer.ok) throw new ReturnlintError(answer.code, answer.message);
  if (!("meta" in answer)) throw cannot("the rule thread answered something else");
  const rule = {
    id: answer.ruleId,
    meta: completeMeta(answer.meta),
    check() {
      throw new Error(`rule ${answer.ruleId} runs in returnlint's rule thread; run it with runRules`);
    },
    [ISOLATED]: module,
  };
  return rule as AnyRule;
}

/** Runs an isolated rule's check in the rule thread; stops the thread when the time limit passes. */
export async function runIsolated(module: RuleModule, configured: ConfiguredRule, shared: SharedContext, files: FileView, timeoutMs: number): Promise<RuleRun> {
  const answer = await thread().request(
    { type: "check", id: 0, module, severity: configured.severity, options: configured.options, shared, root: files.root },
    timeoutMs,
    files,
  );
  if ("stopped" in answer) return { own: [], failure: answer.stopped === "timedOut" ? { kind: "timedOut" } : { kind: "threw", reason: answer.reason } };
  if (!answer.ok) return { own: [], failure: { kind: "threw", reason: answer.message } };
  if (!("run" in answer)) return { own: [], failure: { kind: "threw", reason: "the rule thread answered something else" } };
  return answer.run;
}

type Answer = FromThread | { readonly stopped: "timedOut" | "crashed"; readonly reason: string };

interface Pending {
  readonly settle: (answer: Answer) => void;
  readonly files: FileView | undefined;
  readonly timer: NodeJS.Timeout;
}

let current: RuleThread | undefined;

function thread(): RuleThread {
  if (current === undefined || current.dead) current = new RuleThread();
  return current;
}

/** One rule thread: started when a custom rule is first loaded, replaced after it is stopped. */
class RuleThread {
  dead = false;
  private readonly worker: Worker;
  private readonly port: MessagePort;
  private readonly signal = new Int32Array(new SharedArrayBuffer(4));
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  constructor() {
    const script = workerScript();
    if (script === undefined) throw new Error("internal: the rule thread's script was not found");
    const { MessageChannel, Worker: WorkerClass } = process.getBuiltinModule("node:worker_threads");
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    const data: ThreadData = { port: port2, signal: this.signal };
    this.worker = new WorkerClass(script, {
      workerData: data,
      transferList: [port2],
      resourceLimits: { maxOldGenerationSizeMb: RULE_MEMORY_MB },
    });
    this.worker.on("message", (answer: FromThread) => {
      this.finish(answer.id, answer);
    });
    this.worker.on("error", (error: Error & { code?: string }) => {
      const reason =
        error.code === "ERR_WORKER_OUT_OF_MEMORY"
          ? `its check ran out of memory (a rule may use ${String(RULE_MEMORY_MB)} MB)`
          : `${error.message} (thrown outside its check, from a timer or an unhandled promise)`;
      this.stop(reason);
    });
    this.worker.on("exit", (code) => {
      this.stop(`it ended its thread (exit code ${String(code)}: process.exit(), or a top-level await that never settles) before it finished`);
    });
    this.port.on("message", (call: FileCall) => {
      this.answerFileCall(call);
    });
    // Neither keeps the process alive: a pending request's timer does, and only while it waits.
    this.worker.unref();
    this.port.unref();
  }

  request(message: ToThread, timeoutMs: number, files?: FileView): Promise<Answer> {
    const id = this.nextId++;
    return new Promise<Answer>((resolve) => {
      const timer = setTimeout(() => {
        this.finish(id, { stopped: "timedOut", reason: "" });
        this.stop("its thread was stopped because another rule did not finish in time");
      }, timeoutMs);
      this.pending.set(id, { settle: resolve, files, timer });
      try {
        this.worker.postMessage({ ...message, id });
      } catch (error) {
        this.finish(id, { stopped: "crashed", reason: `what it needs cannot be copied to its thread: ${error instanceof Error ? error.message : String(error)}` });
      }
    });
  }

  private finish(id: number, answer: Answer): void {
    const pending = this.pending.get(id);
    if (pending === undefined) return;
    this.pending.delete(id);
    clearTimeout(pending.timer);
    pending.settle(answer);
  }

  /** Ends the thread; every request still waiting is answered with `reason`. */
  private stop(reason: string): void {
    if (!this.dead) {
      this.dead = true;
      void this.worker.terminate();
      this.port.close();
    }
    for (const id of [...this.pending.keys()]) this.finish(id, { stopped: "crashed", reason });
  }

  private answerFileCall(call: FileCall): void {
    const files = this.pending.get(call.id)?.files;
    let answer: FileAnswer;
    try {
      if (files === undefined) throw new Error("the check this call belongs to has ended");
      answer = { value: call.op === "check" ? files.check(call.path as string) : files.read(call.path as string, call.maxBytes as number) };
    } catch (error) {
      answer = { error: error instanceof Error ? error.message : String(error) };
    }
    this.port.postMessage(answer);
    Atomics.store(this.signal, 0, 1);
    Atomics.notify(this.signal, 0);
  }
}

let script: string | null | undefined;

/** The rule thread's script: the host's bundled copy, else the one beside this module. */
function workerScript(): string | undefined {
  if (script === undefined) {
    const hosted = (globalThis as Record<symbol, unknown>)[RULE_WORKER];
    const candidates = [typeof hosted === "string" ? hosted : undefined, ownScript()];
    script = candidates.find((candidate) => candidate !== undefined && existsSync(candidate)) ?? null;
  }
  return script ?? undefined;
}

function ownScript(): string | undefined {
  try {
    return fileURLToPath(new URL("./rule-worker.js", import.meta.url));
  } catch {
    // Bundled as CommonJS, where import.meta is empty: the host names its copy instead.
    return undefined;
  }
}

export type { Failure };
