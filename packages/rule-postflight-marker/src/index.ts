import path from "node:path";
import { defineRule, docsUrl, isObject } from "@returnlint/core";

const MARKER = ".postflight-pending";
/** Enough for the marker's few fields; a larger file is described without them. */
const MARKER_MAX_BYTES = 4096;

/** What the marker says about the postflight it stands for: ` (skill …, operation …, session …)`, or nothing. */
function describeMarker(text: string | null): string {
  if (text === null) return "";
  let marker: unknown;
  try {
    marker = JSON.parse(text);
  } catch {
    return "";
  }
  if (!isObject(marker)) return "";
  const said = (["skill", "operation", "session_id"] as const).flatMap((field) => {
    const value = marker[field];
    return typeof value === "string" && value !== "" ? [`${field === "session_id" ? "session" : field} ${value.slice(0, 80)}`] : [];
  });
  return said.length === 0 ? "" : ` (${said.join(", ")})`;
}

/**
 * A skill writes `.postflight-pending` into the task folder before it delegates and removes it when
 * its postflight is done; the stop hook reads it. Beside a return that says the work finished, it
 * means the postflight never finished (or is running now).
 */
export default defineRule(docsUrl)({
  id: "postflight-marker",
  meta: {
    description: "No .postflight-pending marker is left beside a finished return read from a task folder: the postflight that should follow it finished.",
    schema: { type: "object", additionalProperties: false },
    defaultOptions: {},
    messages: {
      markerLeft: {
        text: "A {marker} marker is left beside this {status} return{described}: the postflight never finished",
        detail: "Warning: the skill removes the marker when its postflight is done; the task's state may not say what the return says",
        recommendation: "Run the postflight for this task again, or remove {marker} once its work is recorded",
      },
    },
  },
  check(context) {
    const { returnFile } = context.expected;
    const { status } = context.value;
    // In progress, the marker is expected: the postflight has not started.
    if (returnFile === undefined || typeof status !== "string" || status === "in_progress") return;
    const marker = path.join(path.dirname(returnFile), MARKER);
    const found = context.files.check(marker);
    // Absent, the usual case, says nothing: the transcript of every finished return would grow by a line.
    if (!found.ok && found.problem === "notFound") return;
    const described = describeMarker(found.ok ? context.files.read(marker, MARKER_MAX_BYTES) : null);
    context.report({ messageId: "markerLeft", data: { marker, status: status.slice(0, 40), described }, pointer: "/status" });
  },
});
