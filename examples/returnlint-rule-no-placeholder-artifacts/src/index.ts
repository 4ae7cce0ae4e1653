import { defineRule, isObject, pointerOf, successStatuses } from "@returnlint/core";

export interface Options {
  /** More placeholder patterns: regular expressions (case-sensitive), matched line by line. */
  patterns: string[];
  /** Which artifacts are read, by extension; an empty list reads every artifact. */
  extensions: string[];
  /** How much of each artifact is read. */
  maxBytes: number;
}

interface Placeholder {
  readonly pattern: RegExp;
  /** What the message calls it: `has a to-do marker "TODO"`. */
  readonly kind: string;
}

/** Text that only a template contains. Upper-case markers only: "todo list" in prose is not one. */
const PLACEHOLDERS: readonly Placeholder[] = [
  { pattern: /\b(?:TODO|TBD|TBA|FIXME)\b/, kind: "a to-do marker" },
  { pattern: /\{\{[^{}\n]*\}\}/, kind: "an unfilled template variable" },
  {
    pattern: /\[(?:placeholder|insert\b[^\]\n]*|to be (?:written|completed|determined)|(?:add|your) [^\]\n]*\bhere)\]/i,
    kind: "a bracketed placeholder",
  },
  { pattern: /\blorem ipsum\b/i, kind: "filler text" },
  { pattern: /\b(?:content|text|details|description|summary|findings) (?:goes|go|to go) here\b/i, kind: "a placeholder sentence" },
];

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*))?$/;
const LIST_MARKER = /^\s*(?:[-*+]|\d+[.)])(?:\s+|$)(?:\[[ xX]?\](?:\s+|$))?/;
const INLINE_CODE = /`[^`\n]*`/g;
const WORD = /[\p{L}\p{N}]/u;
const LISTED = 10;

interface Heading {
  readonly line: number;
  readonly level: number;
  readonly text: string;
  hasBody: boolean;
}

interface Found {
  readonly line: number;
  readonly text: string;
  readonly kind: string;
}

/** What an artifact's text holds: its headings (with or without a body), placeholders, and whether any line says something. */
interface Outline {
  readonly headings: readonly Heading[];
  readonly placeholders: readonly Found[];
  readonly hasContent: boolean;
}

/**
 * Reads Markdown (or plain text) line by line. Fenced code counts as content but is not
 * searched for placeholders, nor is inline code: a report may quote a template. HTML
 * comments, thematic breaks, front matter and empty list items are not content.
 */
function outline(text: string, placeholders: readonly Placeholder[]): Outline {
  const lines = text.split(/\r?\n/);
  const headings: Heading[] = [];
  const found: Found[] = [];
  let hasContent = false;
  let fence: string | undefined;
  let inComment = false;
  let start = 0;
  if (lines[0]?.trim() === "---") {
    const end = lines.indexOf("---", 1);
    if (end > 0) start = end + 1;
  }

  const body = () => {
    hasContent = true;
    const last = headings.at(-1);
    if (last !== undefined) last.hasBody = true;
  };

  for (let index = start; index < lines.length; index += 1) {
    const line = lines[index] ?? "";
    const number = index + 1;
    if (fence !== undefined) {
      if (line.trimStart().startsWith(fence) && line.trim().replace(/[`~]/g, "") === "") fence = undefined;
      else if (line.trim() !== "") body();
      continue;
    }
    const opening = FENCE.exec(line)?.[1];
    if (opening !== undefined) {
      fence = opening;
      continue;
    }
    for (const { pattern, kind } of placeholders) {
      const match = pattern.exec(line.replace(INLINE_CODE, ""));
      if (match !== null) {
        found.push({ line: number, text: match[0], kind });
        break;
      }
    }
    const { visible, stillInComment } = withoutComments(line, inComment);
    inComment = stillInComment;
    const heading = HEADING.exec(visible);
    if (heading !== null) {
      const level = heading[1]?.length ?? 1;
      const title = (heading[2] ?? "").replace(/[ \t]+#+[ \t]*$/, "").trim();
      headings.push({ line: number, level, text: `${"#".repeat(level)} ${title}`.trimEnd(), hasBody: false });
      continue;
    }
    if (WORD.test(visible.replace(LIST_MARKER, ""))) body();
  }
  return { headings, placeholders: found, hasContent };
}

function withoutComments(line: string, inComment: boolean): { visible: string; stillInComment: boolean } {
  let visible = "";
  let rest = line;
  let open = inComment;
  while (rest !== "") {
    const marker = open ? "-->" : "<!--";
    const at = rest.indexOf(marker);
    if (at < 0) return { visible: open ? visible : visible + rest, stillInComment: open };
    if (!open) visible += rest.slice(0, at);
    rest = rest.slice(at + marker.length);
    open = !open;
  }
  return { visible, stillInComment: open };
}

/** A heading with no body and no subsection: the next heading is at its level or above, or there is none. */
function emptyHeadings(headings: readonly Heading[], complete: boolean): Heading[] {
  return headings.filter((heading, index) => {
    if (heading.hasBody) return false;
    const next = headings[index + 1];
    if (next === undefined) return complete;
    return next.level <= heading.level;
  });
}

function listed(items: readonly string[]): string {
  const shown = items.slice(0, LISTED).join(", ");
  return items.length > LISTED ? `${shown}, and ${String(items.length - LISTED)} more` : shown;
}

function quoted(text: string): string {
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 39)}…` : text);
}

function compile(patterns: readonly string[]): Placeholder[] {
  return patterns.map((source, index) => {
    try {
      return { pattern: new RegExp(source, "u"), kind: `a match of patterns[${String(index)}] /${source}/` };
    } catch (error) {
      throw new Error(`options.patterns[${String(index)}] is not a valid regular expression: ${(error as Error).message}`, { cause: error });
    }
  });
}

const FINISH = "Verify {agent} writes the artifact's content before returning '{status}', or returns status partial";

/** A success status whose artifacts are empty templates is phantom work with a file attached. */
export default defineRule<Options>()({
  id: "no-placeholder-artifacts",
  meta: {
    description: "Artifacts of a success return are not templates: no TODO, {{placeholders}}, filler text, or headings with nothing under them.",
    docs: "https://github.com/returnlint/returnlint/blob/main/examples/returnlint-rule-no-placeholder-artifacts/README.md",
    schema: {
      type: "object",
      additionalProperties: false,
      properties: {
        patterns: {
          type: "array",
          items: { type: "string", minLength: 1 },
          description: "More placeholder patterns: regular expressions, case-sensitive, matched against each line.",
        },
        extensions: {
          type: "array",
          items: { type: "string", pattern: "^\\.[^./\\\\]+$" },
          description: "Extensions of the artifacts to read; an empty list reads every artifact.",
        },
        maxBytes: {
          type: "integer",
          minimum: 1,
          maximum: 16777216,
          description: "How many bytes of each artifact are read; past that, only placeholders are looked for.",
        },
      },
      required: ["patterns", "extensions", "maxBytes"],
    },
    defaultOptions: { patterns: [], extensions: [".md", ".markdown", ".mdx", ".txt"], maxBytes: 1048576 },
    messages: {
      placeholder: {
        text: "Artifact is an unfilled template: {path} line {line} has {kind} {found}",
        detail: "Error: placeholder text at {where}",
        recommendation: FINISH,
        reask: "{path} line {line} still has {kind} {found}; write the content it stands for, or set status to \"partial\"",
      },
      emptySection: {
        text: "Artifact has a heading with nothing under it: {path} line {line} {heading}",
        detail: "Error: {count} of {total} sections are empty: {where}",
        recommendation: FINISH,
        reask: "{path} has {count} empty sections ({where}); write what belongs under each heading, or set status to \"partial\"",
      },
      onlyHeadings: {
        text: "Artifact is only headings: {path} ({count} headings, no text under any of them)",
        detail: "Error: the file is an outline; no work was written into it",
        recommendation: FINISH,
        reask: "{path} is only headings; write the work into it, or set status to \"partial\"",
      },
      noContent: {
        text: "Artifact has no content: {path}",
        detail: "Error: the file holds only whitespace, comments or markup",
        recommendation: FINISH,
        reask: "{path} has no content; write the work into it, or set status to \"partial\"",
      },
      filled: { text: "Artifact is not a template: {path}" },
      partlyRead: { text: "Read the first {maxBytes} of {size} bytes of {path}; the rest was not checked" },
    },
  },
  check(context) {
    const { value, files, options } = context;
    const { status, artifacts } = value;
    if (typeof status !== "string" || !successStatuses(context.command).includes(status)) return;
    if (!Array.isArray(artifacts)) return;
    const placeholders = [...PLACEHOLDERS, ...compile(options.patterns)];

    for (const [index, entry] of (artifacts as unknown[]).entries()) {
      const named = typeof entry === "string" ? entry : isObject(entry) ? entry.path : undefined;
      if (typeof named !== "string") continue; // the artifacts rule reports it
      const extension = /\.[^./\\]+$/.exec(named)?.[0].toLowerCase() ?? "";
      if (options.extensions.length > 0 && !options.extensions.includes(extension)) continue;
      const checked = files.check(named);
      if (!checked.ok || checked.size === 0) continue; // missing and empty files are the artifacts rule's
      const read = files.read(named, options.maxBytes);
      if (read === null) continue;

      const complete = checked.size <= options.maxBytes;
      // A cut-off last line could turn "TODOS" into "TODO".
      const text = complete ? read : read.slice(0, Math.max(0, read.lastIndexOf("\n")));
      const pointer = typeof entry === "string" ? pointerOf("artifacts", index) : `${pointerOf("artifacts", index)}/path`;
      const data = { path: named, status };
      const { headings, placeholders: found, hasContent } = outline(text, placeholders);
      if (!complete) context.info({ messageId: "partlyRead", data: { path: named, maxBytes: options.maxBytes, size: checked.size } });

      if (complete && !hasContent) {
        context.report(
          headings.length === 0
            ? { messageId: "noContent", data, pointer }
            : { messageId: "onlyHeadings", data: { ...data, count: headings.length }, pointer },
        );
        continue;
      }
      const [first] = found;
      if (first !== undefined) {
        const where = listed(found.map((item) => `line ${String(item.line)} ${quoted(item.text)}`));
        context.report({ messageId: "placeholder", data: { ...data, line: first.line, kind: first.kind, found: quoted(first.text), where }, pointer });
      }
      const empty = emptyHeadings(headings, complete);
      const [firstEmpty] = empty;
      if (firstEmpty !== undefined) {
        const where = listed(empty.map((heading) => `line ${String(heading.line)} ${quoted(heading.text)}`));
        context.report({
          messageId: "emptySection",
          data: { ...data, line: firstEmpty.line, heading: quoted(firstEmpty.text), count: empty.length, total: headings.length, where },
          pointer,
        });
      }
      if (first === undefined && firstEmpty === undefined) context.pass({ messageId: "filled", data: { path: named } });
    }
  },
});
