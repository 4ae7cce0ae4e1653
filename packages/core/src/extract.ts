import { meantAsJson } from "./json.js";
import { isObject } from "./pointer.js";

/**
 * Where a return was found: the whole text was the JSON (`bare`), it sat in a
 * fenced code block inside prose (`fenced`), in an OpenCode `<task_result>`
 * (`task_result`), in a metadata file (`file`, set by the caller that read it),
 * or nowhere (`none`: the text is handed on as it is, for json-structure to diagnose).
 */
export type ReturnOrigin = "bare" | "fenced" | "task_result" | "file" | "none";

export interface ExtractedReturn {
  /** The text the rules parse. */
  readonly text: string;
  readonly origin: ReturnOrigin;
  /** The text, parsed, when finding it took parsing it: `parseReturn(text, parsed)` does not parse it again. */
  readonly parsed?: { readonly value: unknown };
}

const TASK_RESULT_OPEN = "<task_result>";
const TASK_RESULT_CLOSE = "</task_result>";
/** An opening or closing fence: up to three spaces, three or more backticks, an info string. */
const FENCE = /^ {0,3}(`{3,})\s*([^`\s]*)[^`]*$/;

/**
 * Finds the return in what a subagent said. In order: the whole text is JSON;
 * else the inside of the last `<task_result>…</task_result>` (searched again the
 * same way); else the last ```json or bare ``` block that parses to an object;
 * else the text itself.
 *
 * A text that starts like JSON but does not parse stays `bare`, so that its syntax
 * error is reported where it is; a ```json block that does not parse is returned
 * (the last one) when no block parses, for the same reason.
 */
export function extractReturn(text: string): ExtractedReturn {
  const taskResult = lastTaskResult(text);
  if (taskResult !== undefined && !parsesAsJson(text)) {
    const inner = extractFromMessage(taskResult);
    return { text: inner?.text ?? taskResult, origin: "task_result", ...(inner?.parsed === undefined ? {} : { parsed: inner.parsed }) };
  }
  return extractFromMessage(text) ?? { text, origin: "none" };
}

function extractFromMessage(text: string): ExtractedReturn | undefined {
  const whole = tryParse(text);
  if (whole !== undefined) return { text, origin: "bare", parsed: { value: whole } };
  const blocks = fencedBlocks(text);
  for (let index = blocks.length - 1; index >= 0; index--) {
    const body = blocks[index]?.body ?? "";
    const value = tryParse(body);
    if (isObject(value)) return { text: body, origin: "fenced", parsed: { value } };
  }
  // Meant as JSON, but broken: the rules say where.
  if (/^\s*[{[]/.test(text)) return { text, origin: "bare" };
  const broken = blocks.findLast((block) => block.info === "json");
  return broken === undefined ? undefined : { text: broken.body, origin: "fenced" };
}

function lastTaskResult(text: string): string | undefined {
  const open = text.lastIndexOf(TASK_RESULT_OPEN);
  if (open === -1) return undefined;
  const start = open + TASK_RESULT_OPEN.length;
  const close = text.indexOf(TASK_RESULT_CLOSE, start);
  if (close === -1) return undefined;
  // OpenCode puts the result on lines of its own between the tags.
  return text.slice(start, close).replace(/^\r?\n/, "").replace(/\r?\n$/, "");
}

interface FencedBlock {
  /** The fence's info string, lower-cased: "json", "" for a bare fence, … */
  readonly info: string;
  readonly body: string;
}

/** The ```json and bare ``` blocks of a Markdown text, in order (CommonMark's fence rules, simplified). */
function fencedBlocks(text: string): FencedBlock[] {
  const blocks: FencedBlock[] = [];
  const lines = text.split(/\r?\n/);
  let open: { fence: string; info: string; start: number } | undefined;
  for (const [index, line] of lines.entries()) {
    const fence = FENCE.exec(line);
    if (open === undefined) {
      if (fence !== null) open = { fence: fence[1] ?? "```", info: (fence[2] ?? "").toLowerCase(), start: index + 1 };
      continue;
    }
    const closes = fence !== null && (fence[1] ?? "").length >= open.fence.length && fence[2] === "" && line.trim() === fence[1];
    if (!closes) continue;
    if (open.info === "json" || open.info === "") blocks.push({ info: open.info, body: lines.slice(open.start, index).join("\n") });
    open = undefined;
  }
  return blocks;
}

function parsesAsJson(text: string): boolean {
  return tryParse(text) !== undefined;
}

function tryParse(text: string): unknown {
  // Prose never parses: no SyntaxError is made for it (see meantAsJson).
  if (!meantAsJson(text)) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
