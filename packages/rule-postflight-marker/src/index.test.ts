import { describe, it } from "vitest";
import { RuleTester } from "@returnlint/rule-tester";
import rule from "./index.js";

const folder = "specs/042_prove_lemma";
const returnFile = `${folder}/.return-meta.json`;
const marker = `${folder}/.postflight-pending`;
const written = JSON.stringify({ session_id: "sess_1768788507_c30ebc", skill: "skill-implementer", task_number: 42, operation: "implement", reason: "postflight pending", stop_hook_active: true });
const finished = { status: "implemented", artifacts: [] };

new RuleTester({ describe, it }).run(rule, {
  valid: [
    { name: "a finished return, no marker", input: finished, expected: { returnFile } },
    { name: "in progress: the marker is expected", input: { status: "in_progress", artifacts: [] }, expected: { returnFile }, files: { [marker]: written } },
    { name: "a console return (no file): nothing to look beside", input: finished, files: { ".postflight-pending": written } },
    { name: "a marker in another task's folder", input: finished, expected: { returnFile }, files: { "specs/043_other/.postflight-pending": written } },
    { name: "no status: required-fields reports it", input: { artifacts: [] }, expected: { returnFile }, files: { [marker]: written } },
  ],
  invalid: [
    {
      name: "the marker left beside an implemented return, with what it says",
      input: finished,
      expected: { returnFile },
      files: { [marker]: written },
      errors: [
        {
          messageId: "markerLeft",
          pointer: "/status",
          message: `A ${marker} marker is left beside this implemented return (skill skill-implementer, operation implement, session sess_1768788507_c30ebc): the postflight never finished`,
        },
      ],
    },
    { name: "beside a partial return", input: { status: "partial", artifacts: [] }, expected: { returnFile }, files: { [marker]: "{}" }, errors: [{ messageId: "markerLeft", message: "beside this partial return: the postflight" }] },
    { name: "a marker that is not JSON still counts", input: finished, expected: { returnFile }, files: { [marker]: "pending\n" }, errors: [{ messageId: "markerLeft", message: "implemented return: the postflight never finished" }] },
    { name: "an empty marker", input: { status: "researched", artifacts: [] }, expected: { returnFile }, files: { [marker]: "" }, errors: [{ messageId: "markerLeft" }] },
    { name: "an archived task's folder", input: finished, expected: { returnFile: "specs/archive/007_add_cache/.return-meta.json" }, files: { "specs/archive/007_add_cache/.postflight-pending": written }, errors: [{ messageId: "markerLeft", message: "specs/archive/007_add_cache/.postflight-pending" }] },
  ],
});
