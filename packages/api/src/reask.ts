import { agentName, isObject, preview, quoted, subagentName, tokensOf, valueAt, type Result } from "@returnlint/core";
import type { Formatter, FormatterInput } from "./formatter-types.js";
import { failing, passed } from "./verdict.js";

/**
 * What one line for the subagent is made of: the result's rule, message id and data
 * (what the rule found, as values), and what the return holds at its pointer. The
 * built-in rules' lines below never read the wording of a message.
 */
interface Problem {
  readonly result: Result;
  /** What the return holds at the result's pointer. */
  readonly found: unknown;
  /** The pointer as a dotted field name: `metadata.session_id`. */
  readonly field: string;
  /** The return's status, when it is a string. */
  readonly status: string | undefined;
  /** One entry of the result's data, as text ("" when the rule did not report it). */
  readonly data: (key: string) => string;
}

/** `"text"` for a string, a short preview of anything else. */
function quote(value: unknown): string {
  // The return's own text: quoted, but never more than a message may quote.
  return typeof value === "string" ? JSON.stringify(quoted(value)) : preview(value, 60);
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}

/** The artifact path a result is about: the string at its pointer, or the one the rule reported. */
function artifactPath(problem: Problem): string {
  return quote(typeof problem.found === "string" ? problem.found : problem.data("path"));
}

/** Where a JSON parser stopped: `{reason} at line {line}, column {column}`, from json-structure's data. */
function parseError({ data }: Problem): string {
  return `${data("reason")} at line ${data("line")}, column ${data("column")}`;
}

/** status-enum's diagnosis, with its suggestion turned into an instruction. */
function statusInstruction(problem: Problem): string {
  const { result, data } = problem;
  const diagnosis =
    result.messageId === "notAString"
      ? `"status" must be a string, one of ${data("allowed")}${data("scope")}; received ${data("type")} ${data("value")}`
      : `"status" must be one of ${data("allowed")}${data("scope")}; received ${quote(data("status"))}`;
  const advice = data("advice");
  if (advice === "didYouMean") return `${diagnosis}; set "status" to ${quote(data("suggestion"))}`;
  if (advice === "use") return `${diagnosis}${data("hint")}`;
  return `${diagnosis}${data("hint")}; set "status" to one of the allowed values`;
}

const ARTIFACT_SHAPE = '{"type": …, "path": …, "summary": …}';

/**
 * What is wrong and what to do, addressed to the subagent, for the built-in rules' findings, from
 * their data. Made on first use: a run that words no reask line never builds it.
 */
const instructions = (): Readonly<Record<string, (problem: Problem) => string>> => ({
  "json-structure/missingFile": ({ data }) =>
    `you wrote no return metadata file; write ${data("file") === "" ? "specs/{N}_{SLUG}/.return-meta.json" : data("file")} (status, artifacts, metadata) before you finish`,
  "json-structure/emptyInput": () => "your reply is empty; end it with your JSON return (status, summary, artifacts, metadata)",
  "json-structure/noReturn": () => "your reply contains no JSON object; end it with your JSON return, not prose",
  "json-structure/syntaxError": (problem) => `the return is not valid JSON (${lowerFirst(parseError(problem))}); fix the JSON there and send the whole object again`,
  "json-structure/trailingText": (problem) => `there is text after the JSON object (${parseError(problem)}); end your reply with the object and nothing after it`,
  "json-structure/notAnObject": ({ found }) =>
    `the return is ${quote(found)}, not an object; return one JSON object with status, summary, artifacts and metadata`,
  "required-fields/missingField": ({ field }) => `"${field}" is missing; add it`,
  "required-fields/missingMetadataField": ({ field }) => `"${field}" is missing; add it`,
  "required-fields/wrongType": ({ data }) => `"${data("field")}" must be ${data("expected")}; received ${data("actual")} ${data("value")}; change it to that type`,
  "status-enum/invalidStatus": statusInstruction,
  "status-enum/notAString": statusInstruction,
  // Never the expected id: a subagent told it would copy it, and the check would prove nothing.
  "session-id/mismatch": ({ found }) =>
    `the session id ${quote(found)} is not the one you were delegated; return the session id from your delegation context, unchanged`,
  "session-id/misplaced": ({ field, data }) => `the session id is at ${field}, but this format keeps it at ${data("field")}; move it there`,
  "artifacts/phantomWork": ({ status }) =>
    `status ${quote(status ?? "")} says the work is done but "artifacts" is empty; write the files and list each as ${ARTIFACT_SHAPE}, or set status to "partial"`,
  "artifacts/bareString": ({ found }) => `the artifact is a bare path; make it an object: {"type": …, "path": ${quote(found)}, "summary": …}`,
  "artifacts/notAnObject": ({ found }) => `the artifact is ${quote(found)}, not an object; make it ${ARTIFACT_SHAPE}`,
  "artifacts/missingPath": () => 'the artifact has no "path"; add the path of the file you wrote, relative to the project root',
  "artifacts/pathNotString": ({ found }) => `"path" is ${quote(found)}, not a string; give the file's path as a string relative to the project root`,
  "artifacts/emptyPath": () => '"path" is empty; give the path of the file you wrote',
  "artifacts/nulByte": (problem) => `the path ${artifactPath(problem)} contains a NUL byte; fix the path`,
  "artifacts/absolutePath": (problem) => `the path ${artifactPath(problem)} is absolute; make it relative to the project root`,
  "artifacts/homeRelativePath": (problem) => `the path ${artifactPath(problem)} starts with "~", which only a shell expands; make it relative to the project root`,
  "artifacts/returnFile": (problem) => `${artifactPath(problem)} is a return file, not work; list the files your work produced`,
  "artifacts/escapesRoot": (problem) => `the path ${artifactPath(problem)} leads outside the project root; write the file inside the project and give its relative path`,
  "artifacts/symlinkEscapesRoot": (problem) => `${artifactPath(problem)} is a symlink leading outside the project; write the real file inside the project`,
  "artifacts/symlinkLoop": (problem) => `${artifactPath(problem)} is a symlink loop; replace it with the file itself`,
  "artifacts/notFound": (problem) => `file ${artifactPath(problem)} does not exist; write it, or fix the path`,
  "artifacts/notAFile": (problem) => `${artifactPath(problem)} is a ${problem.data("kind")}, not a file; point "path" at the file you wrote`,
  "artifacts/nameTooLong": (problem) => `the path ${artifactPath(problem)} is too long for the file system; use a shorter name`,
  "artifacts/unreadable": (problem) => `file ${artifactPath(problem)} cannot be read; make it readable, or fix the path`,
  "artifacts/empty": (problem) => `file ${artifactPath(problem)} is empty; write its content`,
  "early-metadata/notFinished": () =>
    'status "in_progress" says your work is not finished; finish it and set the success status, or set status to "partial" with errors[] saying what is left',
  "summary-length/tooLong": ({ data }) =>
    `the summary is ${data("length")} characters, over the ${data("max")} recommended; shorten it to 2-5 sentences and put the details in an artifact`,
});

let instructionTable: ReturnType<typeof instructions> | undefined;

/** The line for a finding (`ruleId/messageId`) this file words; undefined for the others. */
function instructionFor(finding: string): ((problem: Problem) => string) | undefined {
  instructionTable ??= instructions();
  return Object.hasOwn(instructionTable, finding) ? instructionTable[finding] : undefined;
}

/** The findings (`ruleId/messageId`) this file words a line for; the other built-in ones word their own `reask`. */
export function instructedFindings(): ReadonlySet<string> {
  instructionTable ??= instructions();
  return new Set(Object.keys(instructionTable));
}

/** The `Error: …` line of a result's detail, without its label. */
function errorOf(result: Result): string | undefined {
  const line = result.detail?.split("\n").find((candidate) => candidate.startsWith("Error: "));
  return line?.slice("Error: ".length);
}

/**
 * For a finding no entry above knows and whose rule words no `reask` line (a custom
 * rule's, mostly): its diagnosis and its recommendation, as the rule wrote them, the
 * recommendation turned to the subagent when it begins with the `Fix {subagent} to`
 * core filled in.
 */
function fallback(result: Result, agent: string): string {
  const what = errorOf(result) ?? result.message;
  const recommendation = result.recommendation;
  if (recommendation === undefined) return `${lowerFirst(what)}; fix it`;
  const addressed = `Fix ${subagentName(agent)} to `;
  return `${lowerFirst(what)}; ${lowerFirst(recommendation.startsWith(addressed) ? recommendation.slice(addressed.length) : recommendation)}`;
}

/** One line, its whitespace runs made single spaces, ending with exactly one full stop. */
function sentence(text: string): string {
  let line = "";
  let space = false;
  for (const char of text) {
    // trim() removes exactly the characters JavaScript counts as white space and line ends.
    if (char.trim() === "") {
      space = line !== "";
      continue;
    }
    if (space) line += " ";
    space = false;
    line += char;
  }
  while (line.endsWith(".")) line = line.slice(0, -1);
  return `${line}.`;
}

/** Results that are returnlint's own failures (a rule crashed or timed out): nothing the subagent can fix. */
const INTERNAL = new Set(["ruleCrashed", "ruleTimedOut"]);

/**
 * The lines for the subagent: one imperative line per problem, with its JSON
 * Pointer, that it can act on with no other context. A rule that words its own
 * (`reask` in its message) is taken at its word; internal errors are left out.
 */
export function reaskLines(input: Pick<FormatterInput, "report" | "value" | "maxWarnings">): string[] {
  const internal = input.report.internalError;
  return failing(input)
    .filter((result) => !(internal && INTERNAL.has(result.messageId)))
    .map((result) => `- ${reaskLine(result, input.value, input.report.agent)}`);
}

/**
 * One problem for the subagent: `/pointer: what to change.` (`(the whole return)` when
 * there is no pointer). `agent` is the report's agent (the name core filled into the
 * rule's messages); without it, the return's own agent_type.
 */
export function reaskLine(result: Result, value: unknown, agent: string = agentName({}, value)): string {
  const pointer = result.pointer;
  const reported = result.data ?? {};
  const problem: Problem = {
    result,
    found: pointer === undefined ? undefined : valueAt(value, pointer),
    field: pointer === undefined ? "" : tokensOf(pointer).join("."),
    status: isObject(value) && typeof value.status === "string" ? value.status : undefined,
    data: (key) => (Object.hasOwn(reported, key) ? String(reported[key]) : ""),
  };
  const instruct = instructionFor(`${result.ruleId}/${result.messageId}`);
  const line = result.reask ?? (instruct === undefined ? fallback(result, agent) : instruct(problem));
  return `${pointer === undefined || pointer === "" ? "(the whole return)" : pointer}: ${sentence(line)}`;
}

/**
 * For the subagent itself: its problems and nothing else (no passes, no summary).
 * A return that passed gets one line saying so; one whose only failures are
 * returnlint's own gets nothing (exit 2 tells the orchestrator not to re-ask).
 * Of several returns, each is under a line naming its task (or file), for the
 * subagent that wrote it.
 */
export const reask: Formatter = (inputs, { several }) => {
  if (!several) return inputs.map(reaskText).join("");
  return inputs
    .map((input) => {
      const text = reaskText(input);
      return text === "" ? "" : `${input.task === undefined ? input.source : `Task ${input.task}`} (${input.source}):\n${text}`;
    })
    .filter((text) => text !== "")
    .join("\n");
};

/** One return's text for its subagent. */
function reaskText(input: FormatterInput): string {
  const status = isObject(input.value) && typeof input.value.status === "string" ? input.value.status : undefined;
  if (passed(input)) return `The return is valid${status === undefined ? "" : ` (status ${JSON.stringify(status)})`}; nothing to fix.\n`;
  const lines = reaskLines(input);
  return lines.length === 0 ? "" : `${lines.join("\n")}\n`;
}
