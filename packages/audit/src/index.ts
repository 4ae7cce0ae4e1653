export { auditNotices, auditVerdict, renderAudit, runAudit, type AuditFormat, type AuditOptions, type AuditProgress, type AuditRun } from "./audit.js";
export { auditCacheDir } from "./cache.js";
export type { AuditDocument } from "./document.js";
export type { Forge } from "./forge.js";
export { mergeAudits, type MergedAudit, type RepositoryTally } from "./merge.js";
export { mergedVerdict, renderMerged, type MergeFormat } from "./merge-report.js";
export { auditLines, renderNdjson, type AuditLine } from "./ndjson.js";
export type { AuditedReturn, AuditFailure, UnreadableReturn } from "./returns.js";
export type { AuditSummary, RuleTally, Tally, WorstReturn } from "./summary.js";

