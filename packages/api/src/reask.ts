import { agentName, isObject, subagentName, type Result } from "@returnlint/core";
import type { Formatter, FormatterInput } from "./formatter-types.js";
import { failing, passed } from "./verdict.js";

/*
 * The words addressed to the subagent are its rules': each finding's `reask`, the line of the
 * message it reported, filled by core from the finding's data. This file knows no rule by name:
 * it puts each line after its pointer, words one from `detail` and `recommendation` for a rule
 * that gives none, and says when there is nothing to fix.
 */

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}

/** The `Error: …` line of a result's detail, without its label. */
function errorOf(result: Result): string | undefined {
  const line = result.detail?.split("\n").find((candidate) => candidate.startsWith("Error: "));
  return line?.slice("Error: ".length);
}

/**
 * For a finding whose rule words no `reask` line (a custom rule's, mostly): its
 * diagnosis and its recommendation, as the rule wrote them, the recommendation turned
 * to the subagent when it begins with the `Fix {subagent} to` core filled in.
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
  const line = result.reask ?? fallback(result, agent);
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
