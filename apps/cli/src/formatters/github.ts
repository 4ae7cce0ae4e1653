import type { Result } from "@returnlint/core";
import { lineOf } from "./locate.js";
import type { Formatter, FormatterInput } from "@returnlint/api";
import { problems, warningsFail } from "@returnlint/api";

/** A workflow command's message: %, CR and LF are escaped so that one result stays one command. */
function escapeData(text: string): string {
  return text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

/** A workflow command's property value: the message escapes, plus `:` and `,`, which end a property. */
function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, "%3A").replace(/,/g, "%2C");
}

function message(result: Result): string {
  return [result.message, result.detail, result.recommendation === undefined ? undefined : `Recommendation: ${result.recommendation}`]
    .filter((line) => line !== undefined)
    .join("\n");
}

/**
 * GitHub Actions workflow commands: `::error file=…,line=…,title=…::message` for a
 * failure and `::warning …` for a warning, which GitHub shows as annotations on the
 * return file. Nothing is printed for a return without problems; of several returns,
 * each one's commands follow the last one's (each names its file).
 */
export const github: Formatter = (inputs) => inputs.map(commands).join("");

function commands(input: FormatterInput): string {
  const countsWarnings = warningsFail(input);
  const lines = problems(input).map((result) => {
    const command = result.level === "fail" || countsWarnings ? "error" : "warning";
    const properties = [
      ...(input.source === "<stdin>" ? [] : [`file=${escapeProperty(input.source)}`, `line=${String(lineOf(input, result.pointer))}`]),
      `title=${escapeProperty(`returnlint ${result.ruleId}${result.pointer === undefined || result.pointer === "" ? "" : ` at ${result.pointer}`}`)}`,
    ];
    return `::${command} ${properties.join(",")}::${escapeData(message(result))}`;
  });
  return lines.length === 0 ? "" : `${lines.join("\n")}\n`;
}
