import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tempProject } from "@returnlint/testing";
import { FileRefusedError, markedIn, readRegularFile, streamLines, type RefusalKind } from "./safe-fs.js";

// readRegularFile: the one way returnlint reads a file it reads for itself (a config, a manifest,
// an agent definition, a transcript). Nothing but a regular file is read, and never past a cap.

const root = tempProject({ "config.json": '{"preset":"v7"}\n', "big.txt": "x".repeat(100) });
execFileSync("mkfifo", [path.join(root, "pipe")]);
symlinkSync("/dev/zero", path.join(root, "zero"));
symlinkSync("config.json", path.join(root, "link.json"));
symlinkSync("missing.json", path.join(root, "dangling"));
mkdirSync(path.join(root, "folder"));

function refusal(name: string, maxBytes = 1024): { kind: RefusalKind; reason: string } | undefined {
  try {
    readRegularFile(path.join(root, name), { maxBytes });
    return undefined;
  } catch (error) {
    if (!(error instanceof FileRefusedError)) throw error;
    return { kind: error.kind, reason: error.reason };
  }
}

describe("readRegularFile", () => {
  it("reads a regular file, and one a symlink leads to", () => {
    expect(readRegularFile(path.join(root, "config.json"), { maxBytes: 1024 }).bytes.toString()).toBe('{"preset":"v7"}\n');
    expect(readRegularFile(path.join(root, "link.json"), { maxBytes: 1024 }).bytes.toString()).toBe('{"preset":"v7"}\n');
  });

  it.each([
    ["pipe", { kind: "notFile", reason: "it is a FIFO (named pipe), not a regular file" }],
    ["zero", { kind: "notFile", reason: "it is a character device, not a regular file" }],
    ["folder", { kind: "notFile", reason: "it is a directory, not a regular file" }],
    ["missing.json", { kind: "missing", reason: "it does not exist" }],
    ["dangling", { kind: "missing", reason: "it does not exist" }],
  ])("refuses %s without reading it", (name, expected) => {
    expect(refusal(name)).toEqual(expected);
  });

  it("refuses a file over the cap, or reads its head when asked to truncate", () => {
    expect(refusal("big.txt", 10)).toEqual({ kind: "tooLarge", reason: "it is larger than 10 bytes (100 bytes)" });
    const head = readRegularFile(path.join(root, "big.txt"), { maxBytes: 10, overLimit: "truncate" });
    expect(head.bytes.toString()).toBe("x".repeat(10));
    expect(head.truncated).toBe(true);
  });
});

describe("streamLines", () => {
  const marks = [Buffer.from('"tool_use"'), Buffer.from("Write\"")];
  /** Each line read back with the marks it holds, the file read `chunkBytes` at a time. */
  function lines(text: string, chunkBytes: number): [string, number][] {
    const file = path.join(tempProject(), "lines.jsonl");
    writeFileSync(file, text);
    const seen: [string, number][] = [];
    const { rest } = streamLines(file, { maxBytes: 1 << 20, chunkBytes, marks }, (raw, marked) => {
      seen.push([raw.toString("utf8"), marked]);
      return true;
    });
    if (rest.length > 0) seen.push([rest.toString("utf8"), markedIn(rest, marks)]);
    return seen;
  }

  const text = ['{"a":1}', '{"type":"tool_use","name":"Read"}', '{"type":"tool_use","name":"Write"}', "", '{"name":"Write"} and "tool_use"', '{"b":2}'].join("\n");
  const expected: [string, number][] = [
    ['{"a":1}', 0],
    ['{"type":"tool_use","name":"Read"}', 1],
    ['{"type":"tool_use","name":"Write"}', 3],
    ["", 0],
    ['{"name":"Write"} and "tool_use"', 3],
    ['{"b":2}', 0],
  ];

  it("gives each line with the marks it holds, each mark in the line it is in", () => {
    expect(lines(text, 64 * 1024)).toEqual(expected);
  });

  it("gives the same lines and marks read a few bytes at a time, marks cut by the chunks' ends included", () => {
    for (const chunkBytes of [3, 7, 10, 16, 33]) expect(lines(text, chunkBytes), String(chunkBytes)).toEqual(expected);
  });
});
