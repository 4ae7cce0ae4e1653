import type { ReturnFacts } from "./facts.js";
import type { ValidationReport } from "./validate.js";

/** What a formatter may say about a rule that was configured for the return. */
export interface RuleInfo {
  readonly id: string;
  /** The rule's one-line description (`meta.description`). */
  readonly description: string;
  /** The rule's docs URL (`meta.docs`). */
  readonly docs: string;
  /** False when the rule was configured but did not run: it needs a JSON object and the return is not one. */
  readonly ran: boolean;
}

export interface FormatterInput {
  readonly report: ValidationReport;
  /** What the return claims and what became of it (the library's `lint`). */
  readonly facts: ReturnFacts;
  /** The file the return came from, relative to `cwd` when it is below it, or "<stdin>". */
  readonly source: string;
  /** The directory returnlint ran in: what `source` is relative to. */
  readonly cwd: string;
  /** The task number (`check --task`), so that a report among several names its task. */
  readonly task?: string;
  /** The return as the rules checked it (byte-order mark removed; found inside prose, when it was). */
  readonly text: string;
  /** The line of the input on which `text` starts: 1 unless the return was found inside prose. */
  readonly firstLine: number;
  /** The parsed return; undefined when it is not JSON. */
  readonly value: unknown;
  /** The rules configured for this return, in the order they ran. */
  readonly rules: readonly RuleInfo[];
  /** `--max-warnings`: more warnings than this make the return fail. */
  readonly maxWarnings?: number;
  readonly color: boolean;
  /** Failures only. */
  readonly quiet: boolean;
}

/** What a formatter is told about the run as a whole, besides the returns (ESLint hands its formatters a context too). */
export interface FormatterRun {
  /**
   * Several returns were asked for (`check --task 7,9-11`): the document is the one for several
   * (a JSON array, a closing verdict, a heading per return) however many of them could be read,
   * so that its shape follows the question and not the answer. False: one return was asked for,
   * and the list holds it.
   */
  readonly several: boolean;
  /** The command that ran (`check`, `scan`): a format that files its findings by category (SARIF) names it. Default `check`. */
  readonly command?: string;
}

/**
 * Every output format has this one shape: the returns, in the order given, as one document. One
 * return is a list of one; the formats that print it differently from several (a JSON object rather
 * than an array, no closing verdict) learn which it is from `run`.
 */
export type Formatter = (inputs: readonly FormatterInput[], run: FormatterRun) => string;
