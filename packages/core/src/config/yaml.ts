// Its own module so that the CLI bundle keeps yaml in a chunk loaded only for YAML configs.
import { isMap, parseDocument, visit, type Document } from "yaml";

export interface ParsedYaml {
  /** The first problems, each with the offset it was found at. */
  readonly errors: readonly { readonly message: string; readonly offset: number }[];
  toJS(): unknown;
}

/**
 * Parses a YAML document in time linear in its size. yaml's own duplicate-key check
 * compares every key of a map with every other (40,000 keys: 15 s); it is off, and
 * duplicates are found here with a set per map instead.
 */
export function parseYamlDocument(text: string): ParsedYaml {
  const document: Document = parseDocument(text, { prettyErrors: false, uniqueKeys: false });
  const errors = document.errors.map((error) => ({ message: error.message, offset: error.pos[0] }));
  if (errors.length === 0) errors.push(...duplicateKeys(document));
  return { errors, toJS: () => document.toJS() as unknown };
}

function duplicateKeys(document: Document): { message: string; offset: number }[] {
  const found: { message: string; offset: number }[] = [];
  visit(document, {
    Map(_, map) {
      if (!isMap(map)) return;
      const seen = new Set<unknown>();
      for (const pair of map.items) {
        const key: unknown = pair.key;
        const scalar = typeof key === "object" && key !== null && "value" in key ? key.value : key;
        if (seen.has(scalar)) {
          const range = typeof key === "object" && key !== null && "range" in key ? (key as { range?: [number, number, number] }).range : undefined;
          found.push({ message: `Map keys must be unique; "${String(scalar)}" is repeated`, offset: range?.[0] ?? 0 });
          return visit.BREAK;
        }
        seen.add(scalar);
      }
      return undefined;
    },
  });
  return found;
}
