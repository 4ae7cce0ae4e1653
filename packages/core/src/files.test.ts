import { mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createFileView } from "./files.js";

const root = mkdtempSync(path.join(tmpdir(), "returnlint-files-"));
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

describe("createFileView().check", () => {
  it("gives a file's size and modification time (evidence of when it was written)", async () => {
    const written = new Date("2026-01-28T10:31:12.000Z");
    writeFileSync(path.join(root, "report.md"), "# Report\n");
    utimesSync(path.join(root, "report.md"), written, written);
    expect(await createFileView(root).check("report.md")).toEqual({ ok: true, kind: "file", size: 9, mtimeMs: written.getTime(), path: "report.md" });
  });
});
