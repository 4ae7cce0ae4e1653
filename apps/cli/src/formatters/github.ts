import { lineOf } from "./locate.js";
import { messageText } from "./message.js";
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

/** One annotation: `::error file=…,line=…,title=…::message` (a warning: `::warning …`); a file and a line only when there are some. */
export function workflowCommand(command: "error" | "warning", where: { readonly file?: string; readonly line?: number; readonly title: string }, message: string): string {
  const properties = [
    ...(where.file === undefined ? [] : [`file=${escapeProperty(where.file)}`]),
    ...(where.line === undefined ? [] : [`line=${String(where.line)}`]),
    `title=${escapeProperty(where.title)}`,
  ];
  return `::${command} ${properties.join(",")}::${escapeData(message)}`;
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
  const file = input.source === "<stdin>" ? undefined : input.source;
  const lines = problems(input).map((result) =>
    workflowCommand(
      result.level === "fail" || countsWarnings ? "error" : "warning",
      {
        ...(file === undefined ? {} : { file, line: lineOf(input, result.pointer) }),
        title: `returnlint ${result.ruleId}${result.pointer === undefined || result.pointer === "" ? "" : ` at ${result.pointer}`}`,
      },
      messageText(result),
    ),
  );
  return lines.length === 0 ? "" : `${lines.join("\n")}\n`;
}
