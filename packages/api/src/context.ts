import { isObject } from "@returnlint/core";
import { ruleText } from "./catalogue.js";
import type { FormatterInput } from "./formatter-types.js";
import type { ValidationReport } from "./validate.js";

/**
 * What formatters need besides the report, taken from it: the return as the rules saw it,
 * parsed, and the rules configured for it (with their descriptions and docs URLs). Nothing
 * is located, parsed or resolved again: `validate` did it once.
 */
export function formatterContext(report: ValidationReport): Pick<FormatterInput, "text" | "firstLine" | "value" | "rules"> {
  const { text, firstLine, value } = report;
  return {
    text,
    firstLine,
    value,
    // The runner skips a rule that needs an object when the return is not one.
    rules: report.rules.map((rule) => ({
      id: rule.id,
      ...ruleText(rule),
      ran: rule.meta.input === "text" || isObject(value),
    })),
  };
}
