/**
 * v7: the command files Stage 3 generation (subagent-return-validation.md). The
 * session id and the delegation fields live under `metadata`; statuses are the
 * legacy four. For orchestration-validation.md's contextual console returns, set
 * `status-enum` to `{ variant: "contextual" }` on top of this preset.
 */
export default {
  name: "v7",
  format: "v7",
  description: "v7 console returns: legacy statuses, metadata.session_id and delegation fields required",
  rules: {
    "json-structure": "error",
    "required-fields": [
      "error",
      {
        fields: [
          "status",
          "summary",
          "artifacts",
          "metadata",
          "metadata.session_id",
          "metadata.agent_type",
          "metadata.delegation_depth",
          "metadata.delegation_path",
        ],
      },
    ],
    "status-enum": ["error", { variant: "legacy" }],
    "session-id": ["error", { field: "metadata.session_id" }],
    delegation: ["error", { requireFields: "off", pathEnd: "warn" }],
    artifacts: "error",
    "completion-data": "error",
    "error-details": "warn",
    "summary-length": ["warn", { maxChars: 400 }],
  },
} as const;
