// The rule thread (isolation.ts): loads custom rule modules and runs their checks with
// core's own runner, one request at a time as they arrive.
import { writeSync } from "node:fs";
import { parentPort, receiveMessageOnPort, workerData } from "node:worker_threads";
import { claimsOf } from "./claims.js";
import { importWithin, pickRule } from "./config/modules.js";
import { isReturnlintError } from "./errors.js";
import type { FileAnswer, FileCall, FromThread, RuleModule, ThreadData, ToThread } from "./isolation.js";
import { runRule } from "./runner.js";
import type { AnyRule, FileCheck, FileView } from "./types.js";

const { port, signal } = workerData as ThreadData;

// What a rule prints goes to standard error, at once: standard output is the report's. (Piping the
// thread's own streams to the main thread would keep the host's event loop alive.)
const toStandardError = (chunk: unknown, ...rest: unknown[]): boolean => {
  if (chunk instanceof Uint8Array) writeSync(2, chunk);
  else writeSync(2, String(chunk));
  const done = rest.find((item) => typeof item === "function") as (() => void) | undefined;
  done?.();
  return true;
};
process.stdout.write = toStandardError;
process.stderr.write = toStandardError;
const loaded = new Map<string, Promise<AnyRule>>();

/** The main thread bounds how long a load may take; here it may take as long as it likes. */
const NO_LIMIT_MS = 2 ** 31 - 1;

function load(module: RuleModule): Promise<AnyRule> {
  const key = `${module.file}\0${module.id}`;
  let rule = loaded.get(key);
  if (rule === undefined) {
    rule = importWithin(module.file, module.specifier, "RULE_NOT_FOUND", NO_LIMIT_MS).then((exported) => pickRule(exported, module.id, module.specifier));
    loaded.set(key, rule);
  }
  return rule;
}

/** The caller's file view, reached by a synchronous call to the main thread. */
function remoteFiles(id: number, root: string): FileView {
  const call = (op: FileCall["op"], path: unknown, maxBytes?: unknown): unknown => {
    Atomics.store(signal, 0, 0);
    port.postMessage({ id, op, path, maxBytes } satisfies FileCall);
    Atomics.wait(signal, 0, 0);
    const answer = receiveMessageOnPort(port)?.message as FileAnswer | undefined;
    if (answer === undefined) throw new Error("the main thread did not answer a file call");
    if ("error" in answer) throw new Error(answer.error);
    return answer.value;
  };
  return {
    root,
    check: (path) => call("check", path) as FileCheck,
    read: (path, maxBytes) => call("read", path, maxBytes) as string | null,
  };
}

async function answer(message: ToThread): Promise<FromThread> {
  const { id } = message;
  try {
    const rule = await load(message.module);
    if (message.type === "load") return { id, ok: true, meta: rule.meta, ruleId: rule.id };
    // The claims cross as their map alone: they are walked from the return, here as in the main thread.
    const { shared } = message;
    const claims = claimsOf(shared.value, shared.claims.map, shared.claims.fromContract);
    const run = await runRule({ rule, severity: message.severity, options: message.options }, { ...shared, claims }, remoteFiles(id, message.root), undefined);
    return { id, ok: true, run };
  } catch (error) {
    if (isReturnlintError(error)) return { id, ok: false, code: error.code, message: error.message };
    return { id, ok: false, code: "RULE_NOT_FOUND", message: error instanceof Error ? error.message : String(error) };
  }
}

parentPort?.on("message", (message: ToThread) => {
  void answer(message).then((reply) => {
    try {
      parentPort?.postMessage(reply);
    } catch (error) {
      // A meta or a result that cannot be copied (a function in it): said, not lost.
      const reason = `it gave a value that cannot be copied out of its thread: ${error instanceof Error ? error.message : String(error)}`;
      parentPort?.postMessage({ id: reply.id, ok: false, code: "RULE_NOT_FOUND", message: `cannot load ${message.module.specifier} (${message.module.file}): ${reason}` } satisfies FromThread);
    }
  });
});
