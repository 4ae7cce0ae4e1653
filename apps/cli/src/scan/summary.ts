import { EXIT, type ExitCode } from "@returnlint/core";
import type { Outcome } from "./check-one.js";

/** The counts a scan reports: returns by status, failures by rule, phantom work, passed and failed. */
export class Summary {
  total = 0;
  passed = 0;
  failed = 0;
  unreadable = 0;
  phantomWork = 0;
  /** Returns with at least one warning (a .postflight-pending marker left behind, …): `--format json` has them. */
  warned = 0;
  /** The exit code of the scan so far: the worst of its returns' (a file that cannot be read is an error). */
  exitCode: ExitCode = EXIT.passed;
  readonly byStatus = new Map<string, number>();
  readonly failuresByRule = new Map<string, number>();

  add(outcome: Outcome): void {
    this.total += 1;
    if ("unreadable" in outcome) {
      this.unreadable += 1;
      this.exitCode = EXIT.error;
      return;
    }
    const { report } = outcome;
    if (outcome.facts.phantom !== undefined) this.phantomWork += 1;
    if (outcome.ok) this.passed += 1;
    else this.failed += 1;
    if (report.warningCount > 0) this.warned += 1;
    this.exitCode = Math.max(this.exitCode, outcome.exitCode) as ExitCode;
    const status = report.status ?? "(no status)";
    this.byStatus.set(status, (this.byStatus.get(status) ?? 0) + 1);
    for (const result of report.results) {
      if (result.level === "fail") this.failuresByRule.set(result.ruleId, (this.failuresByRule.get(result.ruleId) ?? 0) + 1);
    }
  }
}
