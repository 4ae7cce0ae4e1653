import type { AuditDocument, AuditedReturn } from "@returnlint/audit";
import { workflowCommand } from "./github.js";
import { junitDocument, junitSuite } from "./junit.js";
import { sarifLocation, sarifLog, type SarifFinding } from "./sarif.js";
import { attributes, escapeXml } from "./xml.js";

// `returnlint audit` in the CI formats: the document an audit made, written by the formatters `check` and `scan` use.
// A version in history is located by its path and commit: its line is not kept, and the file may be gone from the tip.

/** The CI formats an audit speaks besides its own (stylish, json, html). */
export const AUDIT_CI_FORMATS = ["sarif", "junit", "github"] as const;
export type AuditCiFormat = (typeof AUDIT_CI_FORMATS)[number];

export function renderAuditCi(document: AuditDocument, format: AuditCiFormat): string {
  if (format === "sarif") return auditSarif(document);
  if (format === "junit") return auditJunit(document);
  return auditGithub(document);
}

const short = (commit: string): string => commit.slice(0, 12);

/** The judged versions that failed or are phantom work, each with what it claimed and did not do. */
function flagged(document: AuditDocument): readonly AuditedReturn[] {
  return document.returns.filter((audited) => !audited.early && (!audited.ok || audited.phantom));
}

function auditSarif(document: AuditDocument): string {
  const findings: SarifFinding[] = flagged(document).flatMap((audited) =>
    audited.failures.map((failure) => ({
      ruleId: failure.ruleId,
      level: "error" as const,
      message: `${failure.message}\nIn ${audited.path} as committed in ${short(audited.commit)} (${audited.date}).`,
      // The version's own line is not kept: the result points at the file it was, from its first line (code scanning wants a region).
      locations: [sarifLocation({ path: audited.path, line: 1 }, failure.pointer)],
      properties: {
        messageId: failure.messageId,
        ...(failure.pointer === undefined ? {} : { pointer: failure.pointer }),
        commit: audited.commit,
        date: audited.date,
        agent: audited.agent,
        command: audited.command,
        status: audited.status,
        phantom: audited.phantom,
      },
      identity: [audited.path, audited.commit, failure.ruleId, failure.messageId, failure.pointer ?? ""],
    })),
  );
  const { summary, repo } = document;
  return sarifLog([
    {
      command: "audit",
      root: repo.path,
      rules: [...new Set(findings.map((finding) => finding.ruleId))].map((id) => ({ id, description: `returnlint rule ${id}`, docs: "" })),
      findings,
      executionSuccessful: document.unreadable.length === 0 && summary.internalErrors === 0,
      ...(repo.web === null || repo.head === null ? {} : { versionControl: { repositoryUri: repo.web, revisionId: repo.head } }),
      properties: { returns: summary.returns, passed: summary.passed, failed: summary.failed, phantom: summary.phantom, unreadable: summary.unreadable, rev: repo.rev, head: repo.head },
    },
  ]);
}

/** One test suite per return file, one test case per committed version of it: a failure for each version that failed or is phantom work. */
function auditJunit(document: AuditDocument): string {
  const byPath = new Map<string, AuditedReturn[]>();
  for (const audited of document.returns) byPath.set(audited.path, [...(byPath.get(audited.path) ?? []), audited]);
  const suites = [...byPath].map(([file, versions]) => {
    let failures = 0;
    const cases = versions.map((audited) => {
      const head = `    <testcase${attributes({ name: `${file} at ${short(audited.commit)}`, classname: file, file })}`;
      if (audited.early || (audited.ok && !audited.phantom)) return `${head}/>`;
      failures += 1;
      const lines = [...(audited.phantom ? ["Phantom work: a success status while the work it claims is not in its commit."] : []), ...audited.failures.map((failure) => `[FAIL] ${failure.message} (${failure.ruleId})`)];
      const type = audited.failures[0]?.messageId ?? "phantomWork";
      return `${head}>\n      <failure${attributes({ message: lines[0] ?? "failed", type })}>${escapeXml(lines.join("\n"))}</failure>\n    </testcase>`;
    });
    return junitSuite(file, { tests: versions.length, failures, errors: 0, skipped: 0 }, {}, cases);
  });
  const unreadable = document.unreadable.map((skipped) => `    <testcase${attributes({ name: `${skipped.path} at ${short(skipped.commit)}`, classname: skipped.path, file: skipped.path })}>\n      <error${attributes({ message: skipped.unreadable, type: "unreadable" })}/>\n    </testcase>`);
  if (unreadable.length > 0) suites.push(junitSuite("unreadable versions", { tests: unreadable.length, failures: 0, errors: unreadable.length, skipped: 0 }, {}, unreadable));
  return junitDocument(suites);
}

/** An annotation per version that failed or is phantom work, on its file (GitHub lists one whose file left the tip in the run's summary). */
function auditGithub(document: AuditDocument): string {
  const lines = flagged(document).map((audited) => {
    const what = audited.failures.map((failure) => `${failure.message} (${failure.ruleId})`);
    const phantom = audited.phantom ? ["Phantom work: a success status while the work it claims is not in its commit."] : [];
    return workflowCommand("error", { file: audited.path, title: `returnlint audit: ${audited.path} at ${short(audited.commit)} (${audited.date.slice(0, 10)})` }, [...phantom, ...what].join("\n"));
  });
  const notices = document.unreadable.map((skipped) => workflowCommand("warning", { file: skipped.path, title: "returnlint audit: a version could not be read" }, skipped.unreadable));
  const all = [...lines, ...notices];
  return all.length === 0 ? "" : `${all.join("\n")}\n`;
}
