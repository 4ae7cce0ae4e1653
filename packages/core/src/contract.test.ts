import { describe, expect, it } from "vitest";
import { claimMapOf, withoutAnnotations } from "./contract.js";

describe("claimMapOf", () => {
  it("finds each claim where the return holds it, through items, $ref, allOf and if/then", () => {
    const schema = {
      type: "object",
      "x-returnlint-success": { pointer: "/status", values: ["done"] },
      $defs: { path: { type: "string", "x-returnlint": "artifact" } },
      properties: {
        files: { type: "array", items: { $ref: "#/$defs/path" } },
        meta: { type: "object", properties: { session: { type: "string", "x-returnlint": "session-id" } } },
        runs: { type: "array", items: { type: "string", "x-returnlint": "command" } },
      },
      allOf: [{ properties: { tests: { type: "array", prefixItems: [{ type: "string", "x-returnlint": "test" }] } } }],
      if: { properties: { status: { const: "done" } } },
      then: { properties: { report: { type: "string", "x-returnlint": "artifact" } } },
    };
    const { map, problems } = claimMapOf(schema);
    expect(problems).toEqual([]);
    expect(map).toEqual({
      artifacts: ["/files/*", "/report"],
      sessionId: "/meta/session",
      success: { pointer: "/status", values: ["done"] },
      commands: ["/runs/*"],
      tests: ["/tests/0"],
    });
  });

  it("names every problem with its schema path: an unknown claim (with a guess), a claim on a non-string, two session ids, success below the root or malformed", () => {
    const { problems } = claimMapOf({
      "x-returnlint-success": { pointer: "status", values: [] },
      properties: {
        a: { type: "string", "x-returnlint": "artefact" },
        b: { type: "object", "x-returnlint": "artifact" },
        c: { type: "string", "x-returnlint": "session-id" },
        d: { type: "string", "x-returnlint": "session-id", "x-returnlint-success": { pointer: "/d", values: ["x"] } },
        e: { enum: ["x-returnlint"], const: { "x-returnlint": "not a schema" } },
      },
    });
    expect(problems).toEqual([
      '#/properties/a/x-returnlint: unknown claim "artefact"; the claims are artifact, session-id, command, test (did you mean "artifact"?)',
      '#/properties/d/x-returnlint-success: "x-returnlint-success" belongs at the root of the contract, where it says when the return\'s claims count',
      '#/properties/b/x-returnlint: an artifact claim marks a string (a path), or the items of an array of strings; this schema\'s type is "object"',
      '#/x-returnlint-success: must be {"pointer": a JSON Pointer such as "/status", "values": [the statuses that claim finished work]}; received {"pointer":"status","values":[]}',
      '#: "x-returnlint": "session-id" marks 2 places (/c, /d); a return answers one session',
    ]);
  });

  it("takes the annotations out for a host, and keeps values that only look like them", () => {
    const schema = { "x-returnlint-success": { pointer: "/s", values: ["ok"] }, properties: { p: { type: "string", "x-returnlint": "artifact", enum: ["x-returnlint"] } } };
    expect(withoutAnnotations(schema)).toEqual({ properties: { p: { type: "string", enum: ["x-returnlint"] } } });
  });
});
