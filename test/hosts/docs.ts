import { readFileSync } from "node:fs";
import path from "node:path";
import { REPO } from "./hosts.js";

/**
 * A code block of the docs, marked `<!-- hosts-suite: NAME -->` on the line before its
 * fence: the suite runs what the docs show, so that the docs cannot drift from what works.
 */
export function snippet(name: string, file = "docs/hosts.md"): string {
  const text = readFileSync(path.join(REPO, file), "utf8");
  const marker = `<!-- hosts-suite: ${name} -->`;
  const at = text.indexOf(marker);
  if (at === -1) throw new Error(`${file} has no block marked ${marker}`);
  const block = /^\s*```[\w-]*\n([\s\S]*?)\n```/.exec(text.slice(at + marker.length));
  if (block?.[1] === undefined) throw new Error(`${marker} in ${file} is not followed by a fenced code block`);
  return block[1];
}

/** A JSON block of the docs, parsed; a block that shows members of an object (`"command": …`) is read as that object. */
export function jsonSnippet(name: string, file?: string): Record<string, unknown> {
  const text = snippet(name, file);
  return JSON.parse(text.trimStart().startsWith("{") ? text : `{${text}}`) as Record<string, unknown>;
}

/** The commands of a shell block of the docs, one a line, comments left out. */
export function commandLines(name: string, file?: string): string[] {
  return snippet(name, file)
    .split("\n")
    .map((line) => line.replace(/\s+#.*$/, "").trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
}
