import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Result } from "@returnlint/core";
import { lineOf } from "./locate.js";
import type { Formatter, FormatterInput, RuleInfo } from "@returnlint/api";
import { passed, problems } from "@returnlint/api";

declare const RETURNLINT_VERSION: string;

const INFORMATION_URI = "https://github.com/returnlint/returnlint";
const SRCROOT = "%SRCROOT%";

/** A relative file path as a relative URI reference: `/` between segments, each segment percent-encoded. */
function relativeUri(file: string): string {
  return file
    .split(path.sep)
    .map((segment) => (segment === ".." || segment === "." ? segment : encodeURIComponent(segment)))
    .join("/");
}

function artifactLocation(source: string): Record<string, string> {
  return path.isAbsolute(source) ? { uri: pathToFileURL(source).href } : { uri: relativeUri(source), uriBaseId: SRCROOT };
}

function messageText(result: Result): string {
  return [result.message, result.detail, result.recommendation === undefined ? undefined : `Recommendation: ${result.recommendation}`]
    .filter((line) => line !== undefined)
    .join("\n");
}

function location(input: FormatterInput, result: Result): Record<string, unknown> {
  const physical =
    input.source === "<stdin>"
      ? {}
      : { physicalLocation: { artifactLocation: artifactLocation(input.source), region: { startLine: lineOf(input, result.pointer) } } };
  const pointer = result.pointer;
  const logical = pointer === undefined ? {} : { logicalLocations: [{ fullyQualifiedName: pointer === "" ? "/" : pointer, kind: "value" }] };
  return { ...physical, ...logical };
}

/**
 * SARIF 2.1.0, for GitHub code scanning and other SARIF viewers: one log with a run
 * per return, the rules with their docs URLs, and one result per failure or warning,
 * located in the return file (line of the JSON Pointer) and by the pointer itself.
 */
export const sarif: Formatter = (inputs) => log(inputs.map(runOf));

function log(runs: readonly Record<string, unknown>[]): string {
  return `${JSON.stringify({ $schema: "https://json.schemastore.org/sarif-2.1.0.json", version: "2.1.0", runs }, null, 2)}\n`;
}

function runOf(input: FormatterInput): Record<string, unknown> {
  const { report } = input;
  const rules: RuleInfo[] = [...input.rules];
  // A result from a rule the config did not list (none today) still gets a descriptor.
  for (const result of report.results) {
    if (!rules.some((rule) => rule.id === result.ruleId)) rules.push({ id: result.ruleId, description: result.ruleId, docs: "", ran: true });
  }
  const results = problems(input).map((result) => ({
    ruleId: result.ruleId,
    ruleIndex: rules.findIndex((rule) => rule.id === result.ruleId),
    level: result.level === "fail" ? "error" : "warning",
    message: { text: messageText(result) },
    locations: [location(input, result)],
    properties: {
      messageId: result.messageId,
      ...(result.pointer === undefined ? {} : { pointer: result.pointer }),
      ...(result.recommendation === undefined ? {} : { recommendation: result.recommendation }),
      ...(result.data === undefined ? {} : { data: result.data }),
    },
  }));
  return {
    tool: {
      driver: {
        name: "returnlint",
        version: RETURNLINT_VERSION,
        semanticVersion: RETURNLINT_VERSION,
        informationUri: INFORMATION_URI,
        rules: rules.map((rule) => ({
          id: rule.id,
          shortDescription: { text: rule.description },
          ...(rule.docs === "" ? {} : { helpUri: rule.docs }),
        })),
      },
    },
    originalUriBaseIds: { [SRCROOT]: { uri: pathToFileURL(input.cwd).href.replace(/\/?$/, "/") } },
    invocations: [{ executionSuccessful: !report.internalError }],
    results,
    properties: {
      ok: passed(input),
      command: report.command,
      format: report.format,
      preset: report.preset,
      status: report.status,
      agent: report.agent,
      ...(input.task === undefined ? {} : { task: input.task }),
    },
  };
}
