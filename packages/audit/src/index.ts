export { auditNotices, auditVerdict, renderAudit, runAudit, type AuditFormat, type AuditOptions, type AuditProgress, type AuditRun } from "./audit.js";
export type { AuditDocument } from "./document.js";
export type { Forge } from "./forge.js";
export type { AuditedReturn, AuditFailure, UnreadableReturn } from "./returns.js";
export type { AuditSummary, RuleTally, Tally, WorstReturn } from "./summary.js";
