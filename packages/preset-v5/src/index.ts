/**
 * v5: the orchestrator Stage 4 generation (validation-rules.md). The session id
 * sits at the top level and is required there; statuses are the legacy four.
 */
export default {
  name: "v5",
  format: "v5",
  description: "v5 console returns: legacy statuses, top-level session_id, summary warned over 400 characters",
  rules: {
    "json-structure": "error",
    "required-fields": ["error", { fields: ["status", "summary", "artifacts", "metadata", "session_id"] }],
    "status-enum": ["error", { variant: "legacy" }],
    "session-id": ["error", { field: "session_id" }],
    delegation: ["error", { requireFields: "off", pathEnd: "warn" }],
    artifacts: "error",
    "completion-data": "error",
    "error-details": "warn",
    "summary-length": ["warn", { maxChars: 400 }],
  },
} as const;
