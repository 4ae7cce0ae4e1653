import { extractReturn, isObject, lineAndColumn, parseReturn, rulesFor, stripBom, type LoadedConfig, type ReturnOrigin } from "@returnlint/core";
import { ruleText } from "../catalogue.js";
import type { FormatterInput } from "@returnlint/api";

export interface ContextOptions {
  readonly command: string | null;
  readonly preset?: string;
  /** Where `validate` found the return (`report.origin`): "file" means the input was taken as it is. */
  readonly origin: ReturnOrigin;
}

/**
 * What formatters need besides the report: the return as the rules saw it, parsed,
 * and the rules configured for it (with their descriptions and docs URLs). It finds
 * the return and resolves the rules exactly as `validate` does, from the same
 * loaded config, because the report does not carry them.
 */
export function formatterContext(
  config: LoadedConfig,
  input: string,
  options: ContextOptions,
): Pick<FormatterInput, "text" | "firstLine" | "value" | "rules"> {
  const whole = stripBom(input);
  const text = options.origin === "file" ? whole : extractReturn(whole).text;
  // A return found inside prose (a fenced block, a <task_result>) starts further down the input.
  const start = whole.indexOf(text);
  const firstLine = start <= 0 ? 1 : lineAndColumn(whole, start).line;
  const parse = parseReturn(text);
  const value = parse.ok ? parse.value : undefined;
  const { rules } = rulesFor(config, {
    command: options.command,
    value,
    ...(options.preset === undefined ? {} : { preset: options.preset }),
    // A metadata file is in the metadata-file format whatever it holds (the reason is validate's to tell).
    ...(options.origin === "file" ? { source: "a metadata file" } : {}),
  });
  return {
    text,
    firstLine,
    value,
    // The runner skips a rule that needs an object when the return is not one.
    rules: rules.map(({ rule }) => ({
      id: rule.id,
      ...ruleText(rule),
      ran: rule.meta.input === "text" || isObject(value),
    })),
  };
}
