import { reaskLine, type ReportObject } from "@returnlint/api";

/** The GenAI semantic conventions' event for the result of evaluating what a model or agent produced. */
export const EVALUATION_EVENT = "gen_ai.evaluation.result";

/** `gen_ai.evaluation.name`: what returnlint evaluates, the same on every record so that one query finds them all. */
export const EVALUATION_NAME = "returnlint";

/** Where a verdict was given: the command that gave it, the host that ran it, the repository it is about. */
export interface VerdictContext {
  /** The returnlint command: `check`, `scan`, `hook`, or a framework adapter's name. */
  readonly command: string;
  /** The agent host the verdict was given for (`claude`, `codex`, `opencode`, …); `cli` when a person or CI ran the command. */
  readonly host: string;
  /** The repository the returns are in (`owner/name`, a remote URL or a folder name): `repositoryOf` works it out. */
  readonly repository: string;
}

export type AttributeValue = string | number | boolean;

/** One log record: the event's name, its body (the verdict in words) and its attributes. */
export interface VerdictEvent {
  readonly eventName: typeof EVALUATION_EVENT;
  readonly body: string;
  readonly attributes: Readonly<Record<string, AttributeValue>>;
}

/**
 * The event of one verdict. The convention's own attributes first (`gen_ai.evaluation.*`,
 * `gen_ai.agent.name`, `error.type` when a rule crashed and the verdict is incomplete), then
 * returnlint's, under `returnlint.`: what a dashboard groups by (host, command, task, repository)
 * and the phantom flag its rate is counted from.
 */
export function verdictEvent(report: ReportObject, context: VerdictContext): VerdictEvent {
  const label = report.ok ? "pass" : "fail";
  const explanation = firstReask(report);
  const internal = report.results.some((result) => CRASHED.has(result.messageId));
  const attributes: Record<string, AttributeValue> = {
    // The record's event name, again as an attribute: backends that index attributes only (and older collectors) still find it.
    "event.name": EVALUATION_EVENT,
    "gen_ai.evaluation.name": EVALUATION_NAME,
    "gen_ai.evaluation.score.label": label,
    "gen_ai.evaluation.score.value": report.ok ? 1 : 0,
    ...(explanation === undefined ? {} : { "gen_ai.evaluation.explanation": explanation }),
    "gen_ai.agent.name": report.agent,
    ...(internal ? { "error.type": "rule_crashed" } : {}),
    "returnlint.host": context.host,
    "returnlint.command": context.command,
    "returnlint.repository": context.repository,
    ...(report.task === undefined ? {} : { "returnlint.task": report.task }),
    "returnlint.phantom": report.phantom,
    ...(report.command === null ? {} : { "returnlint.return.command": report.command }),
    ...(report.status === null ? {} : { "returnlint.return.status": report.status }),
    "returnlint.return.format": report.format,
    "returnlint.source": report.source,
    "returnlint.errors": report.errorCount,
    "returnlint.warnings": report.warningCount,
  };
  return { eventName: EVALUATION_EVENT, body: `[${report.ok ? "PASS" : "FAIL"}] ${report.source}${report.phantom ? " (phantom work)" : ""}`, attributes };
}

/** The messages core reports in a rule's place when it crashed or ran out of time. */
const CRASHED: ReadonlySet<string> = new Set(["ruleCrashed", "ruleTimedOut"]);

/** The first line the subagent would be re-asked with: the first failure's, else (more warnings than allowed) the first warning's. */
function firstReask(report: ReportObject): string | undefined {
  if (report.ok) return undefined;
  const first = report.results.find((result) => result.level === "fail") ?? report.results.find((result) => result.level === "warn");
  return first === undefined ? undefined : reaskLine(first, undefined, report.agent);
}
