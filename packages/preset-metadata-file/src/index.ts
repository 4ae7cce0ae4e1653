/**
 * The metadata file (return-metadata-file.md): `specs/{N}_{SLUG}/.return-meta.json`.
 * Contextual statuses only (never `completed`), `in_progress` for early metadata,
 * and no summary: the file has none of its own (the validation documents bound a console return's
 * summary), so summary-length does not run on it.
 */
export default {
  name: "metadata-file",
  format: "metadata-file",
  description: "specs/{N}_{SLUG}/.return-meta.json files: contextual statuses, in_progress allowed, no summary of their own",
  rules: {
    "json-structure": "error",
    "required-fields": [
      "error",
      {
        fields: [
          "status",
          "artifacts",
          "metadata",
          "metadata.session_id",
        ],
      },
    ],
    "status-enum": ["error", { variant: "contextual", allowInProgress: true }],
    "session-id": ["error", { field: "metadata.session_id" }],
    delegation: ["error", { requireFields: "warn", pathEnd: "warn" }],
    artifacts: "error",
    "completion-data": "error",
    "error-details": "warn",
    "early-metadata": "error",
    "file-claims": "error",
    "memory-candidates": "error",
    "user-review": "warn",
    "postflight-marker": "warn",
  },
} as const;
