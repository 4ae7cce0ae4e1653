/**
 * The orchestrator handoff: `specs/{NNN}_{SLUG}/.orchestrator-handoff.json`, written when an
 * orchestrated implementation stops, so that the next session can resume it.
 */
export default {
  name: "handoff",
  format: "handoff",
  description: "specs/{NNN}_{SLUG}/.orchestrator-handoff.json files: the wrap-up contract of an orchestrated implementation",
  rules: {
    "json-structure": "error",
    handoff: "error",
  },
} as const;
