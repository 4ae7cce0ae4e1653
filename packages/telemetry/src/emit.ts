import path from "node:path";
import type { ReportObject } from "@returnlint/api";
import { readPath } from "@returnlint/core";
import { otlpProtocol, telemetryEnabled } from "./environment.js";
import { verdictEvent, type VerdictContext } from "./event.js";

export interface EmitOptions extends Omit<VerdictContext, "repository"> {
  readonly env: NodeJS.ProcessEnv;
  /** The project root the returns were checked in: the repository is worked out from it when the environment does not name one. */
  readonly root: string;
  /** Told, in one line, why the verdicts did not reach the collector; the verdicts and the exit code stay what they were. */
  readonly warn: (line: string) => void;
  /** returnlint's version, the instrumentation scope's. */
  readonly version?: string;
}

/**
 * One `gen_ai.evaluation.result` log record per report, sent to the OTLP endpoint the environment
 * names; nothing at all (not even a module loaded) when it names none. Never throws and never
 * changes a verdict: a collector that is down or refuses costs one warning, within the export timeout.
 */
export async function emitVerdicts(reports: readonly ReportObject[], options: EmitOptions): Promise<void> {
  if (reports.length === 0 || !telemetryEnabled(options.env)) return;
  const protocol = otlpProtocol(options.env);
  if (typeof protocol !== "string") {
    options.warn(`returnlint: verdicts not sent to OpenTelemetry: OTLP protocol "${protocol.unsupported}" is not one returnlint speaks (http/protobuf or http/json).`);
    return;
  }
  const context = { command: options.command, host: options.host, repository: repositoryOf(options.root, options.env) };
  const events = reports.map((report) => verdictEvent(report, context));
  try {
    const { exportEvents } = await import("./export.js");
    const failure = await exportEvents(events, { env: options.env, protocol, version: options.version ?? "0.0.0" });
    if (failure !== null) options.warn(`returnlint: ${String(events.length)} verdict${events.length === 1 ? "" : "s"} not sent to OpenTelemetry: ${failure}`);
  } catch (error) {
    options.warn(`returnlint: verdicts not sent to OpenTelemetry: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * The repository a verdict is about, in the order a dashboard would want it named: what CI says
 * (`GITHUB_REPOSITORY`, GitLab's `CI_PROJECT_PATH`), else the `origin` remote written in the
 * root's `.git/config`, else the root folder's name.
 */
export function repositoryOf(root: string, env: NodeJS.ProcessEnv): string {
  const named = env.GITHUB_REPOSITORY ?? env.CI_PROJECT_PATH;
  if (named !== undefined && named.trim() !== "") return named.trim();
  return originOf(root) ?? path.basename(path.resolve(root));
}

/** `remote "origin"`'s url in `.git/config` at `root`, with any user and password left out; null when there is none. */
function originOf(root: string): string | null {
  // Through core's safe read: a regular file only, bounded (a FIFO planted there would block for ever).
  // No .git folder at the root (a worktree's .git is a file): the folder's name stands for it.
  const data = readPath(path.join(root, ".git", "config"), MAX_GIT_CONFIG_BYTES, () => true);
  if (data === null) return null;
  const text = data.toString("utf8");
  const section = /^\s*\[remote "origin"\]\s*$([\s\S]*?)(?=^\s*\[|(?![\s\S]))/m.exec(text)?.[1] ?? "";
  const url = /^\s*url\s*=\s*(.+?)\s*$/m.exec(section)?.[1];
  return url === undefined ? null : url.replace(/^(\w+:\/\/)[^@/]+@/, "$1");
}

const MAX_GIT_CONFIG_BYTES = 256 * 1024;
