import type { ValidationReport } from "../api.js";

export interface FormatterInput {
  readonly report: ValidationReport;
  /** The file the return came from, or "<stdin>". */
  readonly source: string;
  readonly color: boolean;
  /** Failures only. */
  readonly quiet: boolean;
}

export type Formatter = (input: FormatterInput) => string;
