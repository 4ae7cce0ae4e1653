/**
 * The orchestrator handoff: `specs/{NNN}_{SLUG}/.orchestrator-handoff.json`, written when an
 * orchestrated implementation stops, so that the next session can resume it.
 */
export default {
  name: "handoff",
  format: "handoff",
  description: "specs/{NNN}_{SLUG}/.orchestrator-handoff.json files: the wrap-up contract of an orchestrated implementation and the artifacts it lists",
  rules: {
    "json-structure": "error",
    handoff: "error",
    // A handoff's own artifacts are checked like any return's; the task's are in its metadata file.
    artifacts: ["error", { requireArtifacts: false }],
  },
} as const;
