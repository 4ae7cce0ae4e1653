import { fillTemplate } from "./messages.js";
import { isObject } from "./pointer.js";
import type {
  AnyRule,
  Expected,
  FileView,
  FormatName,
  JsonObject,
  Level,
  MessageData,
  ParseOutcome,
  Report,
  ReportDescriptor,
  Result,
} from "./types.js";

/** A rule as the config resolved it for one command: what to run, how loud, with which options. */
export interface ConfiguredRule {
  readonly rule: AnyRule;
  readonly severity: "warn" | "error";
  readonly options: unknown;
  /** Where the rule came from (a package name or a file), named when it crashes. */
  readonly source: string;
}

export interface RunInput {
  readonly text: string;
  readonly parse: ParseOutcome;
  readonly command: string | null;
  readonly format: FormatName;
  readonly expected: Expected;
  readonly rules: readonly ConfiguredRule[];
  readonly files: FileView;
}

const UNKNOWN_AGENT = "the subagent";

/** The agent messages name: the caller's word first, then the return's own claim. */
export function agentName(expected: Expected, value: unknown): string {
  if (expected.agent !== undefined && expected.agent !== "") return expected.agent;
  if (isObject(value)) {
    const metadata = value.metadata;
    const claimed = isObject(metadata) ? metadata.agent_type : value.agent_type;
    if (typeof claimed === "string" && claimed !== "") return claimed;
  }
  return UNKNOWN_AGENT;
}

/**
 * Runs the configured rules, in order, over one parsed return and collects
 * every result. A rule that throws becomes an internal-error result naming it;
 * the others still run.
 */
export async function runRules(input: RunInput): Promise<Report> {
  const parsedValue = input.parse.ok ? input.parse.value : undefined;
  const value: JsonObject = isObject(parsedValue) ? parsedValue : {};
  const agent = agentName(input.expected, parsedValue);
  // Templates say "Fix {subagent} to …": "Fix researcher subagent to …", or "Fix the subagent to …".
  const subagent = agent === UNKNOWN_AGENT ? agent : `${agent} subagent`;
  const results: Result[] = [];
  let internalError = false;

  for (const configured of input.rules) {
    const { rule } = configured;
    if ((rule.meta.input ?? "object") === "object" && !isObject(parsedValue)) continue;
    const emit = (level: Level) => (descriptor: ReportDescriptor) => {
      const effective = level === "fail" && descriptor.level === "warn" ? "warn" : level;
      results.push(toResult(rule, effective, descriptor, { agent, subagent, command: input.command ?? "" }));
    };
    try {
      await rule.check({
        value,
        text: input.text,
        parse: input.parse,
        command: input.command,
        format: input.format,
        expected: input.expected,
        agent,
        options: configured.options,
        files: input.files,
        report: emit(configured.severity === "error" ? "fail" : "warn"),
        pass: emit("pass"),
        info: emit("info"),
      });
    } catch (error) {
      internalError = true;
      const reason = error instanceof Error ? error.message : String(error);
      results.push({
        ruleId: rule.id,
        level: "fail",
        messageId: "ruleCrashed",
        message: `Rule ${rule.id} crashed (from ${configured.source})`,
        detail: `Error: ${reason}`,
        recommendation: `Report this to the maintainers of ${configured.source}; the verdict is incomplete`,
      });
    }
  }

  const errorCount = results.filter((result) => result.level === "fail").length;
  const warningCount = results.filter((result) => result.level === "warn").length;
  const status = value.status;
  return {
    ok: errorCount === 0,
    command: input.command,
    format: input.format,
    status: typeof status === "string" ? status : null,
    agent,
    errorCount,
    warningCount,
    internalError,
    results,
  };
}

function toResult(rule: AnyRule, level: Level, descriptor: ReportDescriptor, context: MessageData): Result {
  const spec = rule.meta.messages[descriptor.messageId];
  if (spec === undefined) {
    throw new Error(`reported unknown messageId "${descriptor.messageId}"`);
  }
  const data = { ...context, ...descriptor.data };
  return {
    ruleId: rule.id,
    level,
    messageId: descriptor.messageId,
    message: fillTemplate(spec.text, data),
    ...(spec.detail === undefined ? {} : { detail: fillTemplate(spec.detail, data) }),
    ...(spec.recommendation === undefined ? {} : { recommendation: fillTemplate(spec.recommendation, data) }),
    ...(descriptor.pointer === undefined ? {} : { pointer: descriptor.pointer }),
  };
}
