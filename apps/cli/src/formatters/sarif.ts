import { createHash } from "node:crypto";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { lineOf } from "./locate.js";
import { messageText } from "./message.js";
import type { Formatter, FormatterInput, RuleInfo } from "@returnlint/api";
import { passed, problems } from "@returnlint/api";

declare const RETURNLINT_VERSION: string;

const INFORMATION_URI = "https://github.com/returnlint/returnlint";
const SRCROOT = "%SRCROOT%";
/** The name of the fingerprint GitHub code scanning (and other viewers) match a finding by from one run to the next. */
export const FINGERPRINT = "returnlintFinding/v1";
/** GitHub code scanning takes at most 25,000 results per run: past that the run lists the first ones and says how many it left out. */
export const MAX_RESULTS = 25_000;

/** A result as a command makes it: what SARIF says of it, less what the run works out (its rule's index, its fingerprint). */
export interface SarifFinding {
  readonly ruleId: string;
  readonly level: "error" | "warning";
  readonly message: string;
  readonly locations: readonly Record<string, unknown>[];
  readonly properties: Record<string, unknown>;
  /**
   * What identifies the finding whatever else changes: the file, the rule, the message id, the pointer (a commit, for a
   * version in history). Never its line nor its text, which move when the return is edited elsewhere.
   */
  readonly identity: readonly string[];
}

export interface SarifRun {
  /** The command that ran: the run's category (`returnlint/check/`), as github/codeql-action/upload-sarif reads it. */
  readonly command: string;
  /** What relative `uri`s are relative to. */
  readonly root: string;
  readonly rules: readonly Pick<RuleInfo, "id" | "description" | "docs">[];
  readonly findings: readonly SarifFinding[];
  readonly executionSuccessful: boolean;
  readonly properties: Record<string, unknown>;
  readonly versionControl?: { readonly repositoryUri: string; readonly revisionId: string };
}

/** A relative file path as a relative URI reference: `/` between segments, each segment percent-encoded. */
export function relativeUri(file: string): string {
  return file
    .split(path.sep)
    .map((segment) => (segment === ".." || segment === "." ? segment : encodeURIComponent(segment)))
    .join("/");
}

function artifactLocation(source: string): Record<string, string> {
  return path.isAbsolute(source) ? { uri: pathToFileURL(source).href } : { uri: relativeUri(source), uriBaseId: SRCROOT };
}

/** Where a finding is: its file and line (a return from standard input has neither), and its pointer as a logical location. */
export function sarifLocation(file: { readonly path: string; readonly line: number } | undefined, pointer: string | undefined): Record<string, unknown> {
  const physical = file === undefined ? {} : { physicalLocation: { artifactLocation: artifactLocation(file.path), region: { startLine: file.line } } };
  const logical = pointer === undefined ? {} : { logicalLocations: [{ fullyQualifiedName: pointer === "" ? "/" : pointer, kind: "value" }] };
  return { ...physical, ...logical };
}

/**
 * SARIF 2.1.0, for GitHub code scanning and other SARIF viewers: one log, one run for the whole
 * invocation (GitHub takes at most 20 runs per file; `check --task 1-30` is one run, not thirty),
 * its category the command, the rules with their docs URLs, and one result per failure or warning,
 * located in the return file (line of the JSON Pointer) and by the pointer itself.
 */
export const sarif: Formatter = (inputs, { command }) => {
  const rules: RuleInfo[] = [];
  const known = new Set<string>();
  const describe = (rule: RuleInfo): void => {
    if (known.has(rule.id)) return;
    known.add(rule.id);
    rules.push(rule);
  };
  for (const input of inputs) {
    for (const rule of input.rules) describe(rule);
    // A result from a rule the config did not list (none today) still gets a descriptor.
    for (const result of input.report.results) describe({ id: result.ruleId, description: result.ruleId, docs: "", ran: true });
  }
  const verdicts = inputs.map((input) => ({ input, ok: passed(input) }));
  return sarifLog([
    {
      command: command ?? "check",
      root: inputs[0]?.cwd ?? process.cwd(),
      rules,
      findings: inputs.flatMap(findingsOf),
      executionSuccessful: !inputs.some((input) => input.report.internalError),
      properties: {
        returns: inputs.length,
        passed: verdicts.filter(({ ok }) => ok).length,
        failed: verdicts.filter(({ ok }) => !ok).length,
        phantom: inputs.filter((input) => input.facts.phantom !== undefined).length,
        verdicts: verdicts.map(({ input, ok }) => ({
          source: input.source,
          ...(input.task === undefined ? {} : { task: input.task }),
          ok,
          phantom: input.facts.phantom !== undefined,
          command: input.report.command,
          status: input.report.status,
          agent: input.report.agent,
        })),
      },
    },
  ]);
};

function findingsOf(input: FormatterInput): SarifFinding[] {
  const file = input.source === "<stdin>" ? undefined : input.source;
  return problems(input).map((result) => ({
    ruleId: result.ruleId,
    level: result.level === "fail" ? "error" : "warning",
    message: messageText(result),
    locations: [sarifLocation(file === undefined ? undefined : { path: file, line: lineOf(input, result.pointer) }, result.pointer)],
    properties: {
      messageId: result.messageId,
      ...(result.pointer === undefined ? {} : { pointer: result.pointer }),
      ...(result.recommendation === undefined ? {} : { recommendation: result.recommendation }),
      ...(result.data === undefined ? {} : { data: result.data }),
      ...(input.task === undefined ? {} : { task: input.task }),
      agent: input.report.agent,
      ...(input.report.command === null ? {} : { command: input.report.command }),
    },
    identity: [file === undefined ? "<stdin>" : relativeUri(file), result.ruleId, result.messageId, result.pointer ?? ""],
  }));
}

export function sarifLog(runs: readonly SarifRun[]): string {
  return `${JSON.stringify({ $schema: "https://json.schemastore.org/sarif-2.1.0.json", version: "2.1.0", runs: runs.map(runOf) }, null, 2)}\n`;
}

function runOf(run: SarifRun): Record<string, unknown> {
  const rules = [...run.rules];
  for (const finding of run.findings) {
    if (!rules.some((rule) => rule.id === finding.ruleId)) rules.push({ id: finding.ruleId, description: finding.ruleId, docs: "" });
  }
  const listed = run.findings.slice(0, MAX_RESULTS);
  const omitted = run.findings.length - listed.length;
  // Two findings alike in every part of their identity (a rule reporting one pointer twice) are told apart by their order.
  const seen = new Map<string, number>();
  const results = listed.map(({ identity, ...finding }) => {
    const hash = createHash("sha256").update(identity.join("\0")).digest("hex").slice(0, 32);
    const occurrence = (seen.get(hash) ?? 0) + 1;
    seen.set(hash, occurrence);
    return {
      ruleId: finding.ruleId,
      ruleIndex: rules.findIndex((rule) => rule.id === finding.ruleId),
      level: finding.level,
      message: { text: finding.message },
      locations: finding.locations,
      partialFingerprints: { [FINGERPRINT]: `${hash}:${String(occurrence)}` },
      properties: finding.properties,
    };
  });
  const notice =
    omitted === 0
      ? {}
      : {
          toolExecutionNotifications: [
            {
              level: "warning",
              message: { text: `${String(omitted)} of ${String(run.findings.length)} results are not listed: GitHub code scanning takes at most ${String(MAX_RESULTS)} per run.` },
            },
          ],
        };
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
    automationDetails: { id: `returnlint/${run.command}/` },
    originalUriBaseIds: { [SRCROOT]: { uri: pathToFileURL(run.root).href.replace(/\/?$/, "/") } },
    ...(run.versionControl === undefined ? {} : { versionControlProvenance: [run.versionControl] }),
    invocations: [{ executionSuccessful: run.executionSuccessful, ...notice }],
    results,
    properties: { ...run.properties, results: run.findings.length, ...(omitted === 0 ? {} : { resultsOmitted: omitted }) },
  };
}
