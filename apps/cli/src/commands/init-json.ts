import { JsonTokenizer, stringValue } from "@returnlint/core";

/**
 * A host's JSON settings file (.claude/settings.json, settings.local.json, .mcp.json,
 * opencode.json) edited as text: `init` inserts or replaces the few values it owns and keeps
 * every other byte as the user wrote it. Parsing and writing the file back would round a
 * number past 2^53, turn 1e400 into null, drop a key written twice and reindent the file.
 * The text is walked with core's one JSON tokenizer, which records where each value starts
 * and ends; new values take the indentation and line ending the file already uses.
 */

interface Span {
  readonly start: number;
  readonly end: number;
}

export interface JsonObjectNode extends Span {
  readonly kind: "object";
  readonly members: readonly JsonMember[];
}

export interface JsonArrayNode extends Span {
  readonly kind: "array";
  readonly elements: readonly JsonNode[];
}

export interface JsonScalarNode extends Span {
  readonly kind: "scalar";
}

export type JsonNode = JsonObjectNode | JsonArrayNode | JsonScalarNode;

export interface JsonMember {
  readonly key: string;
  readonly keyStart: number;
  readonly value: JsonNode;
}

/** A key on the way to what init edits is written twice: which one the host reads is not init's to guess. */
export class DuplicateKeyError extends Error {
  override readonly name = "DuplicateKeyError";
}

interface Edit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

type Building = { kind: "object"; start: number; end: number; members: JsonMember[] } | { kind: "array"; start: number; end: number; elements: JsonNode[] };

const BOM = "\uFEFF";

export class JsonText {
  private readonly edits: Edit[] = [];
  private readonly newline: string;
  private readonly unit: string;

  private constructor(
    private readonly text: string,
    private readonly bom: string,
    readonly root: JsonNode,
  ) {
    this.newline = text.includes("\r\n") ? "\r\n" : "\n";
    // The file's own indentation step: the first indented line's, else two spaces.
    this.unit = /\n([ \t]+)\S/.exec(text)?.[1] ?? "  ";
  }

  /** The text's values and where they are; a string saying what is wrong when it is not JSON. */
  static parse(source: string): JsonText | string {
    const bom = source.startsWith(BOM) ? BOM : "";
    const text = source.slice(bom.length);
    const tokens = new JsonTokenizer(text);
    const open: Building[] = [];
    let key: Pick<JsonMember, "key" | "keyStart"> | undefined;
    let root: JsonNode | undefined;
    const attach = (node: JsonNode) => {
      const parent = open.at(-1);
      if (parent === undefined) root = node;
      else if (parent.kind === "object" && key !== undefined) parent.members.push({ ...key, value: node });
      else if (parent.kind === "array") parent.elements.push(node);
    };
    for (let token = tokens.next(); token !== "end"; token = tokens.next()) {
      switch (token) {
        case "error":
          return tokens.reason;
        case "key":
          key = { key: stringValue(text, tokens.start, tokens.end), keyStart: tokens.start };
          break;
        case "{":
        case "[": {
          const node: Building = token === "{" ? { kind: "object", start: tokens.start, end: -1, members: [] } : { kind: "array", start: tokens.start, end: -1, elements: [] };
          attach(node);
          open.push(node);
          break;
        }
        case "}":
        case "]": {
          const node = open.pop();
          if (node !== undefined) node.end = tokens.end;
          break;
        }
        case "scalar":
          attach({ kind: "scalar", start: tokens.start, end: tokens.end });
          break;
      }
    }
    return root === undefined ? "it is empty" : new JsonText(text, bom, root);
  }

  /** What a value is, parsed: for reading only, never written back. */
  value(node: JsonNode): unknown {
    return JSON.parse(this.text.slice(node.start, node.end)) as unknown;
  }

  /** The member `key` of an object; DuplicateKeyError when it is written more than once. */
  member(object: JsonObjectNode, key: string): JsonMember | undefined {
    const found = object.members.filter((member) => member.key === key);
    if (found.length > 1) throw new DuplicateKeyError(`"${key}" is written ${String(found.length)} times`);
    return found[0];
  }

  /** Replaces a value. */
  replace(node: JsonNode, value: unknown): void {
    this.edits.push({ start: node.start, end: node.end, text: this.render(value, this.lineIndent(node.start)) });
  }

  /** Adds `"key": value` to an object, after its last member. */
  addMember(object: JsonObjectNode, key: string, value: unknown): void {
    this.insertLast(object, object.members.at(-1)?.value.end, object.members[0]?.keyStart, (indent, inline) => `${JSON.stringify(key)}: ${this.render(value, indent, inline)}`);
  }

  /** Adds `"key": value` to an object, before its first member. */
  addFirstMember(object: JsonObjectNode, key: string, value: unknown): void {
    const first = object.members[0];
    if (first === undefined) {
      this.addMember(object, key, value);
      return;
    }
    const inline = !this.text.slice(object.start, first.keyStart).includes("\n");
    const indent = this.lineIndent(first.keyStart);
    const separator = inline ? ", " : `,${this.newline}${indent}`;
    this.edits.push({ start: first.keyStart, end: first.keyStart, text: `${JSON.stringify(key)}: ${this.render(value, indent, inline)}${separator}` });
  }

  /** Removes a member and the comma that went with it. */
  removeMember(object: JsonObjectNode, member: JsonMember): void {
    const index = object.members.indexOf(member);
    const next = object.members[index + 1];
    const previous = object.members[index - 1];
    if (next !== undefined) this.edits.push({ start: member.keyStart, end: next.keyStart, text: "" });
    else if (previous !== undefined) this.edits.push({ start: previous.value.end, end: member.value.end, text: "" });
    else this.edits.push({ start: object.start + 1, end: object.end - 1, text: "" });
  }

  /** Adds a value at the end of an array. */
  append(array: JsonArrayNode, value: unknown): void {
    this.insertLast(array, array.elements.at(-1)?.end, array.elements[0]?.start, (indent, inline) => this.render(value, indent, inline));
  }

  /** The text with every edit made, byte for byte the same elsewhere. */
  toString(): string {
    let text = this.text;
    // Last first, so that earlier offsets still hold; of two insertions at one offset, the one asked for first ends up first.
    const order = this.edits.map((edit, index) => ({ edit, index })).sort((a, b) => b.edit.start - a.edit.start || b.index - a.index);
    for (const { edit } of order) text = text.slice(0, edit.start) + edit.text + text.slice(edit.end);
    return this.bom + text;
  }

  private insertLast(container: JsonNode, lastEnd: number | undefined, firstStart: number | undefined, entry: (indent: string, inline: boolean) => string): void {
    if (lastEnd === undefined || firstStart === undefined) {
      // Empty: one entry on a line of its own, one step in from the line that opens the container.
      const outer = this.lineIndent(container.start);
      const inner = outer + this.unit;
      this.edits.push({ start: container.start + 1, end: container.end - 1, text: `${this.newline}${inner}${entry(inner, false)}${this.newline}${outer}` });
      return;
    }
    const inline = !this.text.slice(container.start, firstStart).includes("\n");
    const indent = this.lineIndent(firstStart);
    this.edits.push({ start: lastEnd, end: lastEnd, text: inline ? `, ${entry(indent, true)}` : `,${this.newline}${indent}${entry(indent, false)}` });
  }

  /** A value as the file would write it at `indent`: on one line in a one-line container. */
  private render(value: unknown, indent: string, inline = false): string {
    if (inline) return JSON.stringify(value);
    return JSON.stringify(value, null, this.unit).replaceAll("\n", `${this.newline}${indent}`);
  }

  /** The spaces and tabs that start the line holding `offset`. */
  private lineIndent(offset: number): string {
    const lineStart = this.text.lastIndexOf("\n", offset - 1) + 1;
    return /^[ \t]*/.exec(this.text.slice(lineStart, offset))?.[0] ?? "";
  }
}
