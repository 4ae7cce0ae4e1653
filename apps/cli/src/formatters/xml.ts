const ENTITIES: Readonly<Record<string, string>> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };

/**
 * Text for XML 1.0 content or a quoted attribute. Characters XML cannot carry at
 * all (most control characters, lone surrogates, U+FFFE/U+FFFF) are written as
 * `\uXXXX` so that the document stays well-formed and the reader still sees them.
 */
export function escapeXml(text: string, attribute = false): string {
  let out = "";
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    const entity = ENTITIES[char];
    if (entity !== undefined) out += entity;
    else if (attribute && (char === "\n" || char === "\r" || char === "\t")) out += `&#${String(code)};`;
    else if (code === 0x9 || code === 0xa || code === 0xd || (code >= 0x20 && code <= 0xd7ff) || (code >= 0xe000 && code <= 0xfffd) || code >= 0x10000) out += char;
    else out += `\\u${code.toString(16).padStart(4, "0")}`;
  }
  return out;
}

export function attributes(values: Readonly<Record<string, string | number>>): string {
  return Object.entries(values)
    .map(([name, value]) => ` ${name}="${escapeXml(String(value), true)}"`)
    .join("");
}
