/**
 * The multi-task return: `specs/.return-meta-multi.json` (or `specs/.return-meta-multi-sess_<id>.json`),
 * written by an orchestrator when it closes a batch of tasks. The session id is top level and optional.
 */
export default {
  name: "multi-task",
  format: "multi-task",
  description: "specs/.return-meta-multi*.json files: the return an orchestrator writes when it closes a batch of tasks",
  rules: {
    "json-structure": "error",
    "required-fields": [
      "error",
      {
        fields: ["status", "metadata", "metadata.tasks_completed", "metadata.tasks_failed", "metadata.cycles_used", "metadata.multi_task_mode"],
        types: {
          "metadata.tasks_completed": "array",
          "metadata.tasks_failed": "array",
          "metadata.cycles_used": "number",
          "metadata.multi_task_mode": "boolean",
        },
      },
    ],
    "session-id": ["error", { field: "session_id" }],
    "multi-task": "error",
  },
} as const;
