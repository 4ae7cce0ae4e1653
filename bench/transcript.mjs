// Case 10's pieces (issue 35): a Claude Code transcript of a given size, and the two ways of
// reading it that the case times side by side: the claims rules' reader (core's readRunFacts,
// streaming, parsing only the lines a fact can come from) and a plain line-by-line JSON.parse of
// every line, the floor any reader that looks at each entry pays.
import { Buffer } from "node:buffer";
import { closeSync, createReadStream, existsSync, openSync, statSync, writeSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";

/**
 * Writes a transcript of about `bytes`, as a long subagent's looks: a Bash call and its result
 * (a few kilobytes of output, every tenth a failing vitest run) after another, with the assistant
 * text, attachments and bookkeeping entries Claude Code 2.1.330 writes between them. Reused when
 * it is there with the right size.
 */
export function writeTranscript(file, bytes) {
  if (existsSync(file) && statSync(file).size >= bytes) return statSync(file).size;
  const fd = openSync(file, "w");
  const output = (index) =>
    `${"src/module.test.ts > a case that passes ✓ 3ms\n".repeat(60)}${index % 10 === 9 ? " Test Files  1 failed (1)\n      Tests  1 failed | 59 passed (60)\n" : " Test Files  1 passed (1)\n      Tests  60 passed (60)\n"}`;
  let written = 0;
  let index = 0;
  const line = (entry) => {
    const text = `${JSON.stringify(entry)}\n`;
    writeSync(fd, text);
    written += Buffer.byteLength(text);
  };
  line({ type: "user", uuid: "u", sessionId: "bench", cwd: "/project", version: "2.1.330", message: { role: "user", content: "Run the tests until they pass." } });
  while (written < bytes) {
    const id = `toolu_${String(index)}`;
    line({ type: "attachment", uuid: `t${String(index)}`, attachment: { type: "todo", content: [] }, timestamp: "2026-11-26T06:00:00.000Z" });
    line({ type: "assistant", uuid: `a${String(index)}`, cwd: "/project", message: { role: "assistant", content: [{ type: "text", text: "Running the tests again." }, { type: "tool_use", id, name: "Bash", input: { command: "pnpm vitest run", description: "Run the tests" } }] } });
    const failed = index % 10 === 9;
    line({ type: "user", uuid: `r${String(index)}`, cwd: "/project", message: { role: "user", content: [{ type: "tool_result", tool_use_id: id, content: failed ? `Exit code 1\n${output(index)}` : output(index), ...(failed ? { is_error: true } : {}) }] }, toolUseResult: { stdout: output(index), stderr: "", interrupted: false } });
    index += 1;
  }
  closeSync(fd);
  return written;
}

/** The floor: every line read and parsed, nothing kept. */
export async function parseEveryLine(file) {
  let entries = 0;
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  for await (const line of lines) {
    if (line === "") continue;
    JSON.parse(line);
    entries += 1;
  }
  return entries;
}

/** The claims rules' reader, from this build of core. */
export async function claimsReader(repo) {
  const core = await import(pathToFileURL(path.join(repo, "packages", "core", "dist", "index.js")).href);
  return (file) => core.readRunFacts(file, { root: "/project", maxBytes: 256 * 1024 * 1024 });
}
