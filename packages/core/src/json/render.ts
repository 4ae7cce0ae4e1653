/** JSON values written for people: their type's name, a short preview, the whole text however deep. */

/** `string`, `number`, `array`, `object`, `null`, …: the JSON type, as messages name it. */
export function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

/**
 * A short, printable rendering of a JSON value for messages: JSON.stringify's text,
 * cut at `max` characters. Written without recursion and stopping at the limit,
 * because JSON.stringify overflows the stack on a value nested 100,000 deep.
 */
export function preview(value: unknown, max = 60): string {
  if (value === undefined) return "undefined";
  const text = boundedJson(value, max + 1);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * JSON.stringify's text for any value the JSON parser can produce, however deep: a
 * value nested past the stack's depth is written without recursion.
 */
export function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return boundedJson(value, Infinity);
  }
}

interface Container {
  readonly close: "]" | "}";
  readonly items: readonly unknown[] | Readonly<Record<string, unknown>>;
  readonly keys: readonly string[] | undefined;
  index: number;
  written: number;
}

/** JSON.stringify's output, or its first `limit` characters or a little more. */
function boundedJson(value: unknown, limit: number): string {
  let out = "";
  const open: Container[] = [];
  let next: unknown = value;
  let pending = true;
  while (out.length < limit) {
    if (pending) {
      pending = false;
      const current = toJsonValue(next);
      if (Array.isArray(current)) {
        out += "[";
        open.push({ close: "]", items: current, keys: undefined, index: 0, written: 0 });
      } else if (typeof current === "object" && current !== null) {
        out += "{";
        const items = current as Readonly<Record<string, unknown>>;
        open.push({ close: "}", items, keys: Object.keys(items), index: 0, written: 0 });
      } else {
        out += scalarJson(current, limit);
      }
      continue;
    }
    const container = open.at(-1);
    if (container === undefined) break;
    if (container.keys === undefined) {
      const items = container.items as readonly unknown[];
      if (container.index >= items.length) {
        out += container.close;
        open.pop();
        continue;
      }
      if (container.index > 0) out += ",";
      next = items[container.index];
      container.index += 1;
      pending = true;
      continue;
    }
    const key = container.keys[container.index];
    if (key === undefined) {
      out += container.close;
      open.pop();
      continue;
    }
    container.index += 1;
    const member = toJsonValue((container.items as Readonly<Record<string, unknown>>)[key]);
    // JSON.stringify leaves out members it cannot represent.
    if (member === undefined || typeof member === "function" || typeof member === "symbol") continue;
    out += `${container.written > 0 ? "," : ""}${JSON.stringify(key)}:`;
    container.written += 1;
    next = member;
    pending = true;
  }
  return out;
}

/** What JSON.stringify would write for `value`: its toJSON() if it has one (a Date's string). */
function toJsonValue(value: unknown): unknown {
  const withToJson = value as { toJSON?: unknown } | null | undefined;
  return typeof withToJson?.toJSON === "function" ? (withToJson.toJSON as () => unknown).call(value) : value;
}

function scalarJson(value: unknown, limit: number): string {
  if (typeof value === "string") return JSON.stringify(value.length > limit ? value.slice(0, limit) : value);
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "null";
  if (typeof value === "boolean" || typeof value === "bigint") return String(value);
  // null, and what JSON.stringify writes as null in an array: undefined, functions, symbols.
  return "null";
}
