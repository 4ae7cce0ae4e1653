import { describe, it } from "vitest";
import { RuleTester } from "@returnlint/rule-tester";
import rule from "./index.js";

const notes = "specs/042_prove_lemma/handoffs/phase-3.md";
const handoff = (fields: Record<string, unknown> = {}) => ({
  status: "partial",
  phases_completed: 2,
  phases_total: 5,
  blockers: [],
  continuation_context: "Resume at phase 3: the induction step",
  sorry_inventory: [],
  ...fields,
});
const without = (field: string) => Object.fromEntries(Object.entries(handoff()).filter(([name]) => name !== field));

new RuleTester({ describe, it }).run(rule, {
  valid: [
    { name: "a partial handoff with continuation context", input: handoff() },
    { name: "implemented, every phase done", input: handoff({ status: "implemented", phases_completed: 5, continuation_context: null }) },
    { name: "blocked with a continuation file", input: handoff({ status: "blocked", continuation_context: null, continuation_path: notes, blockers: ["lake build fails"] }), files: { [notes]: "# Phase 3\n" } },
    { name: "blockers may be null", input: handoff({ blockers: null }) },
    { name: "blocked may have every phase counted", input: handoff({ status: "blocked", phases_completed: 5 }) },
    { name: "no sorry_inventory outside skeleton mode (a hard-mode field)", input: without("sorry_inventory") },
    { name: "a plan phase's handoff", input: handoff({ status: "planned", phases_completed: 0, continuation_context: null, artifacts: [{ type: "plan", path: "specs/042_x/plans/implementation-001.md", summary: "Plan" }] }) },
    { name: "a research phase's, and one that asks for research first", input: handoff({ status: "researched", continuation_context: null }) },
    { name: "a plan phase's handoff with no phase counts (none has run)", input: { status: "planned", blockers: [], continuation_context: null } },
    { name: "needs research first", input: handoff({ status: "needs_research", continuation_context: null }) },
    { name: "failed", input: handoff({ status: "failed", continuation_context: null }) },
    { name: "a skeleton with its sorries listed", input: handoff({ status: "implemented", phases_completed: 5, skeleton: true, sorry_inventory: [{ strategic: true, assumption: "a", why_deferred: "b", follow_up_task: 43 }] }) },
    { name: "optional fields are free", input: handoff({ next_action_hint: "/implement 42", artifacts: [], summary: "Two phases done" }) },
    { name: "partial with blockers listed: the blockers are the way on", input: handoff({ continuation_context: null, blockers: [{ description: "lake build fails", phase: "phase-3" }] }) },
    { name: "partial with every phase done and a blocker saying why", input: handoff({ phases_completed: 5, continuation_context: null, blockers: ["the proof needs a lemma from task 43"] }) },
    // The family's orchestrator-handoff-v1 schema (handoff-schema.md): blockers optional, the phase counts in continuation_context.
    { name: "a v1 plan handoff: no blockers, no phase counts", input: { $schema: "orchestrator-handoff-v1", phase: "plan", status: "planned", summary: "Plan written", artifacts: [] } },
    {
      name: "a v1 partial handoff counts its phases in continuation_context",
      input: { $schema: "orchestrator-handoff-v1", phase: "implement", status: "partial", blockers: [], continuation_context: { handoff_path: notes, phases_completed: 2, phases_total: 4 } },
    },
  ],
  invalid: [
    { name: "status missing", input: without("status"), errors: [{ messageId: "missingField", pointer: "/status", message: "Missing required handoff field: status" }] },
    { name: "phases_total null", input: handoff({ phases_total: null }), errors: [{ messageId: "missingField", pointer: "/phases_total", message: "phases_total" }] },
    { name: "phases_completed missing", input: without("phases_completed"), errors: [{ messageId: "missingField", pointer: "/phases_completed" }] },
    { name: "blockers missing", input: without("blockers"), errors: [{ messageId: "missingBlockers", pointer: "/blockers", message: "Missing required handoff field: blockers" }] },
    {
      name: "a status outside the contract",
      input: handoff({ status: "completed" }),
      errors: [
        { messageId: "invalidStatus", pointer: "/status", message: '"status" must be one of researched, planned, implemented, needs_research, partial, failed, blocked in a handoff; received string "completed"' },
      ],
    },
    {
      name: "partial with no way to continue (a warning, as the projects' validate-handoff.sh says)",
      input: handoff({ continuation_context: null }),
      errors: [{ messageId: "noContinuation", pointer: "/continuation_path", message: "A partial handoff gives no way to continue", detail: "Warning: the next session needs" }],
    },
    { name: "blocked with no way to continue", input: { ...without("continuation_context"), status: "blocked" }, errors: [{ messageId: "noContinuation", message: "A blocked handoff" }] },
    {
      name: "partial with every phase done (a warning)",
      input: handoff({ phases_completed: 5 }),
      errors: [
        { messageId: "partialWithAllPhases", pointer: "/phases_completed", message: "Handoff says partial but phases_completed (5) is not less than phases_total (5)", detail: "Warning: a partial handoff has phases left" },
      ],
    },
    {
      name: "a v1 partial handoff with every phase counted in continuation_context",
      input: { $schema: "orchestrator-handoff-v1", status: "partial", continuation_context: { phases_completed: 4, phases_total: 4 } },
      errors: [{ messageId: "partialWithAllPhases", pointer: "/continuation_context/phases_completed" }],
    },
    { name: "a v1 handoff still needs its status", input: { $schema: "orchestrator-handoff-v1", phase: "plan", summary: "Plan written" }, errors: [{ messageId: "missingField", pointer: "/status" }] },
    {
      name: "a handoff naming no schema follows the wrap-up contract: phase counts and blockers required",
      input: { status: "implemented", summary: "Done" },
      errors: [{ messageId: "missingField", pointer: "/phases_completed" }, { messageId: "missingField", pointer: "/phases_total" }, { messageId: "missingBlockers", pointer: "/blockers" }],
    },
    { name: "a plan phase's handoff counts no phases, and still lists its blockers", input: { status: "planned", summary: "Plan written" }, errors: [{ messageId: "missingBlockers", pointer: "/blockers" }] },
    {
      name: "more phases completed than there are",
      input: handoff({ status: "implemented", phases_completed: 6 }),
      errors: [{ messageId: "completedOverTotal", pointer: "/phases_completed", message: "phases_completed (6) is greater than phases_total (5)" }],
    },
    { name: "a negative count", input: handoff({ phases_completed: -1 }), errors: [{ messageId: "invalidPhaseCount", pointer: "/phases_completed", message: "phases_completed is not a non-negative integer: received number -1" }] },
    { name: "a count as a string", input: handoff({ phases_total: "5" }), errors: [{ messageId: "invalidPhaseCount", pointer: "/phases_total", message: 'received string "5"' }] },
    {
      name: "no sorry_inventory where every handoff lists its sorries (a Lean project)",
      input: without("sorry_inventory"),
      options: { sorryInventory: "warn" },
      errors: [{ messageId: "missingSorryInventory", pointer: "/sorry_inventory", message: "Handoff has no sorry_inventory" }],
    },
    {
      name: "a skeleton that lists no sorries and is not implemented",
      input: handoff({ skeleton: true, sorry_inventory: [] }),
      errors: [
        { messageId: "skeletonNotImplemented", pointer: "/status", message: 'A skeleton handoff (skeleton: true) must have status implemented; received string "partial"' },
        { messageId: "skeletonWithoutSorries", pointer: "/sorry_inventory", message: "A skeleton handoff (skeleton: true) lists no sorry_inventory" },
      ],
    },
    {
      name: "a continuation path that does not exist",
      input: handoff({ continuation_path: notes }),
      errors: [{ messageId: "continuationPathInvalid", pointer: "/continuation_path", message: `Continuation path is not a file to resume from: ${notes} (no such file)` }],
    },
    { name: "a continuation path outside the root", input: handoff({ continuation_path: "../elsewhere.md" }), errors: [{ messageId: "continuationPathInvalid", message: "(the path leads outside the project root)" }] },
    { name: "a continuation path that is a folder", input: handoff({ continuation_path: "specs" }), files: { "specs/a.md": "x" }, errors: [{ messageId: "continuationPathInvalid", message: "(it is not a regular file)" }] },
    { name: "an empty continuation file", input: handoff({ continuation_path: notes }), files: { [notes]: "" }, errors: [{ messageId: "continuationPathEmpty", message: `Continuation path is an empty file: ${notes}` }] },
    { name: "a continuation path that is a number", input: handoff({ continuation_path: 3 }), errors: [{ messageId: "continuationPathNotString", pointer: "/continuation_path", message: "received number 3" }] },
  ],
});
